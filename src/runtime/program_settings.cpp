// Reading the STROBE_* settings of a host program (see program_settings.h).
#include "runtime/program_settings.h"

#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string_view>

#include <fmt/format.h>

#include "common/error.h"

namespace strobe::runtime {

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

}  // namespace

ProgramSettings program_settings_from_env() {
  ProgramSettings s;
  if (auto v = env("STROBE_MODE"); !v.empty()) s.mode = v;
  if (s.mode != "functional" && s.mode != "timing")
    throw InputError(fmt::format("STROBE_MODE '{}': expected functional or timing", s.mode));
  if (auto v = env("STROBE_ARCH"); !v.empty()) s.arch = v;
  std::string sets = env("STROBE_SET");
  size_t start = 0;
  for (size_t i = 0; i <= sets.size(); ++i) {
    if (i == sets.size() || sets[i] == '\n' || sets[i] == ';') {
      std::string item = trim(std::string_view(sets).substr(start, i - start));
      if (!item.empty()) s.sets.push_back(item);
      start = i + 1;
    }
  }
  if (auto v = env("STROBE_SAMPLING"); !v.empty()) s.sampling = v;
  s.json = env("STROBE_JSON");
  if (auto v = env("STROBE_MEMORY_CHECK"); !v.empty()) s.memory_check = emu::parse_memory_check(v);
  if (!s.sets.empty() && s.mode != "timing")
    throw InputError("STROBE_SET configures the timing model; it needs STROBE_MODE=timing");
  if (s.sampling != "none" && s.mode != "timing")
    throw InputError(fmt::format("STROBE_SAMPLING={} estimates detailed timing; it needs STROBE_MODE=timing", s.sampling));
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

}  // namespace strobe::runtime
