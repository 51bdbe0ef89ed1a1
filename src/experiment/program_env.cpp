// Reading a host program's STROBE_* settings and writing its exit report (see program_env.h).
#include "experiment/program_env.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string_view>

#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include "capture/capture_file.h"
#include "capture/recorder.h"
#include "common/atomic_file.h"
#include "common/build_info.h"
#include "common/error.h"
#include "experiment/run_spec.h"
#include "report/json.h"

namespace strobe::experiment {

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

/// STROBE_SET's overrides: run_program separates them by newlines; ';' is accepted too, being
/// easier to type in a shell.
std::vector<std::string> split_sets(const std::string& sets) {
  std::vector<std::string> out;
  size_t start = 0;
  for (size_t i = 0; i <= sets.size(); ++i) {
    if (i == sets.size() || sets[i] == '\n' || sets[i] == ';') {
      std::string item = trim(std::string_view(sets).substr(start, i - start));
      if (!item.empty()) out.push_back(item);
      start = i + 1;
    }
  }
  return out;
}

/// STROBE_PASS's pass number.
int parse_pass(const std::string& v) {
  int pass = 0;
  const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), pass);
  if (ec != std::errc() || end != v.data() + v.size() || pass < 0)
    throw InputError(fmt::format("STROBE_PASS '{}': expected a pass number (0, 1, ...)", v));
  return pass;
}

/// STROBE_THREADS's thread count (0: every core).
uint32_t parse_threads(const std::string& v) {
  uint32_t n = 0;
  const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), n);
  if (ec != std::errc() || end != v.data() + v.size() || n > RunSpec::kMaxThreads)
    throw InputError(fmt::format("STROBE_THREADS '{}': expected a thread count from 0 (every core) to {}", v,
                                 RunSpec::kMaxThreads));
  return n;
}

/// `program` as an absolute path: made absolute when it names a directory, else looked up on
/// PATH as the process was started; as given when it is not found.
std::string resolve_program(const std::string& program) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (program.find('/') != std::string::npos) {
    const fs::path p = fs::weakly_canonical(fs::absolute(program, ec), ec);
    return ec ? program : p.string();
  }
  const std::string path = env("PATH");
  size_t start = 0;
  for (size_t i = 0; i <= path.size(); ++i) {
    if (i < path.size() && path[i] != ':') continue;
    const fs::path dir = path.substr(start, i - start);
    start = i + 1;
    const fs::path candidate = (dir.empty() ? fs::path(".") : dir) / program;
    if (::access(candidate.c_str(), X_OK) == 0) {
      const fs::path p = fs::weakly_canonical(fs::absolute(candidate, ec), ec);
      return ec ? candidate.string() : p.string();
    }
  }
  return program;
}

}  // namespace

