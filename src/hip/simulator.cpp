// Simulator start-up from the environment, the GPU timeline and the exit report.
#include "hip/simulator.h"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <ctime>

#include <fmt/core.h>

#include "common/error.h"

namespace strobe::hip {

namespace {

Simulator* g_simulator = nullptr;

void finish_at_exit() {
  if (g_simulator) g_simulator->finish();
}

}  // namespace

void fatal(const std::string& message, int code) {
  std::fflush(nullptr);  // what the program printed so far comes before the error
  std::fprintf(stderr, "strobe: error: %s\n", message.c_str());
  if (g_simulator) g_simulator->write_report();
  std::fflush(nullptr);
  // _exit, not exit: the runtimes' exit handlers would wait on queues that will never move.
  ::_exit(code);
}

Simulator& Simulator::instance() {
  static Simulator* s = []() -> Simulator* {
    try {
      // Never destroyed: ROCr calls the thunk from its own exit handlers.
      auto* sim = new Simulator(experiment::program_settings_from_env());
      g_simulator = sim;
      if (!sim->settings_.json.empty() || !sim->settings_.pass_state.empty() || !sim->settings_.capture.empty())
        std::atexit(finish_at_exit);
      return sim;
    } catch (const Error& e) {
      fatal(fmt::format("the simulated GPU cannot start: {}", e.what()), int(e.code()));
    } catch (const std::exception& e) {
      fatal(fmt::format("the simulated GPU cannot start: {}", e.what()), 1);
    }
  }();
  return *s;
}

Simulator::Simulator(Settings s)
    : settings_(std::move(s)), device_(std::make_unique<runtime::Device>(true)),
      t0_(std::chrono::steady_clock::now()) {
  device_->set_memory_check(settings_.memory_check);
  device_->set_threads(settings_.threads);
  if (timing_mode()) device_->enable_timing(settings_.config);
  method_ = experiment::start_program_method(settings_, *device_);
  capture_ = experiment::ProgramCapture::start(settings_, *device_);
  experiment::start_launch_log(settings_);
}

uint64_t Simulator::host_now_ns() {
  timespec t{};
  ::clock_gettime(CLOCK_MONOTONIC, &t);
  return uint64_t(t.tv_sec) * 1000000000ull + uint64_t(t.tv_nsec);
}

uint64_t Simulator::gpu_now_ns() {
  if (!timing_mode()) return host_now_ns();
  // The timeline starts at the first timestamp asked for, after ROCr's start-up: ROCr treats
  // a timestamp older than its first clock sample as invalid and HIP then reports no time.
  uint64_t base = timeline_base_ns_.load();
  if (base == 0) {
    const uint64_t now = host_now_ns();
    timeline_base_ns_.compare_exchange_strong(base, now);
    base = timeline_base_ns_.load();
  }
  return base + sim_ns_.load();
}

std::pair<uint64_t, uint64_t> Simulator::record_launch(report::LaunchRecord rec, uint64_t host_start_ns) {
  std::pair<uint64_t, uint64_t> span;
  if (timing_mode()) {
    const uint64_t start = gpu_now_ns();
    if (rec.result.timing) sim_ns_ += uint64_t(rec.result.timing->sim_seconds * 1e9 + 0.5);
    span = {start, gpu_now_ns()};
  } else {
    span = {host_start_ns, host_now_ns()};
  }
  experiment::log_launch(settings_, rec);
  launches_.push_back(std::move(rec));
  return span;
}

void Simulator::finish() {
  {
    // A fault reported from a dispatch holds the mutex; its pass is incomplete, so it is not ended.
    std::unique_lock lock(mu_, std::try_to_lock);
    if (lock.owns_lock()) experiment::end_program_pass(settings_, method_.get());
    if (lock.owns_lock() && capture_) capture_->finish();
  }
  write_report();
}

void Simulator::write_report() {
  if (settings_.json.empty() || reported_.exchange(true)) return;
  // A fault reported from a dispatch holds the mutex; the report then reads the log as is.
  std::unique_lock lock(mu_, std::try_to_lock);
  experiment::write_program_report(settings_, "hip", t0_, launches_, *device_);
}

}  // namespace strobe::hip
