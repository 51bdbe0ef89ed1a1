// `strobe compare --sampling M1[,M2...] -- PROGRAM [ARGS...]`: an OpenCL host program run in full
// detail and under each sampling method, compared launch by launch.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace strobe::cli {

/// What `strobe compare -- PROGRAM` was asked to do.
struct ProgramCompareOptions {
  std::vector<std::string> command;  ///< PROGRAM and its arguments
  std::vector<std::string> methods;  ///< method names, checked by split_methods
  std::string arch = "r9nano", json;
  std::vector<std::string> sets;  ///< KEY=VALUE GPU overrides
  int repeat = 1;
};

/// Throws InputError naming the first difference when the launches of two runs of a program
/// (each a platform report's `kernels` array) differ in count, kernel name, grid or local size:
/// a program that launches differently from run to run cannot be compared launch by launch.
void check_same_launches(const nlohmann::json& full, const nlohmann::json& other, const std::string& other_run);

/// Runs the program once in full detail and once per method, `repeat` times, each run with its
/// own report; prints the comparison (or writes it as JSON to o.json, "-" for stdout). Returns
/// 0; throws InputError for bad options, a program that fails or launches differently between
/// runs, NotImplementedError for a method needing several passes.
int compare_program(const ProgramCompareOptions& o);

}  // namespace strobe::cli
