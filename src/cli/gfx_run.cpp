#include "cli/gfx_run.h"

#include <unistd.h>

#include <fmt/format.h>

#include "cli/report.h"

namespace strobe::cli {

int run_graphics(const GraphicsRunOptions& o) {
  const experiment::ValidatedFrameRun v = experiment::validate(o.spec);
  const bool json_on_stdout = o.json == "-";
  const bool show = o.progress || ::isatty(STDERR_FILENO);
  const report::FrameRun r = experiment::run_frames(v, [&](const report::FrameRecord& f) {
    if (!json_on_stdout) fmt::print("{}\n", report::frame_line(f));
    else if (show) fmt::print(stderr, "{}\n", report::frame_line(f));
  });
  if (!json_on_stdout) fmt::print("{}", report::frame_run_text(r));
  else if (show) fmt::print(stderr, "{}", r.selection_text);
  if (!o.json.empty()) write_output(o.json, report::to_json(r).dump(2) + "\n");
  return 0;
}

}  // namespace strobe::cli
