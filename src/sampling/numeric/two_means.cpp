// Exact 1-D 2-means by prefix sums.
#include "sampling/numeric/two_means.h"

#include <vector>

namespace strobe::sampling {

size_t two_means_split(std::span<const double> sorted) {
  const size_t n = sorted.size();
  if (n < 2) return 0;
  // Values are shifted by the first so that the sums of squares keep their precision.
  const double base = sorted[0];
  std::vector<double> s(n + 1, 0.0), q(n + 1, 0.0);
  for (size_t i = 0; i < n; ++i) {
    const double v = sorted[i] - base;
    s[i + 1] = s[i] + v;
    q[i + 1] = q[i] + v * v;
  }
  // Σ (x - mean)² over [a, b) = Σx² - (Σx)² / m.
  auto sse = [&](size_t a, size_t b) {
    const double m = double(b - a), sum = s[b] - s[a];
    return (q[b] - q[a]) - sum * sum / m;
  };
  size_t best = 0;
  double best_cost = 0;
  for (size_t k = 1; k < n; ++k) {
    if (sorted[k] == sorted[k - 1]) continue;
    const double cost = sse(0, k) + sse(k, n);
    if (best == 0 || cost < best_cost) best = k, best_cost = cost;
  }
  return best;
}

}  // namespace strobe::sampling
