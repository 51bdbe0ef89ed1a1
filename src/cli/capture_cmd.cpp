// `strobe capture BENCH [--param K=V]... -o W.cap`: one functional run of a benchmark recorded
// as a capture, whose launches `strobe run W.cap` then replays, each alone from its checkpoint.
// Options become an experiment::CaptureSpec; the experiment layer runs it.
#include <memory>
#include <string>

#include <CLI/CLI.hpp>
#include <fmt/core.h>

#include "cli/commands.h"
#include "cli/spec_options.h"
#include "experiment/capture.h"

namespace strobe::cli {

void add_capture_command(CLI::App& app, Action& action, std::vector<std::string> program) {
  auto s = std::make_shared<experiment::CaptureSpec>();
  auto history_mib = std::make_shared<uint64_t>(s->recorder.history_bytes >> 20);
  auto* cmd = app.add_subcommand("capture", "Capture a built-in benchmark, a gfx: workload's frames, or -- PROGRAM "
                                            "[ARGS...] (an OpenCL host program): one functional run recorded so that "
                                            "`strobe run FILE` replays any of its launches or frames alone, from a "
                                            "checkpoint, on any GPU configuration");
  cmd->add_option("benchmark", s->run.benchmark, "Benchmark name or gfx:TRACE (omit with -- PROGRAM)");
  add_param_option(*cmd, s->run);
  cmd->add_option("-o,--output", s->output, "Capture file to write (atomically)")->required()->check(output_file());
  cmd->add_option("--frames", s->frames,
                  "gfx: workloads: the frames to capture: A-B, A, or a list like 0-9,20 (default: all); --arch and "
                  "--set give the tile size they are recorded at");
  add_threads_option(*cmd, s->run.threads);
  add_verify_flag(*cmd, s->run, "Check the captured run's results against the CPU reference (exit 1 on mismatch)");
  cmd->add_flag("--gpumech", s->recorder.gpumech,
                "Also save every launch's GPUMech wave traces (about 13 bytes per wave instruction), so GPUMech and "
                "SimProf's GPUMech proxy run from the capture without tracing; --arch and --set choose the GPU their "
                "representative waves are picked on");
  add_arch_option(*cmd, s->run);
  add_set_option(*cmd, s->run, "With --gpumech: a configuration override (KEY=VALUE) for choosing representative waves");
  cmd->add_option("--granule", s->recorder.granule_bytes,
                  "Line size the warm-state history is recorded at: replays may use any cache line this large or "
                  "larger (default 64)")
      ->check(CLI::Range(16, 1024));
  cmd->add_option("--history-mib", *history_mib,
                  "Distinct MiB of history a replay rebuilds its caches from (default 32: twice the largest L2 "
                  "of the presets)")
      ->check(CLI::Range(capture::kMinHistoryBytes >> 20, capture::kMaxHistoryBytes >> 20));
  cmd->callback([s, history_mib, &action, program = std::move(program)] {
    s->run.command = "capture";
    if (!program.empty()) {
      if (!s->run.benchmark.empty()) throw CLI::ValidationError("capture", "give a benchmark or -- PROGRAM, not both");
      if (!s->run.params.empty() || s->run.verify)
        throw CLI::ValidationError("capture", "--param and --verify apply to benchmarks, not to -- PROGRAM");
      s->run.workload = experiment::Workload::Program;
      s->run.program = program;
    } else if (s->run.benchmark.empty()) {
      throw CLI::ValidationError("capture", "give a benchmark name, or -- PROGRAM [ARGS...]");
    }
    s->recorder.history_bytes = *history_mib << 20;
    action = [s] {
      const experiment::CaptureResult r = experiment::capture(*s);
      fmt::print("capture {}: {}\n", r.path, experiment::capture_summary(r));
      return 0;
    };
  });
}

}  // namespace strobe::cli
