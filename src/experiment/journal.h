// A set comparison's journal: every finished run's row and scores, kept in a JSON Lines file so
// that a set of many hours survives an interruption or a failing run. A rerun with the same
// journal takes each run found there instead of simulating it again, and simulates the rest.
//
// A run is found by its key: the benchmark and its arguments, and everything of the comparison
// that changes results or speedups (arch, GPU overrides, methods, their parameters, verify,
// skip-functional, the warming when there is any, repeats). Each entry also records the strobe
// build and host it was measured on; those are provenance, not part of the key, so runs
// measured by different builds of an unchanged model can share one journal (docs/sampling.md, "Journals").
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "experiment/run_spec.h"
#include "report/comparison.h"
#include "sampling/eval/compare_stats.h"
#include "workloads/bench_set.h"

namespace strobe::experiment {

/// One finished run as the journal keeps it.
struct JournalEntry {
  report::SetRunRow row;                   ///< methods in the comparison's order; its provenance says who measured it
  std::vector<sampling::RunScore> scores;  ///< per method, in the same order
};

/// The journal file of one or more set comparisons.
class RunJournal {
 public:
  /// Reads `path` (a missing file is an empty journal). Throws InputError naming the file and
  /// line of an entry that does not parse.
  explicit RunJournal(std::string path);

  /// The entry of run `r` under comparison `c`, if the journal has one.
  std::optional<JournalEntry> find(const ValidatedCompare& c, const workloads::SetRun& r) const;
  /// Adds (or replaces) run `r`'s entry and rewrites the file atomically. Comparisons sharing
  /// the journal at once each keep every entry: the rewrite holds an exclusive lock on PATH.lock
  /// and first reads again what the others recorded since.
  void record(const ValidatedCompare& c, const workloads::SetRun& r, const JournalEntry& e);
  /// Entries in the file (of any comparison).
  size_t size() const { return lines_.size(); }

  /// The key identifying run `r` under `c` (see the file comment).
  static nlohmann::json key(const ValidatedCompare& c, const workloads::SetRun& r);
  /// This build and host, recorded with every entry.
  static nlohmann::json provenance();

 private:
  void save() const;
  /// Reads the file's entries into lines_ (none when it does not exist).
  void load();

  std::string path_;
  std::vector<nlohmann::json> lines_;  // {"version", "key", "row", "scores"}
};

}  // namespace strobe::experiment
