#include "timing/mem/dram_scheduler.h"

#include <fmt/format.h>

#include "common/error.h"

namespace strobe::timing {

std::unique_ptr<DramScheduler> make_dram_scheduler(std::string_view name, const DramSchedulerParams& p) {
  if (const auto* e = Registry<DramSchedulers>::find(name)) return e->make(p);
  throw InputError(
      fmt::format("unknown DRAM scheduler '{}' (known: {})", name, fmt::join(dram_scheduler_names(), ", ")));
}

std::vector<std::string> dram_scheduler_names() { return Registry<DramSchedulers>::names(); }

}  // namespace strobe::timing
