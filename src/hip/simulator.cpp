// Simulator start-up from the environment, the GPU timeline and the exit report.
#include "hip/simulator.h"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <ctime>

#include <fmt/core.h>

#include "common/atomic_file.h"
#include "common/error.h"
#include "report/json.h"

namespace strobe::hip {

namespace {

Simulator* g_simulator = nullptr;

void write_report_at_exit() {
  if (g_simulator) g_simulator->write_report();
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
      Settings settings = runtime::program_settings_from_env();
      timing::GpuConfig cfg = timing::load_config(settings.arch);
      for (const auto& kv : settings.sets) timing::apply_override(cfg, kv);
      timing::validate(cfg);
      // Never destroyed: ROCr calls the thunk from its own exit handlers.
      auto* sim = new Simulator(std::move(settings), std::move(cfg));
      g_simulator = sim;
      if (!sim->settings_.json.empty()) std::atexit(write_report_at_exit);
      return sim;
    } catch (const Error& e) {
      fatal(fmt::format("the simulated GPU cannot start: {}", e.what()), int(e.code()));
    } catch (const std::exception& e) {
      fatal(fmt::format("the simulated GPU cannot start: {}", e.what()), 1);
    }
  }();
  return *s;
}

Simulator::Simulator(Settings s, timing::GpuConfig cfg)
    : settings_(std::move(s)), config_(std::move(cfg)), device_(std::make_unique<runtime::Device>(true)),
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
  launches_.push_back(std::move(rec));
  return span;
}

void Simulator::write_report() {
  if (settings_.json.empty() || reported_.exchange(true)) return;
  try {
    // A fault reported from a dispatch holds the mutex; the report then reads the log as is.
    std::unique_lock lock(mu_, std::try_to_lock);
    report::RunReport rep;
    std::vector<std::string> argv = runtime::program_command_line();
    std::string name = argv.empty() ? "hip" : argv[0];
    if (auto slash = name.rfind('/'); slash != std::string::npos) name = name.substr(slash + 1);
    rep.benchmark = name;
    rep.mode = settings_.mode;
    rep.arch = settings_.arch;
    rep.sampling = settings_.sampling;
    rep.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0_).count();
    rep.params = {{"argv", argv}};
    rep.launches = launches_;
    report::attach_timing(rep, *device_);
    write_file_atomic(settings_.json, report::to_json(rep).dump(2) + "\n");
  } catch (const std::exception& e) {
    std::fprintf(stderr, "strobe: error: cannot write the report: %s\n", e.what());
  }
}

}  // namespace strobe::hip
