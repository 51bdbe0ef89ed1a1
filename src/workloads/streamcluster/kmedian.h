// The host side of streamcluster: Rodinia's (PARSEC's) k-median local search around pgain.
#pragma once

#include <cstdint>
#include <vector>

#include "workloads/rng.h"

namespace strobe::workloads::streamcluster {

inline constexpr int kKmin = 10;  ///< fewest medians wanted (Rodinia's usual run: 10 to 20)
inline constexpr int kKmax = 20;  ///< most medians wanted

/// One chunk of points (coordinates point-major) and the current clustering: each point's
/// centre, the weighted cost of that assignment, which points are centres, and how many
/// centres the search believes are open (Rodinia's numcenters, the work-row width K).
struct Clustering {
  uint32_t num = 0, dim = 0;
  std::vector<float> coord, weight, cost;
  std::vector<int32_t> assign;
  std::vector<uint8_t> is_center;
  int64_t numcenters = 0;
  float z = 0;  ///< the cost of opening a centre

  /// Squared distance between points a and b, summed over the dimensions in order; `fused`
  /// accumulates each square with one fma, as code for a target without an unfused multiply-add
  /// (gfx942) computes it.
  float dist(uint32_t a, uint32_t b, bool fused = false) const;
};

/// Rodinia's pkmedian up to its first local search: shuffle the points, open centres with
/// pspeedy (halving z until at least kKmin open) and pick the feasible candidates. Returns them
/// shuffled as pFL orders them.
std::vector<int32_t> initial_solution(Clustering& c, Rng& rng);

/// Numbers the open centres in point order (pgain's center_table; other entries keep old values).
void number_centers(const Clustering& c, std::vector<int32_t>& center_table);

/// The host half of pgain for candidate x, given the kernel's work rows (K + 1 floats per point)
/// and switch flags: sums each centre's savings and the cost of opening x; if opening x pays,
/// reassigns points and closes the centres that no longer pay. Returns the gain (Rodinia's -gl_cost).
float apply_gain(Clustering& c, uint32_t x, const std::vector<int32_t>& center_table, std::vector<float>& work_mem,
                 const std::vector<uint8_t>& switch_membership);

/// What the kernel computes for candidate x, on the host: the work rows and switch flags
/// (`fused`: with the kernel's distance contracted into fmas, see Clustering::dist).
void reference_pgain(const Clustering& c, uint32_t x, const std::vector<int32_t>& center_table,
                     std::vector<float>& work_mem, std::vector<uint8_t>& switch_membership, bool fused = false);

}  // namespace strobe::workloads::streamcluster
