// DRAM request scheduling: the plug-in point of the memory controller. A scheduler decides which
// of a bank's queued requests issues next and, when several banks issue in the same cycle, in
// which order they take the channel's data bus. A policy is one file under mem/policies/ defining
// a class and registering its factory with STROBE_DRAM_SCHEDULER.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "timing/config/registry.h"

namespace strobe::timing {

/// A request waiting in a bank queue, as a scheduler sees it.
struct DramQueued {
  uint64_t row = 0;        ///< row (page) the request needs
  uint64_t seq = 0;        ///< arrival order at the controller (smaller is older)
  uint32_t bypassed = 0;   ///< times a younger request of its bank issued before it
  uint32_t req = 0;        ///< request pool index
  uint64_t arrive = 0;     ///< cycle the request reached the controller
  bool write = false;
};

/// Chooses the next request of a bank and the bus order of simultaneous issues.
class DramScheduler {
 public:
  virtual ~DramScheduler() = default;
  /// Index of the request of `queue` (a bank's requests in arrival order; the first has
  /// arrived) that issues next; only requests that arrived by cycle `now` may be chosen.
  /// `open_row` is the bank's open row, or UINT64_MAX when it is closed.
  virtual uint32_t pick(std::span<const DramQueued> queue, uint64_t open_row, uint64_t now) const = 0;
  /// True if `a` (a row hit if `a_hit`) takes the data bus before `b` when both issue together.
  virtual bool before(const DramQueued& a, bool a_hit, const DramQueued& b, bool b_hit) const = 0;
};

/// How a scheduler is configured.
struct DramSchedulerParams {
  uint32_t bypass_cap = 16;  ///< younger row hits that may issue ahead of an older request
};

/// The DRAM scheduler plug-in point.
struct DramSchedulers {
  using Factory = std::unique_ptr<DramScheduler> (*)(const DramSchedulerParams&);
  using Check = void*;  ///< schedulers accept every geometry
  static constexpr const char* kWhat = "DRAM scheduler";
};

/// Creates the scheduler registered as `name`; throws InputError listing the known names.
std::unique_ptr<DramScheduler> make_dram_scheduler(std::string_view name, const DramSchedulerParams& p);
/// Names of every registered scheduler, sorted.
std::vector<std::string> dram_scheduler_names();

}  // namespace strobe::timing

/// Registers a DRAM scheduler: NAME and its factory.
#define STROBE_DRAM_SCHEDULER(NAME, FACTORY) STROBE_REGISTER(::strobe::timing::DramSchedulers, NAME, FACTORY)
