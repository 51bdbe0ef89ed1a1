// Where a launch's work-groups run: the rule of timing::Dispatcher without its clock. Groups go
// out in dispatch order, each to the first CU with room counting round-robin from the CU after
// the previous placement; a CU has room while it holds fewer than the occupancy's work-groups.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

namespace strobe::timing {

/// The dispatcher's placement of one launch, advanced by the caller's notion of time.
class Placement {
 public:
  /// `groups` work-groups on `cus` CUs that each hold `groups_per_cu` at once (at least 1).
  Placement(uint32_t cus, uint32_t groups_per_cu, uint64_t groups);

  /// Places the next group if a CU has room: returns its CU (the group is next_group() - 1), or
  /// nullopt when every group is placed or no CU has room.
  std::optional<uint32_t> place_next();
  /// A group on `cu` retired: the CU has room for one more.
  void retire(uint32_t cu) { --resident_[cu]; }
  /// Groups placed so far (the next group's index).
  uint64_t next_group() const { return next_; }
  /// True once every group has been placed.
  bool all_placed() const { return next_ == groups_; }

 private:
  uint32_t cus_, per_cu_;
  uint64_t groups_, next_ = 0;
  uint32_t rr_ = 0;
  std::vector<uint32_t> resident_;
};

/// The CU of each of a launch's `groups` work-groups under the dispatcher's round-robin rule when
/// every group takes as long as the others (the oldest resident group retires first): where
/// functional work runs when it warms the caches.
std::vector<uint32_t> functional_placement(uint32_t cus, uint32_t groups_per_cu, uint64_t groups);

}  // namespace strobe::timing
