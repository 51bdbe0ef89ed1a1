// Gathering what a run report needs from the device.
#include "report/run_report.h"

#include <fmt/core.h>

#include "report/timing_json.h"
#include "timing/config/gpu_config.h"

namespace strobe::report {

void attach_timing(RunReport& r, runtime::Device& dev) {
  timing::Gpu* gpu = dev.gpu();
  if (!gpu) return;
  r.config = gpu->config_json();
  r.timing_summary = timing_summary_json(gpu->snapshot(), gpu->now().value());
}

void attach_host_threads(RunReport& r, const runtime::Device& dev) { r.host_threads = dev.threads(); }

void attach_memory_digest(RunReport& r, runtime::Device& dev) {
  r.memory_digest = fmt::format("{:016x}", dev.memory().digest());
}

}  // namespace strobe::report
