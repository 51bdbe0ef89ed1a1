// `strobe frames gfx:TRACE --frames A-B -o FILE`: a window of a captured trace's frames written
// as strobe's own frame file (gfx/stream/frame_file.h), which `strobe run gfx:FILE` and
// `strobe compare gfx:FILE` read without replaying the calls before the window.
// `strobe frames gfx:TRACE --count`: how many frames the trace holds (its calls replayed, nothing
// rendered), for scripts that cut a long trace into windows.
#include <chrono>
#include <filesystem>
#include <memory>
#include <string>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "cli/commands.h"
#include "cli/spec_options.h"
#include "common/error.h"
#include "gfx/stream/captured.h"
#include "gfx/stream/frame_file.h"
#include "gfx/stream/frame_stream.h"

namespace strobe::cli {
namespace {

struct FramesOptions {
  std::string workload, frames, out;
  bool count = false;
};

int run_frames(const FramesOptions& o) {
  if (o.workload.rfind("gfx:", 0) != 0)
    throw InputError(fmt::format("strobe frames {}: expected a graphics workload gfx:NAME or gfx:PATH", o.workload));
  const std::string trace = gfx::resolve_trace(o.workload);
  if (o.count) {
    if (!o.frames.empty() || !o.out.empty()) throw InputError("strobe frames --count: takes no --frames or -o");
    fmt::print("{}\n", gfx::count_frames(trace));
    return 0;
  }
  if (o.frames.empty() || o.out.empty())
    throw InputError("strobe frames: --frames and -o/--output are required (or --count alone)");
  if (gfx::is_frame_file(trace))
    throw InputError(fmt::format("{}: already a frame file; give the trace it came from", trace));
  const auto ranges = gfx::parse_frame_ranges(o.frames, "--frames");
  const auto t0 = std::chrono::steady_clock::now();
  const size_t n = gfx::write_frame_file(o.out, trace, ranges);
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  fmt::print("{}: {} frames of {} ({} bytes) in {:.2f} s\n", o.out, n, trace, std::filesystem::file_size(o.out), s);
  return 0;
}

}  // namespace

void add_frames_command(CLI::App& app, Action& action) {
  auto o = std::make_shared<FramesOptions>();
  auto* cmd = app.add_subcommand("frames",
                                 "Write a window of a captured graphics trace's frames, with everything they read, as "
                                 "strobe's own frame file (run and compare read it as gfx:FILE)");
  cmd->add_option("workload", o->workload, "gfx:NAME (strobe list) or gfx:PATH of an apitrace capture")->required();
  cmd->add_option("--frames", o->frames, "The frames: A-B, A, or a list like 0-9,20");
  cmd->add_option("-o,--output", o->out, "The frame file to write (atomically)")->check(output_file());
  cmd->add_flag("--count", o->count, "Print how many frames the trace holds, and write nothing");
  cmd->callback([o, &action] { action = [o] { return run_frames(*o); }; });
}

}  // namespace strobe::cli
