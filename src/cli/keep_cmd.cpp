// `strobe keep W.cap --sampling M[,M...] [--launches LIST] -o K.cap`: a capture keeping only the
// checkpoints the named methods run. Options become an experiment::KeepSpec; the experiment
// layer runs it.
#include <memory>
#include <sstream>
#include <string>

#include <CLI/CLI.hpp>
#include <fmt/core.h>

#include "cli/commands.h"
#include "cli/spec_options.h"
#include "experiment/keep.h"

namespace strobe::cli {

void add_keep_command(CLI::App& app, Action& action) {
  auto s = std::make_shared<experiment::KeepSpec>();
  auto methods = std::make_shared<std::string>();
  auto* cmd = app.add_subcommand("keep", "Copy a capture keeping only the checkpoints that the named sampling "
                                         "methods' replays (on --arch and --set) and --launches need: the other "
                                         "launches keep their history, profile and dispatch, all a method needs of a "
                                         "launch it predicts");
  cmd->add_option("capture", s->run.capture, "Capture FILE.cap to copy")->required();
  cmd->add_option("-o,--output", s->output, "Capture file to write (atomically)")->required()->check(output_file());
  cmd->add_option("--sampling", *methods, "Sampling methods whose launches to keep, comma-separated");
  cmd->add_option("--launches", s->launches, "Launches to keep besides, like 3,17,40-45");
  add_arch_option(*cmd, s->run);
  add_set_option(*cmd, s->run, "A configuration override (KEY=VALUE) the methods choose on");
  cmd->add_option("--sampling-set", s->run.sampling_sets, "Override a sampling-method parameter KEY=VALUE (repeatable)");
  cmd->add_option("--warm-state", s->run.warm_state, "How the methods' replayed launches' caches start: fitted "
                                                     "(default), history or none");
  add_threads_option(*cmd, s->run.threads);
  cmd->callback([s, methods, &action] {
    std::stringstream in(*methods);
    for (std::string m; std::getline(in, m, ',');)
      if (!m.empty()) s->methods.push_back(m);
    if (s->methods.empty() && s->launches.empty())
      throw CLI::ValidationError("keep", "name the methods whose launches to keep (--sampling) or --launches");
    action = [s] {
      const experiment::KeepOutcome k = experiment::keep(*s);
      fmt::print("keep {}\n", experiment::keep_summary(k, s->output));
      return 0;
    };
  });
}

}  // namespace strobe::cli
