// SimProf's method parameters, declared once (METHODS.md §3.2-3.4): the struct the method reads
// and the schema --sampling-set validates both come from this list. The baselines (simprof-srs,
// simprof-code, simprof-window) share it; a parameter a design does not use is ignored by it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sampling/method.h"
#include "sampling/simprof/sample_design.h"
#include "sampling/simprof/training.h"

namespace strobe::sampling::simprof {

/// Where the per-unit performance used for feature selection and allocation comes from
/// (METHODS.md §3.8: no gfx803 hardware counters exist here).
enum class Proxy : uint8_t {
  /// GPUMech's predicted cycles for every unit (its trace costs a functional run per launch).
  Gpumech,
  /// A pilot sample: the minimum per phase first, then the spread measured on it sizes the rest
  /// (two-phase sampling); no feature selection, since no unit has a value before it ran.
  Pilot,
};

/// The interval's quantile.
enum class Interval : uint8_t {
  /// Student's t with Welch-Satterthwaite degrees of freedom: allows for the spread itself being
  /// estimated from a few units per phase, which the normal quantile does not.
  T,
  /// The normal quantile z of METHODS.md §3.3, right only once every phase has many units.
  Z,
};

/// Value names of the enumeration parameters, as --sampling-set spells them (value order).
inline std::vector<std::string> param_choices(Proxy) { return {"gpumech", "pilot"}; }
/// `estimator`: the expansion estimator of METHODS.md §3.8, or the separate ratio estimator.
inline std::vector<std::string> param_choices(Estimator) { return {"expansion", "ratio"}; }
/// `interval`: Student's t or the normal quantile.
inline std::vector<std::string> param_choices(Interval) { return {"t", "z"}; }


// X(type, name, default, lo, hi, doc). error and confidence take "2%" and "95%" as well.
#define STROBE_SIMPROF_PARAMS(X)                                                                                  \
  X(double, error, 0.02, 1e-4, 1, "relative half-width of the confidence interval on total cycles to reach")     \
  X(double, confidence, 0.95, 0.5, 0.9999, "confidence level of the interval")                                   \
  X(uint64_t, units, 0, 0, 1e9,                                                                                  \
    "a fixed sample of this many units in one round instead of one sized to the error budget (0: sized)")        \
  X(uint64_t, seed, 1, 0, 1e15, "seed of the random draws: the same seed draws the same units")                  \
  X(Proxy, proxy, Proxy::Gpumech, 0, 1, "per-unit performance for selection and allocation: gpumech or pilot")   \
  X(Estimator, estimator, Estimator::Expansion, 0, 1,                                                            \
    "estimator of total cycles: expansion (sum of N_h x mean cycles) or ratio (cycles per instruction)")         \
  X(Interval, interval, Interval::T, 0, 1,                                                                       \
    "the interval's quantile: t (Student, Satterthwaite df: honest with few units per phase) or z")              \
  X(double, proportional, 0, 0, 1,                                                                              \
    "each phase gets at least this share of its proportional allocation (0: pure Neyman, the paper's)")        \
  X(uint64_t, unit_insts, 0, 0, 1e12,                                                                            \
    "launches of over 1.5x this many wave instructions are cut into work-group ranges of about this size, "     \
    "each a unit (0: every unit is a launch)")                                                                  \
  X(double, range_min_fulls, 4, 0, 1000,                                                                         \
    "a range holds at least this many GPU-fulls of work-groups (those resident at once on the configuration)") \
  X(double, range_warmup, 2, 0, 100,                                                                             \
    "GPU-fulls of work-groups (those resident at once) run in detail, unmeasured, before a sampled range")     \
  X(double, range_cooldown, 1, 0, 100,                                                                           \
    "GPU-fulls of work-groups run in detail, unmeasured, after a sampled range")                               \
  X(uint64_t, cold_start, 1, 0, 1000,                                                                            \
    "leading units (cold caches) measured whole as a stratum of their own (simprof, simprof-srs)")             \
  X(uint64_t, warmup, 0, 0, 1000,                                                                                \
    "launches run in detail, unmeasured, before each sampled unit that starts a launch (0: functional "        \
    "warming only)")                                                                                            \
  X(uint64_t, features, 100, 0, 1e6, "K: signature features kept by correlation with the proxy CPI (0: all)")    \
  X(double, kernel_weight, 0, 0, 1e6,                                                                            \
    "the kernel indicator in signatures, in largest block counts (0: an indicator of 1, the raw reading)")     \
  X(int, max_phases, 20, 1, 100, "largest k tried by the silhouette rule")                                       \
  X(double, silhouette_fraction, 0.9, 0.01, 1, "the smallest k scoring this share of the best silhouette")       \
  X(int, restarts, 5, 1, 100, "k-means restarts per k")                                                           \
  X(uint64_t, min_per_phase, 2, 2, 1000, "units sampled at least in every phase (2: its spread needs them)")  \
  X(std::string, save_training, "", 0, 0,                                                                        \
    "write what this run learned (phase centres, per-phase proxy CPI and measured cycles per instruction) "     \
    "to this file, for training= on another input")                                                             \
  X(std::string, training, "", 0, 0,                                                                             \
    "a save_training file of another input: units go to its nearest phase, and a phase Eq. 38 finds "           \
    "insensitive reuses its cycles per instruction instead of being simulated")                                 \
  X(double, sensitivity, 0.10, 0, 10, "Eq. 38's threshold on the relative change of a phase's mean or spread") \
  X(ReuseBy, reuse_by, ReuseBy::Proxy, 0, 1,                                                                     \
    "a reused phase's cycles: proxy (the training's cycles per GPUMech-predicted cycle x this input's "        \
    "predictions) or cpi (its cycles per instruction x this input's instructions)")

/// Every tunable of SimProf (names as --sampling-set spells them).
STROBE_METHOD_PARAMS(Params, STROBE_SIMPROF_PARAMS);

}  // namespace strobe::sampling::simprof
