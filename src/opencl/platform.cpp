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
  if (timing_mode()) {
    device_->enable_timing(settings_.config);
    timeline_ = std::make_unique<timing::CommandTimeline>(settings_.config);
  }
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
  if (timeline_) {
    std::lock_guard lock(timeline_mu_);
    return timeline_->host_ns();
  }
  return uint64_t(std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - t0_).count());
}

namespace {

/// Adds `w` to the running command's work: its time, bytes and engine (the first one charged).
void add_work(timing::CommandWork& to, const timing::CommandWork& w) {
  if (to.engine == timing::CommandEngine::None) to.engine = w.engine;
  to.busy_ns += w.busy_ns;
  to.bytes += w.bytes;
  to.launch |= w.launch;
}

}  // namespace

void Platform::record_launch(report::LaunchRecord rec) {
  if (timeline_ && rec.result.timing)
    add_work(charged_, timing::CommandTimeline::kernel(uint64_t(rec.result.timing->sim_seconds * 1e9 + 0.5)));
  experiment::log_launch(settings_, rec);
  launches_.push_back(std::move(rec));
}

void Platform::charge_transfer(bool to_device, uint64_t bytes) {
  if (!timeline_) return;
  std::lock_guard lock(timeline_mu_);
  add_work(charged_, timeline_->transfer(to_device ? timing::CommandEngine::ToDevice : timing::CommandEngine::ToHost, bytes));
}

void Platform::charge_local(uint64_t read, uint64_t written) {
  if (!timeline_) return;
  std::lock_guard lock(timeline_mu_);
  add_work(charged_, timeline_->local(read, written));
}

timing::CommandTimes Platform::place_command(uint64_t queued, uint64_t ready) {
  std::lock_guard lock(timeline_mu_);
  const timing::CommandTimes t = timeline_->place(queued, ready, charged_);
  charged_ = {};
  return t;
}

void Platform::host_waited(uint64_t end_ns) {
  if (!timeline_) return;
  std::lock_guard lock(timeline_mu_);
  timeline_->host_waits_until(end_ns);
}

void Platform::write_report() {
  std::lock_guard lock(device_mu_);
  experiment::end_program_pass(settings_, method_.get());
  if (capture_) capture_->finish();
  experiment::write_program_report(settings_, "opencl", t0_, launches_, *device_, timeline_.get());
}

}  // namespace strobe::opencl
