#include "cli/gfx_compare.h"

#include <unistd.h>

#include <fmt/format.h>

#include "cli/report.h"
#include "experiment/frame_compare.h"

namespace strobe::cli {

int compare_graphics(const experiment::FrameCompareSpec& spec, const std::string& json) {
  experiment::FrameCompareSpec s = spec;
  s.progress = s.progress || ::isatty(STDERR_FILENO);
  const report::FrameComparison c = experiment::compare_frames(experiment::validate(s));
  const nlohmann::json j = report::to_json(c);
  if (json == "-") {
    fmt::print("{}\n", j.dump(2));
    return 0;
  }
  if (!json.empty()) write_output(json, j.dump(2) + "\n");
  fmt::print("{}", report::frame_comparison_text(c));
  return 0;
}

}  // namespace strobe::cli
