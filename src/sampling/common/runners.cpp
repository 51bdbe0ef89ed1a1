#include "sampling/common/runners.h"

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

}  // namespace strobe::sampling
