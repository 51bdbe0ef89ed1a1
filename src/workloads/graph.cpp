// Synthetic CSR graph generation.
#include "workloads/graph.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "common/host_memory.h"
#include "workloads/rng.h"

namespace strobe::workloads {

Csr make_graph(uint32_t rows, uint32_t cols, uint32_t avg_degree, bool power_law, uint64_t seed) {
  // Its edges (4 bytes each), offsets and degrees, the power law's weights, and the device copy
  // every benchmark uploads: refused before any is built when they cannot fit, rather than grown
  // until the OOM killer ends the run.
  check_host_bytes(fmt::format("a graph of {} rows with {} edges each on average, with its device copy", rows,
                               avg_degree),
                   2 * (uint64_t(rows) * avg_degree * 4 + uint64_t(rows) * 4) + uint64_t(rows) * (power_law ? 12 : 4));
  Rng rng(seed);
  std::vector<uint32_t> deg(rows);
  uint64_t target = uint64_t(rows) * avg_degree;
  if (power_law) {
    // Zipf weights 1/(rank+1)^0.9 over a random permutation of the rows, scaled to the target.
    std::vector<double> w(rows);
    double sum = 0;
    for (uint32_t i = 0; i < rows; ++i) sum += (w[i] = std::pow(double(i + 1), -0.9));
    for (uint32_t i = rows; i > 1; --i) std::swap(w[i - 1], w[rng.below(i)]);
    for (uint32_t i = 0; i < rows; ++i)
      deg[i] = std::min<uint32_t>(cols, uint32_t(std::floor(w[i] / sum * double(target) + rng.unit())));
  } else {
    for (auto& d : deg) d = std::min<uint32_t>(cols, avg_degree / 2 + rng.below(avg_degree + 1));
  }
  Csr g;
  g.rows = rows;
  g.row_ptr.resize(rows + 1, 0);
  for (uint32_t i = 0; i < rows; ++i) g.row_ptr[i + 1] = g.row_ptr[i] + deg[i];
  g.cols.resize(g.row_ptr[rows]);
  for (uint32_t i = 0; i < rows; ++i) {
    auto b = g.cols.begin() + g.row_ptr[i], e = g.cols.begin() + g.row_ptr[i + 1];
    for (auto it = b; it != e; ++it) *it = rng.below(cols);
    std::sort(b, e);
  }
  return g;
}

Csr transpose(const Csr& g, uint32_t cols) {
  Csr t;
  t.rows = cols;
  t.row_ptr.assign(cols + 1, 0);
  for (uint32_t c : g.cols) ++t.row_ptr[c + 1];
  for (uint32_t i = 0; i < cols; ++i) t.row_ptr[i + 1] += t.row_ptr[i];
  t.cols.resize(g.cols.size());
  std::vector<uint32_t> fill(t.row_ptr.begin(), t.row_ptr.end() - 1);
  for (uint32_t r = 0; r < g.rows; ++r)
    for (uint32_t e = g.row_ptr[r]; e < g.row_ptr[r + 1]; ++e) t.cols[fill[g.cols[e]]++] = r;
  return t;
}

}  // namespace strobe::workloads
