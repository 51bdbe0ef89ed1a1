// TBPoint's region observer.
#include "sampling/tbpoint/observer.h"

#include <utility>

namespace strobe::sampling::tbpoint {

RegionObserver::RegionObserver(RegionTable table, std::span<const WorkGroupCounts> groups, const Params& params,
                               bool skip, uint64_t l2_lines)
    : SkippingObserver(skip), sampler_(std::move(table), groups, params, l2_lines) {}

}  // namespace strobe::sampling::tbpoint