ProgramSettings program_settings_from_env() {
  RunSpec spec;
  spec.workload = Workload::Program;
  // The environment states the mode outright (functional unless STROBE_MODE says otherwise), so
  // a sampling method never implies timing here.
  spec.mode_given = true;
  if (auto v = env("STROBE_MODE"); !v.empty()) spec.mode = v;
  if (auto v = env("STROBE_ARCH"); !v.empty()) spec.arch = v;
  spec.sets = split_sets(env("STROBE_SET"));
  if (auto v = env("STROBE_SAMPLING"); !v.empty()) spec.sampling = v;
  if (auto v = env("STROBE_SAMPLING_WARMING"); !v.empty()) spec.warming = v;
  if (auto v = env("STROBE_SAMPLING_SKIP_FUNCTIONAL"); !v.empty()) {
    if (v != "0" && v != "1")
      throw InputError(fmt::format("STROBE_SAMPLING_SKIP_FUNCTIONAL='{}': expected 1 (skip) or 0", v));
    spec.skip_functional = v == "1";
  }
  if (auto v = env("STROBE_MEMORY_CHECK"); !v.empty()) spec.memory_check = v;
  if (auto v = env("STROBE_PASS"); !v.empty()) spec.pass = parse_pass(v);
  if (auto v = env("STROBE_THREADS"); !v.empty()) spec.threads = parse_threads(v);
  spec.pass_state = env("STROBE_PASS_STATE");
  spec.profile = env("STROBE_PROFILE");
  spec.capture_output = env("STROBE_CAPTURE");
  spec.program = program_command_line();
  ValidatedRun v = validate(std::move(spec), Spelling::Environment);
  ProgramSettings s;
  s.mode = v.spec.mode;
  s.arch = v.spec.arch;
  s.sets = v.spec.sets;
  s.sampling = v.spec.sampling;
  s.warming = v.warming;
  s.skip_functional = v.spec.skip_functional;
  s.json = env("STROBE_JSON");
  s.capture = v.spec.capture_output;
  s.memory_check = v.memory_check;
  s.threads = v.spec.threads;
  s.config = std::move(v.gpu);
  s.pass = std::max(v.spec.pass, 0);
  s.pass_state = v.spec.pass_state;
  s.profile = v.spec.profile;
  s.loaded_profile = std::move(v.profile);
  return s;
}

sampling::profile::WorkloadIdentity program_identity(const std::vector<std::string>& argv) {
  sampling::profile::WorkloadIdentity w;
  w.kind = "program";
  if (argv.empty()) return w;
  w.name = resolve_program(argv[0]);
  w.params.assign(argv.begin() + 1, argv.end());
  return w;
}

std::unique_ptr<sampling::SamplingMethod> start_program_method(const ProgramSettings& s, runtime::Device& dev) {
  if (s.sampling == "none") return nullptr;
  auto m = sampling::make_method(s.sampling, s.config, {}, s.skip_functional, s.loaded_profile, s.profile, s.warming);
  if (s.pass > 0) m->restore_passes(s.pass, s.pass_state, program_identity(program_command_line()));
  dev.set_dispatch_runner(&m->runner(s.pass));
  return m;
}

void end_program_pass(const ProgramSettings& s, sampling::SamplingMethod* method) {
  if (!method) return;
  try {
    method->end_pass(s.pass);
    if (s.pass + 1 < method->passes())
      method->save_passes(s.pass, s.pass_state, program_identity(program_command_line()));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "strobe: error: pass %d of %s: %s\n", s.pass, s.sampling.c_str(), e.what());
  }
}

