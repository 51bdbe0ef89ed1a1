// Contextual parameter help (see context_help.h): the values the command line gave, handed to
// the listing that formats their declarations.
#include "cli/context_help.h"

#include <set>
#include <sstream>

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

}  // namespace

std::string context_help(const CLI::App& cmd) {
  std::set<std::string> keys;
  for (const std::string& kv : given(cmd, "--set")) keys.insert(kv.substr(0, kv.find('=')));
  return experiment::named_parameters_help(given(cmd, "benchmark"), given(cmd, "--sampling"),
                                           {keys.begin(), keys.end()});
}

std::string parameters_footer() {
  return "A benchmark's parameters (--param), a method's (--sampling-set) and the timing model's keys (--set) "
         "are listed by `strobe list` (--config for the keys); name a benchmark, --sampling or --set with --help "
         "to see theirs here.";
}

}  // namespace strobe::cli
