// The Markov-chain model behind TBPoint's Lemma 4.1 [T §IV-A, Eq. 3]: the IPC of N warps
// (wavefronts) that stall with probability p for M cycles, and its spread when M varies.
// A validation model only: nothing at run time depends on it.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include <Eigen/Core>

namespace strobe::sampling::tbpoint {

/// Monte-Carlo samples of the lemma's validation [T §IV-A].
inline constexpr int kMarkovSamples = 10000;

/// Largest N the explicit 2^N-state matrix is built for: GCN3's 10 waves per SIMD (8 MB of doubles).
inline constexpr int kMarkovMaxMatrixWarps = 10;

/// The 2^N x 2^N transition matrix T of Eq. 3 for N = m.size() warps. State bit 1 means runnable,
/// 0 stalled; warp 1 (m[0]) is the most significant bit. Per warp, runnable -> stalled with
/// probability p and stalled -> runnable with probability 1/m[x]; S_ij is the product over warps.
/// Requires 1 <= N <= kMarkovMaxMatrixWarps, 0 <= p <= 1 and every m[x] >= 1 (throws otherwise).
Eigen::MatrixXd markov_transition_matrix(double p, std::span<const double> m);

/// lim V T^n from the all-runnable state V = e_{2^N-1} by power iteration, stopped when an
/// iteration moves at most `tolerance` of probability (L1), or when the change has sat below
/// 1e-12 without shrinking for 200 iterations (rounding noise). Throws after `max_iter`
/// iterations without converging (p = 1 with M = 1 makes the chain periodic).
Eigen::RowVectorXd markov_steady_state(const Eigen::MatrixXd& t, double tolerance = 1e-14, int max_iter = 1000000);

/// IPC = 1 - R_0 (R_0: steady probability that every warp is stalled) from the explicit matrix.
double markov_ipc_matrix(double p, std::span<const double> m);

/// The same IPC in closed form, 1 - Π_x p·m_x / (1 + p·m_x): the warps are independent, so the
/// steady state factorises into each warp's two-state steady state. Any N >= 1.
double markov_ipc_closed_form(double p, std::span<const double> m);

/// Which solver the Monte-Carlo check runs per sample.
enum class MarkovSolver { ClosedForm, Matrix };

/// The spread of IPC over Monte-Carlo samples of M.
struct MarkovSpread {
  std::vector<double> ipc;  ///< one IPC per sample, in draw order
  double mean = 0;          ///< mean IPC over the samples
  double min = 0, max = 0;  ///< extreme IPCs
  double within_band = 0;   ///< fraction of samples whose |IPC - mean| / mean <= band
};

/// Lemma 4.1's check: `samples` draws, each giving every one of `n` warps its own
/// M_x ~ N(mu, (spread·mu/1.96)^2) (clamped to >= 1 cycle, as 1/M is a probability), solved
/// by `solver`. Deterministic for a seed on every platform (splitmix64 and Box-Muller).
MarkovSpread markov_monte_carlo(double p, double mu, int n, int samples, uint64_t seed, double spread = 0.1,
                                double band = 0.1, MarkovSolver solver = MarkovSolver::ClosedForm);

}  // namespace strobe::sampling::tbpoint
