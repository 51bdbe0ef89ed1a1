#include "sampling/common/runners.h"

#include <algorithm>
#include <cmath>

#include "timing/gpu/gpu.h"

namespace strobe::sampling {

runtime::LaunchResult unprofiled_launch(const std::string& method, const std::string& why, const emu::Dispatch& d,
                                        emu::GlobalMemory& mem, timing::Gpu& gpu) {
  auto lt = std::make_shared<timing::LaunchTiming>(gpu.run(d, mem));
  auto rec = std::make_shared<runtime::SampledLaunch>();
  rec->method = method;
  rec->level = "detailed";
  rec->detailed_instructions = lt->detailed_wave_instructions;
  rec->estimated_cycles = lt->cycles;
  rec->detail = {{"unprofiled", why}};
  runtime::LaunchResult r;
  r.stats = lt->functional;
  r.timing = lt;
  r.sampling = rec;
  return r;
}

runtime::LaunchResult UnprofiledRuns::run(const std::string& method, const std::string& why, const emu::Dispatch& d,
                                          emu::GlobalMemory& mem, timing::Gpu& gpu) {
  ++launches_;
  runtime::LaunchResult r = unprofiled_launch(method, why, d, mem, gpu);
  if (r.timing) add(r.timing->cycles, r.timing->wave_instructions);
  return r;
}

void UnprofiledRuns::add(uint64_t cycles, uint64_t instructions) {
  ++timed_;
  cycles_ += cycles;
  instructions_ += instructions;
}

void UnprofiledRuns::time(timing::LaunchTiming& t, runtime::SampledLaunch& rec, uint64_t instructions,
                          double clock_mhz) const {
  const uint64_t cycles =
      uint64_t(std::llround(double(cycles_) / double(std::max<uint64_t>(instructions_, 1)) * double(instructions)));
  t.set_totals(cycles, instructions, t.thread_instructions, clock_mhz);
  rec.estimated_cycles = cycles;
  rec.detail["timed_from_unprofiled_launches"] = timed_;
}

}  // namespace strobe::sampling
