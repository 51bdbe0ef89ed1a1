// `strobe list [--json [FILE|-]]`: the registered benchmarks with their parameters and defaults,
// the graphics captures, and the sampling methods (of launches and of frames) with the parameters
// they declare, all generated from the registrations.
#include <filesystem>
#include <memory>

#include <CLI/CLI.hpp>
#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "common/atomic_file.h"
#include "experiment/listing.h"
#include "gfx/stream/captured.h"

namespace strobe::cli {

namespace {

/// `json`: empty for the text listing, "-" for JSON on stdout, or a path to write it to.
int run_list(const std::string& json, bool config) {
  if (!json.empty()) {
    auto graphics = nlohmann::json::array();
    for (const auto& g : gfx::captured_workloads()) {
      const std::string trace = gfx::traces_dir() + "/" + g.name + ".trace";
      graphics.push_back({{"name", std::string("gfx:") + g.name}, {"description", g.description}, {"trace", trace},
                          {"captured", std::filesystem::exists(trace)}});
    }
    const std::string text =
        nlohmann::json{{"benchmarks", experiment::benchmarks_listing()}, {"graphics", std::move(graphics)}, {"methods", experiment::methods_listing()}, {"config", experiment::config_listing()}}.dump(2) + "\n";
    if (json == "-") fmt::print("{}", text);
    else write_file_atomic(json, text);
    return 0;
  }
  for (const nlohmann::json& b : experiment::benchmarks_listing()) {
    fmt::print("{:<14} {}\n", b["name"].get<std::string>(), b["description"].get<std::string>());
    for (const nlohmann::json& p : b["params"]) fmt::print("    {}\n", experiment::param_row(p, 12));
  }
  fmt::print("\nGraphics workloads (strobe run gfx:NAME [--frames A-B]; traces in {}):\n", gfx::traces_dir());
  for (const auto& g : gfx::captured_workloads()) {
    const bool captured = std::filesystem::exists(gfx::traces_dir() + "/" + g.name + ".trace");
    fmt::print("{:<18} {}{}\n", std::string("gfx:") + g.name, g.description,
               captured ? "" : fmt::format(" [not captured: scripts/capture-gfx {}]", g.name));
  }
  if (config) {
    fmt::print("\nTiming-model parameters (--set KEY=VALUE, or a TOML file's tables):\n");
    for (const nlohmann::json& p : experiment::config_listing()) fmt::print("  {}\n", experiment::param_row(p, 28));
  }
  fmt::print("\nSampling methods (--sampling NAME, --sampling-set KEY=VALUE; of launches for benchmarks, of frames "
             "for gfx: workloads):\n");
  for (const nlohmann::json& m : experiment::methods_listing()) {
    fmt::print("{:<18} [{}] {}\n", m["name"].get<std::string>(), m["kind"].get<std::string>(),
               m["description"].get<std::string>());
    for (const nlohmann::json& p : m["params"]) fmt::print("    {}\n", experiment::param_row(p, 22));
  }
  return 0;
}

}  // namespace

void add_list_command(CLI::App& app, Action& action) {
  auto json = std::make_shared<std::string>();
  auto config = std::make_shared<bool>(false);
  auto* cmd = app.add_subcommand("list", "List the built-in benchmarks, graphics captures and sampling methods with their parameters");
  // `--json` alone keeps meaning stdout; `--json FILE|-` is the form every other command takes.
  auto* opt = cmd->add_option("--json", *json, "Write the list as JSON to FILE, or - (or nothing) for stdout")
                  ->expected(0, 1);
  cmd->add_flag("--config", *config, "Also list every timing-model parameter (--set KEY=VALUE) with its default, "
                                     "range or choices, unit and meaning");
  cmd->callback([json, opt, config, &action] {
    if (opt->count() > 0 && json->empty()) *json = "-";
    action = [json, config] { return run_list(*json, *config); };
  });
}

}  // namespace strobe::cli
