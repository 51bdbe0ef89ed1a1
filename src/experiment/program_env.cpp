// Reading a host program's STROBE_* settings and writing its exit report (see program_env.h).
#include "experiment/program_env.h"

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string_view>

#include "common/atomic_file.h"
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
  if (auto v = env("STROBE_MEMORY_CHECK"); !v.empty()) spec.memory_check = v;
  ValidatedRun v = validate(std::move(spec), Spelling::Environment);
  ProgramSettings s;
  s.mode = v.spec.mode;
  s.arch = v.spec.arch;
  s.sets = v.spec.sets;
  s.sampling = v.spec.sampling;
  s.json = env("STROBE_JSON");
  s.memory_check = v.memory_check;
  s.config = std::move(v.gpu);
  return s;
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
  return rep;
}

void write_program_report(const ProgramSettings& s, const std::string& fallback_name,
                          std::chrono::steady_clock::time_point started,
                          const std::vector<report::LaunchRecord>& launches, runtime::Device& dev) {
  if (s.json.empty()) return;
  try {
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    const report::RunReport rep = program_report(s, program_command_line(), fallback_name, wall, launches, dev);
    write_file_atomic(s.json, report::to_json(rep).dump(2) + "\n");
  } catch (const std::exception& e) {
    std::fprintf(stderr, "strobe: error: cannot write the report: %s\n", e.what());
  }
}

}  // namespace strobe::experiment
