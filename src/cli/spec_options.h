// The options `strobe run` and `strobe compare` share, each declared once here and written
// straight into an experiment::RunSpec; help texts that differ between the two are parameters.
#pragma once

#include <string>

#include "experiment/run_spec.h"

#include <CLI/CLI.hpp>

namespace strobe::cli {

/// --param NAME=VALUE (repeatable): a benchmark parameter.
void add_param_option(CLI::App& cmd, experiment::RunSpec& spec);
/// --arch PRESET|FILE.toml.
void add_arch_option(CLI::App& cmd, experiment::RunSpec& spec);
/// --set (repeatable), with the subcommand's help text (compare also takes set names there),
/// --timeline-interval CYCLES, which sets sim.timeline_interval, and the help's footer naming
/// where every key and parameter is listed (context_help.h).
void add_set_option(CLI::App& cmd, experiment::RunSpec& spec, const std::string& help);
/// --sampling-set KEY=VALUE (repeatable), --sampling-skip-functional, --sampling-warming and --profile
/// FILE.
void add_method_options(CLI::App& cmd, experiment::RunSpec& spec);
/// --threads N: host threads for a functional launch's work-groups (0: every core); `help`
/// replaces the usual text where a command reads the count otherwise.
void add_threads_option(CLI::App& cmd, uint32_t& threads, const std::string& help = {});
/// --verify, with the subcommand's help text.
void add_verify_flag(CLI::App& cmd, experiment::RunSpec& spec, const std::string& help);
/// --json FILE|-.
void add_json_option(CLI::App& cmd, std::string& json);
/// Checks an output FILE (or -) when the command line is parsed, before any work: its
/// directory exists and takes new files, or it is a FIFO or device open for writing
/// (strobe::check_output_path).
CLI::Validator output_file();
/// --max-wave-instructions N: the process's budget of instructions per wave before a wave is
/// taken for one that never ends (emu::max_wave_instructions), exported to the programs it runs.
void add_wave_budget_option(CLI::App& cmd);
/// Checks that an option's value is a whole number (0, 1, 2, ...) before any range check, so a
/// word is called what it is.
CLI::Validator whole_number();

}  // namespace strobe::cli
