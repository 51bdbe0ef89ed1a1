// GPUMech's analytical prediction.
#include "sampling/gpumech/predict.h"

#include <algorithm>
#include <stdexcept>

#include "sampling/gpumech/latency.h"

namespace strobe::sampling::gpumech {
namespace {

/// Rejects parameters the equations divide by or that make no physical sense.
void check(const ModelParams& p) {
  if (!(p.issue_rate > 0) || !(p.cycles_per_slot > 0) || !(p.waves_per_cu > 0) || p.simds_per_cu <= 0 ||
      p.cus <= 0 || p.mshrs_per_cu < 0 || !(p.core_ghz > 0) || !(p.line_bytes > 0) || !(p.dram_gb_per_s > 0)) {
    throw std::invalid_argument("gpumech: a model parameter is outside its domain");
  }
}

}  // namespace

double level_cpi(const Prediction& p, Level level, const ModelParams& params) {
  if (level == Level::NaiveInterval) return p.cpi_naive_slots * params.cycles_per_slot;
  const double mshr = level >= Level::MtMshr ? p.contention.cpi_mshr : 0;
  const double queue = level >= Level::MtMshrBand ? p.contention.cpi_queue : 0;
  return (p.multithreading.cpi + mshr + queue) * params.cycles_per_slot;
}

WaveSurvey survey_waves(const WaveSource& inputs, const ModelParams& params) {
  check(params);
  // One pass profiles every wave (Eq. 13) and keeps what the representative choice and Eq. 28
  // read; predict() then loads and profiles the representative again.
  WaveSurvey s;
  std::vector<WaveSummary> waves(inputs.size());
  MissLatency miss_latency;
  WaveTrace wave;
  IntervalProfile profile;
  for (size_t w = 0; w < waves.size(); ++w) {
    inputs.load(w, wave);
    interval_profile(wave, params, profile);
    waves[w] = summarize(profile, params.issue_rate);
    s.longest_wave_slots = std::max(s.longest_wave_slots, total_slots(profile.intervals, params.issue_rate));
    miss_latency.add(wave, params);
    s.wave_insts += wave.insts.size();
  }
  s.representative = choose_representative(waves, params);
  s.miss_latency = miss_latency.value();
  return s;
}

double alone_slots(const WaveSource& inputs, const ModelParams& params, size_t w) {
  check(params);
  WaveTrace wave;
  IntervalProfile profile;
  inputs.load(w, wave);
  interval_profile(wave, params, profile);
  return total_slots(profile.intervals, params.issue_rate);
}

Prediction predict(const WaveSource& inputs, const ModelParams& params, Level level) {
  return predict(inputs, params, level, survey_waves(inputs, params));
}

Prediction predict(const WaveSource& inputs, const ModelParams& params, Level level, const WaveSurvey& survey) {
  check(params);
  if (survey.representative.wave >= inputs.size())
    throw std::invalid_argument("gpumech: the representative wave is not among the inputs");
  Prediction p;
  p.level = level;
  p.representative = survey.representative;
  p.wave_insts = survey.wave_insts;
  WaveTrace rep;
  inputs.load(p.representative.wave, rep);
  interval_profile(rep, params, p.profile);
  const auto& iv = p.profile.intervals;
  const double r = params.issue_rate, w = params.waves_per_simd();

  p.cpi_alone_slots = total_slots(iv, r) / static_cast<double>(total_insts(iv));
  p.cpi_naive_slots = naive_cpi(iv, w, r);
  p.multithreading = multithreading(iv, w, params.policy, r);
  p.miss_latency = survey.miss_latency;
  p.contention = contention(rep, iv, p.miss_latency, params);

  p.cpi_multithreading_slots = level == Level::NaiveInterval ? p.cpi_naive_slots : p.multithreading.cpi;
  const double mshr = level >= Level::MtMshr ? p.contention.cpi_mshr : 0;
  const double queue = level >= Level::MtMshrBand ? p.contention.cpi_queue : 0;
  p.cpi_rc_slots = mshr + queue;
  p.cpi_slots = p.cpi_multithreading_slots + p.cpi_rc_slots;  // Eq. 12
  p.cpi = p.cpi_slots * params.cycles_per_slot;  // = level_cpi(p, level, params)
  p.stack = final_stack(representative_stack(rep, iv, r), p.cpi_multithreading_slots, mshr, queue)
                .scaled(params.cycles_per_slot);
  p.cycles = p.cpi * static_cast<double>(p.wave_insts) / (params.cus * params.simds_per_cu);
  p.tail_cycles = survey.longest_wave_slots * params.cycles_per_slot;
  return p;
}

}  // namespace strobe::sampling::gpumech
