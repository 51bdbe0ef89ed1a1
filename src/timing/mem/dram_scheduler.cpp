#include "timing/mem/dram_scheduler.h"

#include <fmt/format.h>

#include "common/error.h"

namespace strobe::timing {

namespace {
struct Entry {
  const char* name;
  DramSchedulerFactory make;
};
// The registry: one line per scheduler.
constexpr Entry kSchedulers[] = {
    {"fcfs", make_dram_fcfs},
    {"frfcfs", make_dram_frfcfs},
};
}  // namespace

std::unique_ptr<DramScheduler> make_dram_scheduler(std::string_view name, const DramSchedulerParams& p) {
  for (const Entry& e : kSchedulers)
    if (name == e.name) return e.make(p);
  throw InputError(
      fmt::format("unknown DRAM scheduler '{}' (known: {})", name, fmt::join(dram_scheduler_names(), ", ")));
}

std::vector<std::string> dram_scheduler_names() {
  std::vector<std::string> v;
  for (const Entry& e : kSchedulers) v.emplace_back(e.name);
  return v;
}

}  // namespace strobe::timing
