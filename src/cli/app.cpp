// Top-level command dispatch for `strobe`: parse, run the chosen subcommand, map errors to
// exit statuses (1 failure/fault, 2 bad usage or input) with one clear message on stderr.
#include "cli/app.h"

#include <algorithm>
#include <new>
#include <string>
#include <string_view>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/core.h>

#include "cli/commands.h"
#include "cli/context_help.h"
#include "common/build_info.h"
#include "common/error.h"
#include "experiment/sweep_run.h"

namespace strobe::cli {

int run_main(int argc, char** argv) {
  experiment::bind_to_sweep_parent();  // a sweep's task ends with its sweep
  CLI::App app{"strobe: an AMD GPU simulator (GCN3 gfx803, CDNA3 gfx942) with sampled simulation"};
  app.require_subcommand(1);
  // The build that made a result: evaluation scripts record it beside every run.
  app.set_version_flag("--version", std::string("strobe ") + build_commit());
  Action action;
  // `strobe run|compare [options] -- PROGRAM [ARGS...]`: the program's command line is kept
  // away from the option parser, whatever options it has.
  std::vector<std::string> program;
  if (argc > 2 && (std::string_view(argv[1]) == "run" || std::string_view(argv[1]) == "compare" ||
                   std::string_view(argv[1]) == "profile" || std::string_view(argv[1]) == "capture")) {
    for (int i = 2; i < argc; ++i)
      if (std::string_view(argv[i]) == "--") {
        program.assign(argv + i + 1, argv + argc);
        if (program.empty()) {
          fmt::print(stderr, "strobe: error: nothing to run after --\n");
          return static_cast<int>(ExitCode::BadInput);
        }
        argc = i;
        break;
      }
  }
  add_launch_command(app, action);
  add_disasm_command(app, action);
  add_run_command(app, action, program);
  add_list_command(app, action);
  add_compare_command(app, action, program);
  add_profile_command(app, action, program);
  add_capture_command(app, action, program);
  add_keep_command(app, action);
  add_sweep_command(app, action);
  add_report_command(app, action);
  add_shader_command(app, action);
  add_frames_command(app, action);
  // A first word that is neither an option nor a command is named, with the commands there are
  // (CLI11 would only say a subcommand is required).
  const std::vector<CLI::App*> commands = app.get_subcommands({});
  if (argc > 1 && argv[1][0] != '-' &&
      std::none_of(commands.begin(), commands.end(), [&](const CLI::App* c) { return c->check_name(argv[1]); })) {
    std::string names;
    for (const CLI::App* c : commands) names += (names.empty() ? "" : ", ") + c->get_name();
    fmt::print(stderr, "strobe: error: unknown command '{}' (commands: {})\n", argv[1], names);
    return static_cast<int>(ExitCode::BadInput);
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    int rc = app.exit(e);
    // --help with a benchmark, methods or keys named: their parameters follow the options.
    if (rc == 0)
      for (const CLI::App* cmd : app.get_subcommands()) fmt::print("{}", context_help(*cmd));
    return rc == 0 ? 0 : static_cast<int>(ExitCode::BadInput);
  }
  try {
    return action ? action() : 0;
  } catch (const Error& e) {
    fmt::print(stderr, "strobe: error: {}\n", e.what());
    return static_cast<int>(e.code());
  } catch (const std::bad_alloc&) {
    fmt::print(stderr, "strobe: error: out of host memory\n");
    return static_cast<int>(ExitCode::Failure);
  } catch (const std::exception& e) {
    fmt::print(stderr, "strobe: internal error: {}\n", e.what());
    return static_cast<int>(ExitCode::Failure);
  }
}

}  // namespace strobe::cli
