// Platform start-up from the environment, the profiling clock and the exit report.
#include "opencl/platform.h"

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>

#include <fmt/core.h>

#include "common/atomic_file.h"
#include "common/error.h"
#include "experiment/run_spec.h"
#include "opencl/api.h"
#include "report/json.h"

namespace strobe::opencl {

namespace {

std::string env(const char* name) {
  const char* v = std::getenv(name);
  return v ? v : "";
}

std::string trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return std::string(s);
}

/// The host program's command line, for the report.
std::vector<std::string> command_line() {
  std::ifstream in("/proc/self/cmdline", std::ios::binary);
  std::string all((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::vector<std::string> argv;
  size_t start = 0;
  for (size_t i = 0; i < all.size(); ++i)
    if (all[i] == '\0') {
      argv.push_back(all.substr(start, i - start));
      start = i + 1;
    }
  return argv;
}

void write_report_at_exit() {
  if (Platform* p = Platform::instance()) p->write_report();
}

}  // namespace

Settings settings_from_env() {
  experiment::RunSpec spec;
  spec.workload = experiment::Workload::Program;
  // The environment states the mode outright (functional unless STROBE_MODE says otherwise), so
  // a sampling method never implies timing here.
  spec.mode_given = true;
  if (auto v = env("STROBE_MODE"); !v.empty()) spec.mode = v;
  if (auto v = env("STROBE_ARCH"); !v.empty()) spec.arch = v;
  std::string sets = env("STROBE_SET");
  size_t start = 0;
  for (size_t i = 0; i <= sets.size(); ++i) {
    if (i == sets.size() || sets[i] == '\n' || sets[i] == ';') {
      std::string item = trim(std::string_view(sets).substr(start, i - start));
      if (!item.empty()) spec.sets.push_back(item);
      start = i + 1;
    }
  }
  if (auto v = env("STROBE_SAMPLING"); !v.empty()) spec.sampling = v;
  if (auto v = env("STROBE_MEMORY_CHECK"); !v.empty()) spec.memory_check = v;
  experiment::ValidatedRun v = experiment::validate(spec, experiment::Spelling::Environment);
  Settings s;
  s.mode = v.spec.mode;
  s.arch = v.spec.arch;
  s.sets = v.spec.sets;
  s.sampling = v.spec.sampling;
  s.json = env("STROBE_JSON");
  s.memory_check = v.memory_check;
  s.config = std::move(v.gpu);
  return s;
}

Platform* Platform::instance() {
  static Platform* p = []() -> Platform* {
    try {
      // Never destroyed: the host program may call the API from its own exit handlers.
      auto* platform = new Platform(settings_from_env());
      if (!platform->settings_.json.empty()) std::atexit(write_report_at_exit);
      return platform;
    } catch (const std::exception& e) {
      std::fprintf(stderr, "strobe: error: the OpenCL platform cannot start: %s\n", e.what());
      return nullptr;
    }
  }();
  return p;
}

Platform::Platform(Settings s)
    : settings_(std::move(s)), config_(settings_.config), device_(std::make_unique<runtime::Device>()),
      t0_(std::chrono::steady_clock::now()) {
  device_->set_memory_check(settings_.memory_check);
  if (timing_mode()) device_->enable_timing(config_);
  if (settings_.sampling != "none") {
    // settings_from_env() admitted only single-pass methods: a program runs once.
    method_ = sampling::make_method(settings_.sampling, config_, {}, false);
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

void Platform::record_launch(report::LaunchRecord rec) {
  if (rec.result.timing) sim_ns_ += uint64_t(rec.result.timing->sim_seconds * 1e9 + 0.5);
  launches_.push_back(std::move(rec));
}

void Platform::write_report() {
  if (settings_.json.empty()) return;
  try {
    std::lock_guard lock(device_mu_);
    report::RunReport rep;
    std::vector<std::string> argv = command_line();
    std::string name = argv.empty() ? "opencl" : argv[0];
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

}  // namespace strobe::opencl
