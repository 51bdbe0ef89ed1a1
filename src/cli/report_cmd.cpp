// `strobe report RESULT.json... -o report.html`: one self-contained HTML page of runs,
// comparisons, sets and sweeps (report/page.h, report/html.h).
#include <filesystem>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "cli/spec_options.h"
#include "cli/report.h"
#include "common/atomic_file.h"
#include "common/error.h"
#include "report/html.h"
#include "report/page.h"

namespace strobe::cli {

namespace {

struct ReportOptions {
  std::vector<std::string> results;
  std::string out;
  std::string title;
};

int run_report(const ReportOptions& o) {
  std::vector<report::PageInput> inputs;
  for (const std::string& path : o.results) {
    nlohmann::json j;
    try {
      j = nlohmann::json::parse(read_file(path));
    } catch (const nlohmann::json::exception& e) {
      throw InputError(fmt::format("{}: not JSON ({})", path, e.what()));
    }
    inputs.push_back({std::filesystem::path(path).filename().string(), std::move(j)});
  }
  const nlohmann::json page = report::report_page(inputs);
  const report::HtmlAssets assets = report::load_html_assets();
  std::string title = o.title;
  if (title.empty()) {
    title = "strobe report:";
    for (const auto& in : inputs) title += " " + in.name;
  }
  write_output(o.out, report::html_page(page, title, assets));
  if (o.out != "-") std::fprintf(stderr, "report: %zu section(s) written to %s\n", page["sections"].size(), o.out.c_str());
  return 0;
}

}  // namespace

void add_report_command(CLI::App& app, Action& action) {
  auto o = std::make_shared<ReportOptions>();
  CLI::App* cmd = app.add_subcommand(
      "report", "Write one self-contained HTML page (offline, nothing fetched) of result files: runs and compares "
                "(--json), set comparisons, sweep tables (strobe sweep --collect)");
  cmd->add_option("results", o->results, "Result JSON files")->required()->check(CLI::ExistingFile);
  cmd->add_option("-o,--output", o->out, "The HTML file to write (replaced atomically), or - for stdout")
      ->required()
      ->check(output_file());
  cmd->add_option("--title", o->title, "The page's title (default: the result files' names)");
  cmd->callback([o, &action] { action = [o] { return run_report(*o); }; });
}

}  // namespace strobe::cli
