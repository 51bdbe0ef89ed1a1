// `strobe profile`: the functional profile of a workload, written once and reused by
// profile-driven sampling methods on any GPU configuration (sampling/profile/profile_file.h).
#pragma once

#include <cstdint>
#include <string>

#include "experiment/run_spec.h"
#include "sampling/profile/profile_file.h"
#include "workloads/params.h"

namespace strobe::experiment {

/// One profile as asked for.
struct ProfileSpec {
  RunSpec run;              ///< workload (benchmark and params, or program) and arch (for the default line size)
  uint32_t line_bytes = 0;  ///< line size memory requests are counted at; 0: the arch's L1V line
  std::string output;       ///< file to write (-o)
  std::string check;        ///< existing profile to check against the workload (--check)
  /// Also save each launch's GPUMech trace (`--gpumech`), its representative wave chosen on the
  /// run's --arch and --set, so `--sampling gpumech --profile FILE` re-runs for any configuration
  /// without tracing again. About 13 bytes per wave instruction.
  bool gpumech = false;
};

/// What a profile run produced.
struct ProfileResult {
  sampling::profile::ProfileFile profile;
  double seconds = 0;  ///< the workload's run, setup and verification excluded
};

/// Runs the workload of `spec` functionally, profiling every launch (a program: run once as
/// tbpoint's profiling pass, whose pass state is the profile). Throws InputError for a bad line
/// size or benchmark, or a program that fails or uses no simulated GPU.
ProfileResult collect_profile(const ProfileSpec& spec);

/// Runs collect_profile() and writes the file atomically, or with `check` set, loads that file
/// and throws InputError naming it and its first difference from the workload.
ProfileResult profile(const ProfileSpec& spec);

/// The identity a benchmark run with effective parameters `params` has in a profile.
sampling::profile::WorkloadIdentity benchmark_identity(const std::string& bench, const workloads::Params& params);

/// Throws InputError unless `p`, loaded from `file`, profiles benchmark `bench` with `params`
/// ("K=V" as given; defaults resolved). Launch by launch the method checks the rest as it runs.
void require_profile_of(const std::string& file, const sampling::profile::ProfileFile& p, const std::string& bench,
                        const std::vector<std::string>& params);

/// One line summarising `r`: launches, work-groups, wave instructions and seconds.
std::string profile_summary(const ProfileResult& r);

}  // namespace strobe::experiment
