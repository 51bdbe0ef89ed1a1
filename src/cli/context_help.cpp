// Contextual parameter help (see context_help.h).
#include "cli/context_help.h"

#include <set>
#include <sstream>
#include <string_view>

#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include "experiment/listing.h"

namespace strobe::cli {

namespace {

/// The values an option of `cmd` was given, each split at commas (compare's --sampling is a list).
std::vector<std::string> given(const CLI::App& cmd, const std::string& name) {
  std::vector<std::string> out;
  const CLI::Option* o = cmd.get_option_no_throw(name);
  if (o == nullptr) return out;
  for (const std::string& r : o->results()) {
    std::stringstream in(r);
    for (std::string item; std::getline(in, item, ',');)
      if (!item.empty()) out.push_back(item);
  }
  return out;
}

/// The entry of `listing` called `name`, or null.
const nlohmann::json* find(const nlohmann::json& listing, std::string_view name) {
  for (const nlohmann::json& e : listing)
    if (e.value("name", "") == name) return &e;
  return nullptr;
}

/// A section: `title`, then each parameter of `params` as a `strobe list` row.
void section(std::string& out, const std::string& title, const nlohmann::json& params, int width) {
  out += "\n" + title + "\n";
  if (params.empty()) out += "  (none)\n";
  for (const nlohmann::json& p : params) out += "  " + experiment::param_row(p, width) + "\n";
}

}  // namespace

std::string context_help(const CLI::App& cmd) {
  std::string out;
  for (const std::string& b : given(cmd, "benchmark")) {
    if (b.starts_with("gfx:") || b.ends_with(".cap")) continue;  // frames and captures carry no --param
    const nlohmann::json listing = experiment::benchmarks_listing();
    if (const nlohmann::json* e = find(listing, b))
      section(out, fmt::format("Parameters of {} (--param NAME=VALUE):", b), (*e)["params"], 12);
    else out += fmt::format("\nNo benchmark is named '{}' (strobe list names them).\n", b);
  }
  const std::vector<std::string> methods = given(cmd, "--sampling");
  if (!methods.empty()) {
    const nlohmann::json listing = experiment::methods_listing();
    for (const std::string& m : methods) {
      if (m == "none") continue;
      if (const nlohmann::json* e = find(listing, m))
        section(out, fmt::format("Parameters of {} (--sampling-set KEY=VALUE):", m), (*e)["params"], 22);
      else out += fmt::format("\nNo sampling method is named '{}' (strobe list names them).\n", m);
    }
  }
  std::set<std::string> keys;
  for (const std::string& kv : given(cmd, "--set")) keys.insert(kv.substr(0, kv.find('=')));
  if (!keys.empty()) {
    const nlohmann::json listing = experiment::config_listing();
    nlohmann::json found = nlohmann::json::array();
    std::string unknown;
    for (const std::string& k : keys) {
      if (const nlohmann::json* e = find(listing, k)) found.push_back(*e);
      else if (k.find('.') != std::string::npos) unknown += (unknown.empty() ? "" : ", ") + k;
    }
    if (!found.empty()) section(out, "The timing-model keys given (--set KEY=VALUE):", found, 28);
    if (!unknown.empty()) out += fmt::format("\nNo timing-model key is named {} (strobe list --config names them).\n", unknown);
  }
  return out;
}

std::string parameters_footer() {
  return "A benchmark's parameters (--param), a method's (--sampling-set) and the timing model's keys (--set) "
         "are listed by `strobe list` (--config for the keys); name a benchmark, --sampling or --set with --help "
         "to see theirs here.";
}

}  // namespace strobe::cli