std::vector<std::string> program_command_line() {
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

report::RunReport program_report(const ProgramSettings& s, const std::vector<std::string>& argv,
                                 const std::string& fallback_name, double wall_seconds,
                                 const std::vector<report::LaunchRecord>& launches, runtime::Device& dev) {
  report::RunReport rep;
  std::string name = argv.empty() ? fallback_name : argv[0];
  if (auto slash = name.rfind('/'); slash != std::string::npos) name = name.substr(slash + 1);
  rep.benchmark = name;
  rep.mode = s.mode;
  rep.arch = s.arch;
  rep.sampling = s.sampling;
  rep.wall_seconds = wall_seconds;
  rep.params = {{"argv", argv}};
  rep.launches = launches;
  report::attach_timing(rep, dev);
  report::attach_device(rep, dev);
  return rep;
}

std::string launch_log_path(const std::string& report) { return report + ".partial"; }

void start_launch_log(const ProgramSettings& s) {
  if (s.json.empty()) return;
  try {
    write_file_atomic(launch_log_path(s.json), "");
  } catch (const std::exception& e) {
    std::fprintf(stderr, "strobe: warning: cannot start the launch log: %s\n", e.what());
  }
}

void log_launch(const ProgramSettings& s, const report::LaunchRecord& r) {
  if (s.json.empty()) return;
  // One short line per launch, appended: a crash after it loses nothing that had finished.
  nlohmann::json j = {{"kernel", r.result.kernel},
                      {"grid", r.grid},
                      {"local", r.local},
                      {"wave_instructions", r.result.stats.wave_instructions}};
  if (r.result.timing) j["cycles"] = r.result.timing->cycles;
  const std::string line = j.dump() + "\n";
  const int fd = ::open(launch_log_path(s.json).c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0 || ::write(fd, line.data(), line.size()) != ssize_t(line.size()))
    std::fprintf(stderr, "strobe: warning: cannot append to the launch log %s\n", launch_log_path(s.json).c_str());
  if (fd >= 0) ::close(fd);
}

std::string missing_report_error(const std::string& program, const std::string& report) {
  std::ifstream log(launch_log_path(report));
  if (!log) return fmt::format("{}: made no use of the strobe OpenCL platform or HIP (no report was written)", program);
  size_t launches = 0;
  for (std::string line; std::getline(log, line);) launches += !line.empty();
  return fmt::format("{}: ended before its exit handlers ran (it crashed, was killed or called _exit), so it wrote no "
                     "report; {} launch{} had finished, listed in {}",
                     program, launches, launches == 1 ? "" : "es", launch_log_path(report));
}

void write_program_report(const ProgramSettings& s, const std::string& fallback_name,
                          std::chrono::steady_clock::time_point started,
                          const std::vector<report::LaunchRecord>& launches, runtime::Device& dev,
                          const timing::CommandTimeline* timeline) {
  if (s.json.empty()) return;
  try {
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    report::RunReport rep = program_report(s, program_command_line(), fallback_name, wall, launches, dev);
    if (timeline) report::attach_host_timeline(rep, *timeline);
    write_file_atomic(s.json, report::to_json(rep).dump(2) + "\n");
    std::error_code ec;
    std::filesystem::remove(launch_log_path(s.json), ec);  // the report holds every launch
  } catch (const std::exception& e) {
    std::fprintf(stderr, "strobe: error: cannot write the report: %s\n", e.what());
  }
}

struct ProgramCapture::Parts {
  std::string path;
  std::unique_ptr<capture::CaptureWriter> writer;
  std::unique_ptr<capture::Recorder> recorder;
  std::chrono::steady_clock::time_point t0 = std::chrono::steady_clock::now();
  uint32_t threads = 1;
};

std::unique_ptr<ProgramCapture> ProgramCapture::start(const ProgramSettings& s, runtime::Device& dev) {
  if (s.capture.empty()) return nullptr;
  std::unique_ptr<ProgramCapture> c(new ProgramCapture);
  c->p_ = std::make_unique<Parts>();
  c->p_->path = s.capture;
  c->p_->threads = s.threads;
  c->p_->writer = std::make_unique<capture::CaptureWriter>(s.capture);
  c->p_->recorder = std::make_unique<capture::Recorder>(dev, *c->p_->writer);
  return c;
}

ProgramCapture::~ProgramCapture() = default;

void ProgramCapture::finish() noexcept {
  if (!p_ || !p_->recorder) return;
  try {
    const std::vector<std::string> argv = program_command_line();
    const sampling::profile::WorkloadIdentity id = program_identity(argv);
    capture::CaptureIndex index = std::move(p_->recorder->index());
    sampling::profile::ProfileFile& profile = p_->recorder->profile();
    profile.workload = id;
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - p_->t0).count();
    profile.seconds = seconds;
    index.profile = p_->writer->put(capture::BlobKind::Profile, sampling::profile::encode(profile));
    p_->recorder.reset();
    index.kind = "program";
    index.workload = id.name;
    index.params = id.params;
    index.build = build_commit();
    index.threads = p_->threads;
    index.capture_seconds = seconds;
    p_->writer->finish(std::move(index));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "strobe: error: cannot write the capture %s: %s\n", p_->path.c_str(), e.what());
  }
  p_->recorder.reset();
}

}  // namespace strobe::experiment
