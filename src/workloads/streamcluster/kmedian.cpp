// Rodinia streamcluster's host logic: pspeedy, feasible-candidate selection and pgain's reduction.
#include "workloads/streamcluster/kmedian.h"

#include <cmath>
#include <utility>

namespace strobe::workloads::streamcluster {
namespace {

constexpr int kIter = 3;  ///< Rodinia's ITER: scales the number of feasible candidates
constexpr int kSp = 1;    ///< pspeedy tries at one z before z is halved

/// A uniform draw in [0, 1) as float, as Rodinia's (float)lrand48() / INT_MAX.
float draw(Rng& rng) { return float(rng.next() >> 40) * 0x1p-24f; }

/// Rodinia's shuffle: a Fisher-Yates pass over whole points.
void shuffle_points(Clustering& c, Rng& rng) {
  for (uint32_t i = 0; i + 1 < c.num; ++i) {
    uint32_t j = i + rng.below(c.num - i);
    if (j == i) continue;
    for (uint32_t d = 0; d < c.dim; ++d) std::swap(c.coord[size_t(i) * c.dim + d], c.coord[size_t(j) * c.dim + d]);
    std::swap(c.weight[i], c.weight[j]);
  }
}

/// Rodinia's pspeedy: the first point is a centre; every later point opens as a centre with
/// probability cost / z, taking every point it is nearer to.
void pspeedy(Clustering& c, Rng& rng) {
  for (uint32_t k = 0; k < c.num; ++k) c.cost[k] = c.dist(k, 0) * c.weight[k], c.assign[k] = 0;
  c.numcenters = 1;
  for (uint32_t i = 1; i < c.num; ++i)
    if (draw(rng) < c.cost[i] / c.z) {
      ++c.numcenters;
      for (uint32_t k = 0; k < c.num; ++k) {
        float distance = c.dist(i, k);
        if (distance * c.weight[k] < c.cost[k]) c.cost[k] = distance * c.weight[k], c.assign[k] = int32_t(i);
      }
    }
}

}  // namespace

float Clustering::dist(uint32_t a, uint32_t b, bool fused) const {
  float s = 0.0f;
  for (uint32_t d = 0; d < dim; ++d) {
    float diff = coord[size_t(a) * dim + d] - coord[size_t(b) * dim + d];
    s = fused ? std::fma(diff, diff, s) : s + diff * diff;
  }
  return s;
}

std::vector<int32_t> initial_solution(Clustering& c, Rng& rng) {
  double hiz = 0, loz = 0;
  for (uint32_t k = 0; k < c.num; ++k) hiz += double(c.dist(k, 0)) * c.weight[k];
  c.z = float((hiz + loz) / 2);
  c.cost.assign(c.num, 0.0f), c.assign.assign(c.num, 0);
  shuffle_points(c, rng);
  pspeedy(c, rng);
  int tries = 0;
  while (c.numcenters < kKmin && tries < kSp) pspeedy(c, rng), ++tries;
  while (c.numcenters < kKmin) {  // still too few centres: z is too high
    if (tries >= kSp) hiz = c.z, c.z = float((hiz + loz) / 2), tries = 0;
    shuffle_points(c, rng);
    pspeedy(c, rng);
    ++tries;
  }
  // selectfeasible_fast with unit weights: ITER * kmin * ln(kmin) points drawn uniformly.
  uint32_t numfeasible = std::min<uint32_t>(c.num, uint32_t(kIter * kKmin * std::log(double(kKmin))));
  std::vector<int32_t> feasible(numfeasible);
  for (uint32_t i = 0; i < numfeasible; ++i) feasible[i] = numfeasible == c.num ? int32_t(i) : int32_t(rng.below(c.num));
  c.is_center.assign(c.num, 0);
  for (uint32_t i = 0; i < c.num; ++i) c.is_center[c.assign[i]] = 1;
  for (uint32_t i = 0; i + 1 < numfeasible; ++i) std::swap(feasible[i], feasible[i + rng.below(numfeasible - i)]);
  return feasible;
}

void number_centers(const Clustering& c, std::vector<int32_t>& center_table) {
  int32_t count = 0;
  for (uint32_t i = 0; i < c.num; ++i)
    if (c.is_center[i]) center_table[i] = count++;
}

float apply_gain(Clustering& c, uint32_t x, const std::vector<int32_t>& center_table, std::vector<float>& work_mem,
                 const std::vector<uint8_t>& switch_membership) {
  const size_t k = size_t(c.numcenters), stride = k + 1;
  std::vector<float> lower(k, 0.0f);
  int64_t numclose = 0;
  float gl_cost = c.z;
  // A centre closes if the savings of reassigning its points to x exceed z; the point-order
  // float sums below are Rodinia's.
  for (uint32_t i = 0; i < c.num; ++i) {
    if (c.is_center[i]) {
      float low = c.z;
      for (uint32_t j = 0; j < c.num; ++j) low += work_mem[j * stride + center_table[i]];
      lower[center_table[i]] = low;
      if (low > 0) ++numclose, work_mem[i * stride + k] -= low;
    }
    gl_cost += work_mem[i * stride + k];
  }
  if (!(gl_cost < 0)) return 0.0f;  // opening x would not pay
  for (uint32_t i = 0; i < c.num; ++i)
    if (switch_membership[i] || lower[center_table[c.assign[i]]] > 0)
      c.cost[i] = c.weight[i] * c.dist(i, x), c.assign[i] = int32_t(x);
  for (uint32_t i = 0; i < c.num; ++i)
    if (c.is_center[i] && lower[center_table[i]] > 0) c.is_center[i] = 0;
  c.is_center[x] = 1;
  c.numcenters += 1 - numclose;
  return -gl_cost;
}

void reference_pgain(const Clustering& c, uint32_t x, const std::vector<int32_t>& center_table,
                     std::vector<float>& work_mem, std::vector<uint8_t>& switch_membership, bool fused) {
  const size_t stride = size_t(c.numcenters) + 1;
  work_mem.assign(c.num * stride, 0.0f), switch_membership.assign(c.num, 0);
  for (uint32_t i = 0; i < c.num; ++i) {
    float x_cost = c.dist(i, x, fused) * c.weight[i];
    if (x_cost < c.cost[i]) switch_membership[i] = 1, work_mem[i * stride + stride - 1] = x_cost - c.cost[i];
    else work_mem[i * stride + center_table[c.assign[i]]] += c.cost[i] - x_cost;
  }
}

}  // namespace strobe::workloads::streamcluster
