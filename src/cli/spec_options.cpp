// Shared option declarations (see spec_options.h).
#include "cli/spec_options.h"

#include <cstdlib>
#include <optional>

#include <CLI/CLI.hpp>
#include <fmt/core.h>

#include "cli/context_help.h"
#include "common/atomic_file.h"
#include "common/error.h"
#include "common/number_text.h"
#include "emu/dispatch.h"

namespace strobe::cli {

void add_param_option(CLI::App& cmd, experiment::RunSpec& spec) {
  cmd.add_option("--param", spec.params, "Benchmark parameter NAME=VALUE (repeatable)");
}

void add_arch_option(CLI::App& cmd, experiment::RunSpec& spec) {
  cmd.add_option("--arch", spec.arch, "GPU preset r9nano, mi100, mi300x, or FILE.toml (default r9nano)");
}

void add_set_option(CLI::App& cmd, experiment::RunSpec& spec, const std::string& help) {
  cmd.add_option("--set", spec.sets, help);
  cmd.footer(parameters_footer());
  // A shorthand for the one parameter reports most often want changed.
  cmd.add_option_function<uint64_t>(
         "--timeline-interval",
         [&spec](const uint64_t& cycles) { spec.sets.push_back(fmt::format("sim.timeline_interval={}", cycles)); },
         "Finest period of each launch's activity timeline in cycles (timing mode; 0: none). A long launch "
         "keeps at most sim.timeline_samples samples by merging them")
      ->check(CLI::Range(uint64_t{0}, uint64_t{1000000000}));
}

void add_method_options(CLI::App& cmd, experiment::RunSpec& spec) {
  cmd.add_option("--sampling-set", spec.sampling_sets, "Override a sampling-method parameter KEY=VALUE (repeatable)");
  cmd.add_flag("--sampling-skip-functional", spec.skip_functional,
               "Do not emulate predicted work at all (faster; the results are then unverifiable)");
  cmd.add_option("--sampling-warming", spec.warming,
                 "What work run functionally warms: none (default) or caches (its accesses update the timing "
                 "model's cache tags)");
  cmd.add_option("--profile", spec.profile,
                 "Functional profile FILE (strobe profile) for a method that reads one, instead of its own "
                 "profiling pass; any --arch or --set may reuse it");
}

void add_threads_option(CLI::App& cmd, uint32_t& threads, const std::string& help) {
  cmd.add_option("--threads", threads,
                 help.empty()
                     ? "Host threads a functional launch's work-groups run on, a gfx: workload's shader waves, or "
                       "the partitions of a detailed launch under --set sim.engine=quantum (default 0: every processor this process may run on); "
                       "results are identical for any count, and a kernel with global atomics runs on one"
                     : help)
      ->check(whole_number())  // first, so "abc" is called what it is, not out of range
      ->check(CLI::Range(0u, experiment::RunSpec::kMaxThreads));
}

void add_wave_budget_option(CLI::App& cmd) {
  // Set in the environment at parse time, before any wave runs: the emulator reads it once, and
  // host programs started by this process inherit it.
  cmd.add_option_function<std::string>(
         "--max-wave-instructions",
         [](const std::string& n) { ::setenv("STROBE_MAX_WAVE_INSTRUCTIONS", n.c_str(), 1); },
         fmt::format("Instructions one wave may execute before it is taken for a wave that never ends and "
                     "faults (default {})",
                     emu::kDefaultMaxWaveInstructions))
      ->check(whole_number())
      ->check(CLI::Range(uint64_t{1}, UINT64_MAX));
}

CLI::Validator whole_number() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        const std::optional<int64_t> v = parse_integer(text);
        if (v && *v >= 0) return {};
        // A pasted run of digits is shortened, not echoed whole.
        const std::string shown = text.size() > 24 ? text.substr(0, 24) + "..." : text;
        const bool digits = !text.empty() && text.find_first_not_of("0123456789") == std::string::npos;
        return "'" + shown + (digits ? "' is too large" : "' is not a whole number");
      },
      "N");
}

void add_verify_flag(CLI::App& cmd, experiment::RunSpec& spec, const std::string& help) {
  cmd.add_flag("--verify", spec.verify, help);
}

void add_json_option(CLI::App& cmd, std::string& json) {
  cmd.add_option("--json", json, "Write the JSON report to FILE, or - for stdout")->check(output_file());
}

CLI::Validator output_file() {
  return CLI::Validator(
      [](std::string& path) -> std::string {
        if (path == "-") return {};
        try {
          check_output_path(path);
        } catch (const Error& e) {
          return e.what();
        }
        return {};
      },
      "FILE");
}

}  // namespace strobe::cli
