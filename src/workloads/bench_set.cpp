// Named benchmark sets and set files (see bench_set.h).
#include "workloads/bench_set.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <sstream>

#include <fmt/core.h>
#include <fmt/ranges.h>
#include <toml++/toml.h>

#include "common/atomic_file.h"
#include "common/error.h"
#include "common/toml_doc.h"
#include "workloads/benchmark.h"

namespace strobe::workloads {

namespace {

/// The ci variant: each benchmark of `runs` once, in order of first appearance, at its small sizes.
std::vector<SetRun> ci_runs(const std::vector<SetRun>& runs) {
  std::vector<SetRun> out;
  for (const auto& r : runs)
    if (std::none_of(out.begin(), out.end(), [&](const SetRun& o) { return o.benchmark == r.benchmark; }))
      out.push_back(small_run(r.benchmark));
  return out;
}

BenchSet from_toml(const std::string& text, const std::string& source, const std::string& name,
                   const std::string& size) {
  const toml::table doc = parse_toml(text, source);
  BenchSet set{name, size, doc["description"].value_or(std::string()), {}};
  const toml::table* sizes = doc["sizes"].as_table();
  if (!sizes || !sizes->contains(kDefaultSetSize))
    throw InputError(fmt::format("{}: no [sizes] table with an '{}' list of runs", source, kDefaultSetSize));
  std::vector<std::string> known;
  for (const auto& [k, v] : *sizes) known.emplace_back(k.str());
  if (std::find(known.begin(), known.end(), kCiSetSize) == known.end()) known.emplace_back(kCiSetSize);
  const bool derived_ci = size == kCiSetSize && !sizes->contains(kCiSetSize);
  const std::string list_name = derived_ci ? kDefaultSetSize : size;
  const toml::array* list = (*sizes)[list_name].as_array();
  if (!sizes->contains(list_name))
    throw InputError(fmt::format("set '{}': unknown size '{}' (sizes: {})", name, size, fmt::join(known, ", ")));
  if (!list) throw InputError(fmt::format("{}: sizes.{} is not a list of runs", source, list_name));
  for (size_t i = 0; i < list->size(); ++i) {
    const auto* line = (*list)[i].as_string();
    const std::string where = fmt::format("{}: sizes.{}[{}]", source, list_name, i);
    if (!line) throw InputError(where + ": not a string 'BENCH [--param K=V]...'");
    set.runs.push_back(parse_set_line(line->get(), where));
  }
  if (derived_ci) set.runs = ci_runs(set.runs);
  if (set.runs.empty()) throw InputError(fmt::format("{}: sizes.{} has no runs", source, list_name));
  return set;
}

BenchSet from_text(const std::string& text, const std::string& source, const std::string& size) {
  if (size != kDefaultSetSize && size != kCiSetSize)
    throw InputError(fmt::format("set file {}: unknown size '{}' (sizes: {}, {})", source, size, kDefaultSetSize,
                                 kCiSetSize));
  BenchSet set{source, size, "", {}};
  std::istringstream in(text);
  size_t n = 0;
  for (std::string line; std::getline(in, line);) {
    ++n;
    if (auto hash = line.find('#'); hash != std::string::npos) line.erase(hash);
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    set.runs.push_back(parse_set_line(line, fmt::format("{}:{}", source, n)));
  }
  if (set.runs.empty()) throw InputError(fmt::format("set file {}: no runs", source));
  if (size == kCiSetSize) set.runs = ci_runs(set.runs);
  return set;
}

}  // namespace

std::string sets_dir() {
  if (const char* env = std::getenv("STROBE_SETS_DIR")) return env;
  return std::string(STROBE_SOURCE_DIR) + "/configs/sets";
}

std::vector<std::string> set_names() {
  std::vector<std::string> names;
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(sets_dir(), ec))
    if (e.path().extension() == ".toml") names.push_back(e.path().stem().string());
  std::sort(names.begin(), names.end());
  return names;
}

BenchSet load_named_set(const std::string& name, const std::string& size) {
  const std::vector<std::string> names = set_names();
  if (std::find(names.begin(), names.end(), name) == names.end())
    throw InputError(fmt::format("--set: unknown set '{}' (sets: {})", name, fmt::join(names, ", ")));
  const std::string path = sets_dir() + "/" + name + ".toml";
  return from_toml(read_file(path), path, name, size);
}

BenchSet load_set_file(const std::string& path, const std::string& size) {
  const std::string text = read_file(path);
  if (std::filesystem::path(path).extension() == ".toml") return from_toml(text, path, path, size);
  return from_text(text, path, size);
}

SetRun parse_set_line(const std::string& line, const std::string& where) {
  std::istringstream in(line);
  std::vector<std::string> words;
  for (std::string w; in >> w;) words.push_back(w);
  if (words.empty()) throw InputError(where + ": empty run; expected 'BENCH [--param K=V]...'");
  SetRun run{words[0], {}};
  const BenchmarkInfo* info = Registry::instance().find(run.benchmark);
  if (!info) throw InputError(fmt::format("{}: unknown benchmark '{}' (see `strobe list`)", where, run.benchmark));
  for (size_t i = 1; i < words.size(); ++i) {
    std::string w = words[i];
    if (w == "--param" && i + 1 < words.size()) {
      run.params.push_back(words[++i]);
    } else if (w.rfind("--param=", 0) == 0) {
      run.params.push_back(w.substr(8));
    } else {
      throw InputError(fmt::format("{}: unexpected '{}'; expected 'BENCH [--param K=V]...'", where, w));
    }
  }
  try {
    // Constructing the benchmark checks the rules between parameters (vgg's input a multiple of
    // 32, say) that ranges cannot; inputs are made only by setup(), so this costs nothing, and a
    // set of many hours cannot fail at its last run on a parameter it could have refused at once.
    info->make(resolve_params(run.benchmark, info->params, run.params));
  } catch (const InputError& e) {
    throw InputError(fmt::format("{}: {}", where, e.what()));
  }
  return run;
}

SetRun small_run(const std::string& bench) {
  const BenchmarkInfo* info = Registry::instance().find(bench);
  if (!info) throw InputError(fmt::format("unknown benchmark '{}' (see `strobe list`)", bench));
  SetRun run{bench, {}};
  for (const auto& p : info->params) run.params.push_back(p.name + "=" + format_value(p, p.small));
  return run;
}

}  // namespace strobe::workloads
