// The Markov-chain model behind TBPoint's Lemma 4.1.
#include "sampling/tbpoint/markov.h"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <stdexcept>

#include <Eigen/Dense>

#include "sampling/numeric/mix.h"

namespace strobe::sampling::tbpoint {
namespace {

void check_inputs(double p, std::span<const double> m) {
  if (!(p >= 0 && p <= 1)) throw std::invalid_argument("markov: stall probability p must be in [0, 1]");
  if (m.empty()) throw std::invalid_argument("markov: need at least one warp");
  for (double mx : m)
    if (!(mx >= 1)) throw std::invalid_argument("markov: stall cycles M must be >= 1");
}

/// f(A_i[x], A_j[x]) of Eq. 3 for one warp: `from`/`to` are its bits (1 = runnable).
double warp_step(bool from, bool to, double p, double mx) {
  if (from != to) return from ? p : 1 / mx;
  return from ? 1 - p : 1 - 1 / mx;
}

}  // namespace

Eigen::MatrixXd markov_transition_matrix(double p, std::span<const double> m) {
  check_inputs(p, m);
  const int n = static_cast<int>(m.size());
  if (n > kMarkovMaxMatrixWarps) throw std::invalid_argument("markov: the explicit matrix is limited to N <= 10");
  const int states = 1 << n;
  Eigen::MatrixXd t(states, states);
  for (int i = 0; i < states; ++i)
    for (int j = 0; j < states; ++j) {
      double s = 1;
      for (int x = 0; x < n; ++x) {
        const int bit = n - 1 - x;  // warp 1 is the most significant bit
        s *= warp_step((i >> bit) & 1, (j >> bit) & 1, p, m[x]);
      }
      t(i, j) = s;
    }
  return t;
}

Eigen::RowVectorXd markov_steady_state(const Eigen::MatrixXd& t, double tolerance, int max_iter) {
  Eigen::RowVectorXd v = Eigen::RowVectorXd::Zero(t.rows());
  v[t.rows() - 1] = 1;  // all warps runnable
  Eigen::RowVectorXd next(t.rows());
  // Rounding in a 1024-term product leaves a noise floor near 1e-14 that a tight tolerance may
  // never beat; once the change is that small and has stopped shrinking, the limit is reached.
  constexpr double kNoiseFloor = 1e-12;
  constexpr int kStagnant = 200;
  double best = INFINITY;
  int since_best = 0;
  for (int it = 0; it < max_iter; ++it) {
    next.noalias() = v * t;
    const double moved = (next - v).lpNorm<1>();
    v.swap(next);
    if (moved <= tolerance) return v;
    if (moved < best) {
      best = moved, since_best = 0;
    } else if (++since_best >= kStagnant && best < kNoiseFloor) {
      return v;
    }
  }
  throw std::runtime_error("markov: power iteration did not converge");
}

double markov_ipc_matrix(double p, std::span<const double> m) {
  return 1 - markov_steady_state(markov_transition_matrix(p, m))[0];
}

double markov_ipc_closed_form(double p, std::span<const double> m) {
  check_inputs(p, m);
  // Each warp alone: pi_stalled * (1/M) = pi_runnable * p, so pi_stalled = pM / (1 + pM).
  double all_stalled = 1;
  for (double mx : m) all_stalled *= p * mx / (1 + p * mx);
  return 1 - all_stalled;
}

MarkovSpread markov_monte_carlo(double p, double mu, int n, int samples, uint64_t seed, double spread, double band,
                                MarkovSolver solver) {
  if (n < 1 || samples < 1) throw std::invalid_argument("markov: need at least one warp and one sample");
  const double sigma = spread * mu / 1.96;  // 95% of draws within +-spread of mu
  uint64_t state = seed;
  auto uniform = [&] { return (static_cast<double>(splitmix64(state) >> 11) + 0.5) * 0x1.0p-53; };  // (0, 1)
  MarkovSpread r;
  r.ipc.reserve(static_cast<size_t>(samples));
  std::vector<double> m(static_cast<size_t>(n));
  for (int s = 0; s < samples; ++s) {
    for (double& mx : m) {
      // Box-Muller, one normal per pair of uniforms: simple and identical on every platform.
      const double z = std::sqrt(-2 * std::log(uniform())) * std::cos(2 * std::numbers::pi * uniform());
      mx = std::max(1.0, mu + sigma * z);
    }
    r.ipc.push_back(solver == MarkovSolver::Matrix ? markov_ipc_matrix(p, m) : markov_ipc_closed_form(p, m));
  }
  double sum = 0;
  r.min = r.max = r.ipc.front();
  for (double v : r.ipc) sum += v, r.min = std::min(r.min, v), r.max = std::max(r.max, v);
  r.mean = sum / samples;
  int close = 0;
  for (double v : r.ipc) close += std::abs(v - r.mean) <= band * r.mean;
  r.within_band = static_cast<double>(close) / samples;
  return r;
}

}  // namespace strobe::sampling::tbpoint
