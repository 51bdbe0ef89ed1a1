// Bounded-resolution activity timeline (see timeline.h).
#include "timing/gpu/timeline.h"

#include <algorithm>

#include "timing/engine/events.h"

namespace strobe::timing {

uint64_t Timeline::span(size_t i, uint64_t cycles) const {
  const uint64_t from = uint64_t(i) * interval;
  return from >= cycles ? 0 : std::min(interval, cycles - from);
}

TimelineSampler::TimelineSampler(Engine& e, TimelineSources src, uint64_t max_samples)
    : Component("timeline"), engine_(e), src_(std::move(src)), max_samples_(std::max<uint64_t>(2, max_samples + max_samples % 2)) {
  last_.resize(3 + src_.cu_wave_instructions.size());
}

void TimelineSampler::begin(Cycle start, uint64_t interval, uint32_t launch) {
  base_ = interval, stride_ = 1, ticks_ = 0, start_ = start, launch_ = launch;
  t_ = Timeline{};
  t_.cus = uint32_t(src_.cu_wave_instructions.size());
  last_[0] = *src_.wave_instructions, last_[1] = *src_.dispatched, last_[2] = *src_.retired;
  for (size_t c = 0; c < src_.cu_wave_instructions.size(); ++c) last_[3 + c] = *src_.cu_wave_instructions[c];
  if (base_) engine_.schedule(start + base_, this, kSample, launch_);
}

void TimelineSampler::halve() {
  // Every sample is full here (a new one is only started once the last is), and there is an
  // even number of them: pairs merge exactly.
  const size_t n = t_.samples(), cus = t_.cus;
  auto merge = [n](std::vector<uint64_t>& v, size_t width) {
    for (size_t i = 0; i < n / 2; ++i)
      for (size_t k = 0; k < width; ++k) v[i * width + k] = v[2 * i * width + k] + v[(2 * i + 1) * width + k];
    v.resize(n / 2 * width);
  };
  merge(t_.wave_instructions, 1), merge(t_.dispatched, 1), merge(t_.retired, 1);
  merge(t_.cu_wave_instructions, cus);
  stride_ *= 2;
}

void TimelineSampler::take(bool into_last) {
  if (t_.samples() == 0 || (ticks_ == stride_ && !into_last)) {
    if (t_.samples() == max_samples_) halve();
    t_.wave_instructions.push_back(0), t_.dispatched.push_back(0), t_.retired.push_back(0);
    t_.cu_wave_instructions.resize(t_.cu_wave_instructions.size() + t_.cus, 0);
    ticks_ = 0;
  }
  auto add = [this](uint64_t& slot, size_t k, const uint64_t* now_value) {
    slot += *now_value - last_[k];
    last_[k] = *now_value;
  };
  add(t_.wave_instructions.back(), 0, src_.wave_instructions);
  add(t_.dispatched.back(), 1, src_.dispatched);
  add(t_.retired.back(), 2, src_.retired);
  uint64_t* cu = t_.cu_wave_instructions.data() + (t_.samples() - 1) * t_.cus;
  for (size_t c = 0; c < t_.cus; ++c) add(cu[c], 3 + c, src_.cu_wave_instructions[c]);
}

void TimelineSampler::handle(Cycle now, uint32_t kind, uint32_t launch) {
  if (kind != kSample) unhandled(kind);
  if (launch != launch_) return;  // a tick of a finished launch
  take(false);
  ++ticks_;
  engine_.schedule(now + base_, this, kSample, launch_);
}

Timeline TimelineSampler::end(Cycle end) {
  if (base_) {
    // The activity since the last tick: part of the current sample, or a new, partial one. A
    // tick on the launch's last cycle may have run before that cycle's retirements: they go
    // into the last sample.
    const uint64_t taken = (t_.samples() == 0 ? 0 : (t_.samples() - 1) * stride_ + ticks_) * base_;
    take((end - start_).value() <= taken);
    t_.interval = base_ * stride_;
  }
  launch_ = UINT32_MAX;
  return std::move(t_);
}

}  // namespace strobe::timing
