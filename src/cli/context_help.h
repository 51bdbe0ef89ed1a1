// Help that follows what a command line names: `strobe run resnet50 --help` lists resnet50's
// parameters, `--sampling pka --help` PKA's, `--set l2.size_kb=1024 --help` that key's
// declaration, each generated from the same declarations `strobe list` prints.
#pragma once

#include <string>

#include <CLI/CLI.hpp>

namespace strobe::cli {

/// The parameter sections for the benchmark, sampling methods and --set keys that the parsed
/// command `cmd` names (empty when it names none): each parameter as `strobe list` shows it, and
/// one line for a name that no benchmark, method or key has.
std::string context_help(const CLI::App& cmd);

/// The footer of a command that takes --param, --set or --sampling-set: where their names are listed.
std::string parameters_footer();

}  // namespace strobe::cli
