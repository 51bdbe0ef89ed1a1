// GPUMech's analytical prediction [D ch. 4, METHODS.md §2]: interval profiles of every wave, the
// representative wave, multithreading, contention and the CPI stack, at one Table 8 level.
// A pure function of its inputs; the trace collector and cache-only simulation that fill them
// live elsewhere.
#pragma once

#include <cstdint>
#include <vector>

#include "sampling/gpumech/contention.h"
#include "sampling/gpumech/cpi_stack.h"
#include "sampling/gpumech/interval.h"
#include "sampling/gpumech/model_params.h"
#include "sampling/gpumech/multithreading.h"
#include "sampling/gpumech/representative.h"
#include "sampling/gpumech/trace.h"

namespace strobe::sampling::gpumech {

/// The waves the model reads, with latencies and miss distributions filled in, handed over one
/// at a time: the model keeps two numbers per wave and the representative's trace, so a launch
/// never holds every wave's TraceInsts at once (about 110 bytes per instruction).
class WaveSource {
 public:
  virtual ~WaveSource() = default;
  /// Number of waves, in a fixed order.
  [[nodiscard]] virtual size_t size() const = 0;
  /// Writes wave `w`'s trace into `out`, reusing its storage.
  virtual void load(size_t w, WaveTrace& out) const = 0;
};

/// Waves held in memory: what tests and small inputs give the model.
struct ModelInputs final : WaveSource {
  std::vector<WaveTrace> waves;  ///< the waves of the modelled launch, in any fixed order

  [[nodiscard]] size_t size() const override { return waves.size(); }
  void load(size_t w, WaveTrace& out) const override { out = waves[w]; }
};

/// The prediction and the intermediate quantities behind it. CPIs are per wave instruction on one
/// SIMD; *_slots values are in issue slots, the others in cycles.
struct Prediction {
  Level level = Level::MtMshrBand;      ///< the ablation level predicted
  Representative representative;        ///< the chosen wave and its clustering
  IntervalProfile profile;              ///< the representative's interval profile
  double miss_latency = 0;              ///< avg_miss_latency of Eq. 28 over every wave, cycles
  double cpi_alone_slots = 0;           ///< the representative alone: total_cycles / insts
  double cpi_naive_slots = 0;           ///< Eq. 10
  Multithreading multithreading;        ///< Eqs. 16-25 under params.policy
  Contention contention;                ///< Eqs. 26-32 (reported at every level, used from MtMshr on)
  double cpi_multithreading_slots = 0;  ///< the level's overlap model: Eq. 10 (Naive) or Eq. 16
  double cpi_rc_slots = 0;              ///< the level's Eq. 26: 0, MSHR, or MSHR + bandwidth
  double cpi_slots = 0;                 ///< Eq. 12: cpi_multithreading_slots + cpi_rc_slots
  double cpi = 0;                       ///< cpi_slots x cycles_per_slot: cycles per wave instruction per SIMD
  CpiStack stack;                       ///< Table 9 categories in cycles per instruction; sums to cpi
  uint64_t wave_insts = 0;              ///< Σ instructions over every wave
  double cycles = 0;                    ///< cpi x wave_insts / (cus x simds_per_cu): balanced, no tail (§2.9.7)
  /// The slowest wave running alone (its Eq. 13 total), in cycles: a lower bound on the launch's
  /// time that the balanced estimate ignores (the tail bound, strobe's extension); from a saved
  /// trace, the wave with the most instructions stands for the slowest.
  double tail_cycles = 0;
};

/// The CPI (cycles per wave instruction per SIMD) that `level` would give from the quantities
/// of `p`, whatever level `p` was predicted at: every level's terms are computed on every run,
/// so one run yields the whole Table 8 chain.
double level_cpi(const Prediction& p, Level level, const ModelParams& params);

/// What the model needs from every wave besides the representative: one pass over all of them.
struct WaveSurvey {
  Representative representative;  ///< chosen from every wave's interval profile (§2.3)
  double miss_latency = 0;         ///< Eq. 28's avg_miss_latency over every wave, cycles
  uint64_t wave_insts = 0;         ///< Σ instructions over every wave
  double longest_wave_slots = 0;   ///< the slowest wave alone (Eq. 13 total), slots; 0 if not surveyed
};

/// Profiles every wave (Eq. 13), chooses the representative and gathers Eq. 28's latency.
WaveSurvey survey_waves(const WaveSource& inputs, const ModelParams& params);

/// Wave `w` of `inputs` running alone (its Eq. 13 total), in issue slots: what a re-run from a
/// saved trace profiles for the tail bound, of the wave with the most instructions.
double alone_slots(const WaveSource& inputs, const ModelParams& params, size_t w);

/// The model from a survey: only the representative `survey.representative.wave` is loaded and
/// profiled. With a survey from another configuration's run and this one's miss latency, this is
/// §2.7's re-run for a new configuration (representative_only in the re-run's terms).
Prediction predict(const WaveSource& inputs, const ModelParams& params, Level level, const WaveSurvey& survey);

/// Predicts the launch at `level`: survey_waves(), then the model from it. Throws std::invalid_argument when no wave has an instruction,
/// when a trace names a later producer, or for parameters outside their domain (non-positive
/// issue rate, slot length, waves, SIMDs or CUs; negative MSHRs; non-positive DRAM terms).
Prediction predict(const WaveSource& inputs, const ModelParams& params, Level level);

}  // namespace strobe::sampling::gpumech
