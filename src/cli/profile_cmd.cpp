// `strobe profile BENCH [--param K=V]... -o FILE` and `strobe profile -o FILE -- PROGRAM [ARGS...]`:
// the functional profile profile-driven sampling methods reuse; `--check FILE` verifies an
// existing one against the workload.
// Options become an experiment::ProfileSpec; the experiment layer runs it.
#include <memory>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/core.h>

#include "cli/commands.h"
#include "cli/spec_options.h"
#include "experiment/profile.h"

namespace strobe::cli {

void add_profile_command(CLI::App& app, Action& action, std::vector<std::string> program) {
  auto s = std::make_shared<experiment::ProfileSpec>();
  auto* cmd = app.add_subcommand("profile", "Profile a built-in benchmark, or -- PROGRAM [ARGS...], functionally (per "
                                            "launch and work-group instruction and memory-request counts) for "
                                            "profile-driven sampling");
  cmd->add_option("benchmark", s->run.benchmark, "Benchmark name");
  add_param_option(*cmd, s->run);
  add_arch_option(*cmd, s->run);
  cmd->add_option("-o,--output", s->output, "Profile file to write (atomically)")->check(output_file());
  cmd->add_option("--check", s->check, "Check that an existing profile matches the workload (exit 2 if not)");
  cmd->add_flag("--gpumech", s->gpumech,
                "Also save every launch's GPUMech wave traces (about 13 bytes per wave instruction), for "
                "--sampling gpumech --profile FILE under any --arch or --set");
  add_set_option(*cmd, s->run,
                 "Configuration override (KEY=VALUE) for choosing GPUMech's representative waves (--gpumech)");
  add_threads_option(*cmd, s->run.threads);
  cmd->add_option("--line-bytes", s->line_bytes,
                  "Line size memory requests are coalesced at (default: the arch's cache line, 64 on r9nano)");
  cmd->callback([s, &action, program = std::move(program)] {
    s->run.command = "profile";
    if (!program.empty()) {
      if (!s->run.benchmark.empty()) throw CLI::ValidationError("profile", "give a benchmark or -- PROGRAM, not both");
      s->run.workload = experiment::Workload::Program;
      s->run.program = program;
    } else if (s->run.benchmark.empty()) {
      throw CLI::ValidationError("profile", "give a benchmark name, or -- PROGRAM [ARGS...]");
    }
    action = [s] {
      const experiment::ProfileResult r = experiment::profile(*s);
      if (!s->check.empty())
        fmt::print("profile {} matches: {}\n", s->check, experiment::profile_summary(r));
      else
        fmt::print("profile {}: {}\n", s->output, experiment::profile_summary(r));
      return 0;
    };
  });
}

}  // namespace strobe::cli
