// Named sets of benchmark runs (configs/sets/NAME.toml) and set files, for evaluating sampling
// methods over many workloads: `strobe compare --set NAME` / `--set-file FILE`.
#pragma once

#include <string>
#include <vector>

namespace strobe::workloads {

/// One run of a set: a benchmark and its `K=V` parameter assignments.
struct SetRun {
  std::string benchmark;
  std::vector<std::string> params;
};

/// A resolved set at one size variant.
struct BenchSet {
  std::string name;         ///< the set's name, or the file it came from
  std::string size;         ///< the size variant it was resolved at
  std::string description;  ///< one line (empty for plain-text files)
  std::vector<SetRun> runs;
};

/// The size variant sets run at unless told otherwise (the evaluation sizes).
inline constexpr const char* kDefaultSetSize = "eval";
/// The size variant every set has: each of its benchmarks once at its `small` parameter values.
inline constexpr const char* kCiSetSize = "ci";

/// Directory of the named sets (the source tree's configs/sets, or $STROBE_SETS_DIR).
std::string sets_dir();

/// The named sets, sorted.
std::vector<std::string> set_names();

/// Loads the named set at `size`. Throws InputError for an unknown set (listing the known ones),
/// an unknown size, or a bad run line (naming the file and line).
BenchSet load_named_set(const std::string& name, const std::string& size);

/// Loads a set file: FILE.toml has the named sets' schema; any other file is plain text, one
/// `BENCH [--param K=V]...` run per line (`#` starts a comment), and has only the `eval` size
/// plus the derived `ci`.
BenchSet load_set_file(const std::string& path, const std::string& size);

/// Parses and validates one `BENCH [--param K=V]...` line against the benchmark registry;
/// `where` (e.g. "FILE:LINE") prefixes the InputError.
SetRun parse_set_line(const std::string& line, const std::string& where);

/// `bench` at the `small` value of each of its parameters.
SetRun small_run(const std::string& bench);

}  // namespace strobe::workloads
