// The set comparison's run journal (see journal.h).
#include "experiment/journal.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include <fmt/chrono.h>
#include <fmt/core.h>

#include "common/atomic_file.h"
#include "common/build_info.h"
#include "common/error.h"
#include "report/json.h"
#include "report/json_read.h"

namespace strobe::experiment {

namespace {

constexpr int kJournalVersion = 1;

nlohmann::json score_json(const sampling::RunScore& s) {
  nlohmann::json j{{"full_cycles", s.full_cycles},       {"estimated_cycles", s.estimated_cycles},
                   {"full_seconds", s.full_seconds},     {"sampled_seconds", s.sampled_seconds},
                   {"speedup", s.speedup},               {"fallback", s.fallback},
                   {"detailed_insts", s.detailed_insts}, {"timed_insts", s.timed_insts}};
  if (!s.failure.empty()) j["failure"] = s.failure;  // absent in entries from before failures were kept
  return j;
}

sampling::RunScore score_from_json(const nlohmann::json& j) {
  using report::read_number, report::read_u64;
  return {read_u64(j, "full_cycles"),       read_u64(j, "estimated_cycles"),
          read_number(j, "full_seconds"),   read_number(j, "sampled_seconds"),
          read_number(j, "speedup"),        j.at("fallback").get<bool>(),
          read_u64(j, "detailed_insts"),    read_u64(j, "timed_insts"),
          j.value("failure", std::string())};
}

/// The host's CPU model as /proc/cpuinfo names it (empty where there is none).
std::string cpu_model() {
  std::ifstream in("/proc/cpuinfo");
  for (std::string line; std::getline(in, line);)
    if (line.rfind("model name", 0) == 0) {
      const size_t colon = line.find(':');
      return colon == std::string::npos ? "" : line.substr(line.find_first_not_of(' ', colon + 1));
    }
  return "";
}

/// Checks an entry read from the file has the shape record() writes.
void check_entry(const nlohmann::json& j) {
  if (!j.is_object() || j.value("version", 0) != kJournalVersion)
    throw InputError(fmt::format("not a version-{} journal entry", kJournalVersion));
  for (const char* k : {"key", "row", "scores"})
    if (!j.contains(k)) throw InputError(fmt::format("no '{}'", k));
  report::set_run_row_from_json(j["row"]);
  for (const auto& s : j["scores"]) score_from_json(s);
}

}  // namespace

RunJournal::RunJournal(std::string path) : path_(std::move(path)) {
  remove_stale_temporaries(path_);  // a rewrite killed before its rename
  load();
}

void RunJournal::load() {
  lines_.clear();
  if (!std::filesystem::exists(path_)) return;
  std::istringstream in(read_file(path_));
  size_t n = 0;
  for (std::string line; std::getline(in, line);) {
    ++n;
    if (line.empty()) continue;
    try {
      nlohmann::json j = nlohmann::json::parse(line);
      check_entry(j);
      lines_.push_back(std::move(j));
    } catch (const std::exception& e) {
      throw InputError(fmt::format("journal {}, line {}: {}", path_, n, e.what()));
    }
  }
}

nlohmann::json RunJournal::key(const ValidatedCompare& c, const workloads::SetRun& r) {
  const RunSpec& s = c.spec.run;
  nlohmann::json k = {{"benchmark", r.benchmark}, {"args", r.params},
          {"arch", s.arch},           {"sets", s.sets},
          {"methods", c.methods},     {"sampling_sets", s.sampling_sets},
          {"verify", s.verify},       {"skip_functional", s.skip_functional},
          {"repeat", c.spec.repeat}};
  // Only a warming run names its warming, so the entries journalled before the option existed
  // (all without warming) still match, and runs with and without warming never do.
  if (c.warming != sampling::Warming::None) k["warming"] = sampling::warming_name(c.warming);
  // Runs compared from captures (compare_set with a captures directory) cost otherwise.
  if (s.workload == Workload::Capture) k["capture_warm_state"] = s.warm_state;
  return k;
}

nlohmann::json RunJournal::provenance() {
  char host[256] = {};
  if (gethostname(host, sizeof host - 1) != 0) host[0] = '\0';
  return {{"build", build_commit()},
          {"host", host},
          {"cpu", cpu_model()},
          {"cpus", std::thread::hardware_concurrency()},
          {"time", fmt::format("{:%Y-%m-%dT%H:%M:%SZ}", fmt::gmtime(std::chrono::system_clock::now()))}};
}

std::optional<JournalEntry> RunJournal::find(const ValidatedCompare& c, const workloads::SetRun& r) const {
  const nlohmann::json k = key(c, r);
  for (const auto& j : lines_) {
    if (j["key"] != k) continue;
    JournalEntry e;
    const report::SetRunRow row = report::set_run_row_from_json(j["row"]);
    e.row = row;
    e.row.methods.clear();
    // The row's methods come back in name order (a JSON object); put them in the comparison's.
    for (const std::string& m : c.methods)
      for (const auto& mc : row.methods)
        if (mc.name == m) e.row.methods.push_back(mc);
    for (const auto& s : j["scores"]) e.scores.push_back(score_from_json(s));
    if (e.row.methods.size() != c.methods.size() || e.scores.size() != c.methods.size())
      throw InputError(fmt::format("journal {}: the entry of {} does not hold every method of its key", path_,
                                   r.benchmark));
    return e;
  }
  return std::nullopt;
}

void RunJournal::record(const ValidatedCompare& c, const workloads::SetRun& r, const JournalEntry& e) {
  nlohmann::json scores = nlohmann::json::array();
  for (const auto& s : e.scores) scores.push_back(score_json(s));
  nlohmann::json j = {{"version", kJournalVersion},
                      {"key", key(c, r)},
                      {"row", report::to_json(e.row)},
                      {"scores", scores}};
  // Another comparison may share the journal: under the lock, its entries are read again and
  // kept. flock() is released when the descriptor closes, even if this process is killed.
  const std::string lock_path = path_ + ".lock";
  const int fd = ::open(lock_path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) throw InputError(fmt::format("journal {}: cannot open its lock {}: {}", path_, lock_path, std::strerror(errno)));
  struct Unlock {
    int fd;
    ~Unlock() { ::close(fd); }
  } unlock{fd};
  while (::flock(fd, LOCK_EX) != 0)
    if (errno != EINTR) throw InputError(fmt::format("journal {}: cannot lock {}: {}", path_, lock_path, std::strerror(errno)));
  load();
  bool replaced = false;
  for (auto& old : lines_)
    if (old["key"] == j["key"]) old = j, replaced = true;
  if (!replaced) lines_.push_back(std::move(j));
  save();
}

void RunJournal::save() const {
  std::string out;
  for (const auto& j : lines_) out += j.dump() + "\n";
  write_file_atomic(path_, out);
}

}  // namespace strobe::experiment
