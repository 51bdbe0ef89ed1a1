// Platform start-up from the environment, the profiling clock and the exit report.
#include "opencl/platform.h"

#include <cstdio>
#include <cstdlib>

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
      // Never destroyed: the host program may call the API from its own exit handlers.
      auto* platform = new Platform(experiment::program_settings_from_env());
      if (!platform->settings_.json.empty() || !platform->settings_.pass_state.empty() ||
          !platform->settings_.capture.empty())
        std::atexit(write_report_at_exit);
      return platform;
    } catch (const std::exception& e) {
      std::fprintf(stderr, "strobe: error: the OpenCL platform cannot start: %s\n", e.what());
      return nullptr;
    }
  }();
  return p;
}

Platform::Platform(Settings s)
    : settings_(std::move(s)), device_(std::make_unique<runtime::Device>()),
      t0_(std::chrono::steady_clock::now()) {
  device_->set_memory_check(settings_.memory_check);
  device_->set_threads(settings_.threads);
  if (timing_mode()) device_->enable_timing(settings_.config);
  method_ = experiment::start_program_method(settings_, *device_);
  capture_ = experiment::ProgramCapture::start(settings_, *device_);
  experiment::start_launch_log(settings_);
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

void Platform::record_launch(report::LaunchRecord rec) {
  if (rec.result.timing) sim_ns_ += uint64_t(rec.result.timing->sim_seconds * 1e9 + 0.5);
  experiment::log_launch(settings_, rec);
  launches_.push_back(std::move(rec));
}

void Platform::write_report() {
  std::lock_guard lock(device_mu_);
  experiment::end_program_pass(settings_, method_.get());
  if (capture_) capture_->finish();
  experiment::write_program_report(settings_, "opencl", t0_, launches_, *device_);
}

}  // namespace strobe::opencl
