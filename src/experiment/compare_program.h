// `strobe compare --sampling M1[,M2...] -- PROGRAM [ARGS...]`: an OpenCL host program run in full
// detail and under each sampling method, compared launch by launch.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "experiment/run_spec.h"
#include "report/comparison.h"

namespace strobe::experiment {

/// Throws InputError naming the first difference when the launches of two runs of a program
/// (each a platform report's `kernels` array) differ in count, kernel name, grid or local size:
/// a program that launches differently from run to run cannot be compared launch by launch.
void check_same_launches(const nlohmann::json& full, const nlohmann::json& other, const std::string& other_run);

/// Runs c.spec.run.program once in full detail and once per method (once per pass of a method
/// that profiles first, the profiling runs counted in its time), c.spec.repeat times, each run
/// with its own report, and compares them. Throws InputError for a program that fails or
/// launches differently between runs.
report::RunComparison compare_program(const ValidatedCompare& c);

}  // namespace strobe::experiment
