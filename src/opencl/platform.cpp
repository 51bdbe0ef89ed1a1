// Platform start-up from the environment, the profiling clock and the exit report.
#include "opencl/platform.h"

#include <cstdio>
#include <cstdlib>

#include <fmt/core.h>

#include "common/atomic_file.h"
#include "common/error.h"
#include "opencl/api.h"

namespace strobe::opencl {

namespace {

void write_report_at_exit() {
  if (Platform* p = Platform::instance()) p->write_report();
}

}  // namespace

Platform* Platform::instance() {
  static Platform* p = []() -> Platform* {
    try {
      Settings s = settings_from_env();
      timing::GpuConfig cfg = timing::load_config(s.arch);
      for (const auto& kv : s.sets) timing::apply_override(cfg, kv);
      timing::validate(cfg);
      // Never destroyed: the host program may call the API from its own exit handlers.
      auto* platform = new Platform(std::move(s), std::move(cfg));
      if (!platform->settings_.json.empty()) std::atexit(write_report_at_exit);
      return platform;
    } catch (const std::exception& e) {
      std::fprintf(stderr, "strobe: error: the OpenCL platform cannot start: %s\n", e.what());
      return nullptr;
    }
  }();
  return p;
}

Platform::Platform(Settings s, timing::GpuConfig cfg)
    : settings_(std::move(s)), config_(std::move(cfg)), device_(std::make_unique<runtime::Device>()),
      t0_(std::chrono::steady_clock::now()) {
  device_->set_memory_check(settings_.memory_check);
  if (timing_mode()) device_->enable_timing(config_);
  if (settings_.sampling != "none") {
    // A program runs once, so only single-pass methods (no profiling pass) can sample it.
    method_ = sampling::make_method(settings_.sampling, config_, {}, false);
    if (method_->passes() != 1)
      throw NotImplementedError(fmt::format("STROBE_SAMPLING={}: the method makes {} passes over the workload, and a "
                                            "program runs once",
                                            settings_.sampling, method_->passes()));
    device_->set_dispatch_runner(&method_->runner(0));
  }
  register_object(&platform_);
  register_object(&device_id_);
}

Platform& platform() {
  Platform* p = Platform::instance();
  if (!p) fail(CL_INVALID_PLATFORM, "the strobe platform could not start (see the message above)");
  return *p;
}

uint64_t Platform::now_ns() const {
  if (timing_mode()) return sim_ns_.load();
  return uint64_t(std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - t0_).count());
}

void Platform::record_launch(runtime::LaunchRecord rec) {
  if (rec.result.timing) sim_ns_ += uint64_t(rec.result.timing->sim_seconds * 1e9 + 0.5);
  launches_.push_back(std::move(rec));
}

void Platform::write_report() {
  if (settings_.json.empty()) return;
  try {
    std::lock_guard lock(device_mu_);
    runtime::RunReport rep;
    std::vector<std::string> argv = runtime::program_command_line();
    std::string name = argv.empty() ? "opencl" : argv[0];
    if (auto slash = name.rfind('/'); slash != std::string::npos) name = name.substr(slash + 1);
    rep.benchmark = name;
    rep.mode = settings_.mode;
    rep.arch = settings_.arch;
    rep.sampling = settings_.sampling;
    rep.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0_).count();
    rep.params = {{"argv", argv}};
    rep.launches = launches_;
    runtime::attach_timing(rep, *device_);
    write_file_atomic(settings_.json, runtime::to_json(rep).dump(2) + "\n");
  } catch (const std::exception& e) {
    std::fprintf(stderr, "strobe: error: cannot write the report: %s\n", e.what());
  }
}

}  // namespace strobe::opencl
