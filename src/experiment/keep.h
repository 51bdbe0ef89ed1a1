// `strobe keep W.cap --sampling M[,M...] [--launches LIST] -o K.cap`: a capture that keeps only
// the checkpoints the named methods' replays run (capture/keep.h), found by replaying each method
// from the capture on the configuration asked; what it serves is recorded in the new file.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "capture/keep.h"
#include "experiment/run_spec.h"

namespace strobe::experiment {

/// What to keep of a capture.
struct KeepSpec {
  /// The capture (`capture`), the configuration the methods choose on (`arch`, `sets`), their
  /// parameters (`sampling_sets`), the warm state, host threads; `sampling` is unused.
  RunSpec run;
  std::vector<std::string> methods;  ///< sampling methods whose replays' launches are kept
  std::string launches;              ///< launches kept besides ("3,17,40-45"), or empty
  std::string output;                ///< the new capture, written atomically
};

/// What keep() did.
struct KeepOutcome {
  capture::KeepResult file;
  std::string kept_for;                                    ///< as the new capture records it
  std::vector<std::pair<std::string, uint64_t>> methods;   ///< each method and the checkpoints its replay read
  double seconds = 0;                                      ///< the methods' replays and the copy
};

/// Replays each method of `spec` from the capture in timing mode on `spec.run`'s configuration,
/// and writes the capture keeping the checkpoints of every launch one of them ran, plus
/// `spec.launches`. InputError for a bad spec (no method and no launch list, an unknown method
/// or key, a launch out of range) and what a replay or keep_launches throws.
KeepOutcome keep(const KeepSpec& spec);

/// One line summarising what keep() wrote.
std::string keep_summary(const KeepOutcome& k, const std::string& output);

}  // namespace strobe::experiment
