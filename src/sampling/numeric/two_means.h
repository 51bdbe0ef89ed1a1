// The optimal split of one-dimensional values into two groups (2-means): what ROOT's recursive
// splitting needs, exact where Lloyd's iterations from a random start are not.
#pragma once

#include <cstddef>
#include <span>

namespace strobe::sampling {

/// For `sorted` (ascending), the k that minimises the summed squared deviations of
/// sorted[0, k) and sorted[k, n) about their means: the global optimum of 1-D 2-means, whose
/// groups are always contiguous in sorted order. Cuts only between distinct values; the
/// smallest such k wins a tie. 0 when there is no cut (fewer than two distinct values).
size_t two_means_split(std::span<const double> sorted);

}  // namespace strobe::sampling
