// A functional profile file (sampling/profile) as TBPoint's algorithms read it: the shared
// profile layer knows nothing of any method, and each method converts what it needs.
#pragma once

#include "sampling/profile/profile_file.h"
#include "sampling/tbpoint/launch_profile.h"

namespace strobe::sampling::tbpoint {

/// The profile as TBPoint's algorithms consume it (mem_reqs = global + scratch requests).
ProgramProfile from_profile(const profile::ProfileFile& p);

}  // namespace strobe::sampling::tbpoint
