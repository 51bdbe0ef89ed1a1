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

void attach_host_timeline(RunReport& r, const timing::CommandTimeline& t) {
  auto engine = [&](timing::CommandEngine e) {
    const timing::EngineTotals& x = t.totals(e);
    return nlohmann::json{{"commands", x.commands}, {"bytes", x.bytes}, {"busy_seconds", double(x.busy_ns) * 1e-9}};
  };
  r.host = {{"span_seconds", double(t.span_ns()) * 1e-9},
            {"compute", engine(timing::CommandEngine::Compute)},
            {"to_device", engine(timing::CommandEngine::ToDevice)},
            {"to_host", engine(timing::CommandEngine::ToHost)},
            {"link", {{"to_device_gbs", t.to_device_gbs()},
                      {"to_host_gbs", t.to_host_gbs()},
                      {"transfer_latency_seconds", double(t.transfer_latency_ns()) * 1e-9},
                      {"launch_latency_seconds", double(t.launch_latency_ns()) * 1e-9}}}};
}

void attach_device(RunReport& r, const runtime::Device& dev) {
  r.host_threads = dev.threads();
  r.isa = isa::target_name(dev.isa());
}

void attach_memory_digest(RunReport& r, runtime::Device& dev) {
  r.memory_digest = fmt::format("{:016x}", dev.memory().digest());
}

}  // namespace strobe::report
