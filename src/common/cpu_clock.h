// The process's CPU time, beside wall-clock time wherever a cost is measured: on a machine that
// runs other work at the same time, wall-clock seconds grow with the load and CPU seconds much
// less, so a ratio measured from runs made at different times is set from both.
#pragma once

#include <time.h>

namespace strobe {

/// CPU seconds this process has used so far, all of its threads together.
inline double process_cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return double(t.tv_sec) + 1e-9 * double(t.tv_nsec);
}

}  // namespace strobe
