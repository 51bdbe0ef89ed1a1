#include "timing/cu/cpi_accountant.h"

namespace strobe::timing {

const char* cpi_name(CpiReason r) {
  static const char* const kNames[] = {"issue", "dependency", "l1", "l2", "dram", "mshr_queue",
                                       "dram_queue", "barrier", "fetch", "other"};
  return kNames[size_t(r)];
}

}  // namespace strobe::timing
