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
#include "workloads/benchmark.h"

namespace strobe::cli {

namespace {

/// `json`: empty for the text listing, "-" for JSON on stdout, or a path to write it to.
int run_list(const std::string& json, bool config) {
  auto all = workloads::Registry::instance().all();
  if (!json.empty()) {
    auto arr = nlohmann::json::array();
    for (const auto* b : all) {
      auto params = nlohmann::json::array();
      for (const auto& p : b->params) {
        bool is_int = p.kind == workloads::ParamKind::Int;
        nlohmann::json e{{"name", p.name}, {"type", is_int ? "int" : "float"}, {"doc", p.doc}};
        if (is_int) {
          e["default"] = int64_t(p.def), e["min"] = int64_t(p.lo), e["max"] = int64_t(p.hi), e["small"] = int64_t(p.small);
        } else {
          e["default"] = p.def, e["min"] = p.lo, e["max"] = p.hi, e["small"] = p.small;
        }
        params.push_back(std::move(e));
      }
      arr.push_back({{"name", b->name}, {"description", b->description}, {"params", std::move(params)}});
    }
    auto graphics = nlohmann::json::array();
    for (const auto& g : gfx::captured_workloads()) {
      const std::string trace = gfx::traces_dir() + "/" + g.name + ".trace";
      graphics.push_back({{"name", std::string("gfx:") + g.name}, {"description", g.description}, {"trace", trace},
                          {"captured", std::filesystem::exists(trace)}});
    }
    const std::string text =
        nlohmann::json{{"benchmarks", std::move(arr)}, {"graphics", std::move(graphics)}, {"methods", experiment::methods_listing()}, {"config", experiment::config_listing()}}.dump(2) + "\n";
    if (json == "-") fmt::print("{}", text);
    else write_file_atomic(json, text);
    return 0;
  }
  for (const auto* b : all) {
    fmt::print("{:<14} {}\n", b->name, b->description);
    for (const auto& p : b->params)
      fmt::print("    {:<12} {:>10}  [{} .. {}]  {}\n", p.name, workloads::format_value(p, p.def),
                 workloads::format_value(p, p.lo), workloads::format_value(p, p.hi), p.doc);
  }
  fmt::print("\nGraphics workloads (strobe run gfx:NAME [--frames A-B]; traces in {}):\n", gfx::traces_dir());
  for (const auto& g : gfx::captured_workloads()) {
    const bool captured = std::filesystem::exists(gfx::traces_dir() + "/" + g.name + ".trace");
    fmt::print("{:<18} {}{}\n", std::string("gfx:") + g.name, g.description,
               captured ? "" : fmt::format(" [not captured: scripts/capture-gfx {}]", g.name));
  }
  if (config) {
    fmt::print("\nTiming-model parameters (--set KEY=VALUE, or a TOML file's tables):\n");
    for (const nlohmann::json& p : experiment::config_listing()) {
      const std::string range = p.contains("choices") ? p["choices"].get<std::string>()
                                : p.contains("min")     ? fmt::format("[{} .. {}] {}", p["min"].get<double>(),
                                                                  p["max"].get<double>(), p["unit"].get<std::string>())
                                                        : std::string("text");
      fmt::print("  {:<28} {:>10}  {}  {}\n", p["key"].get<std::string>(), p["default"].get<std::string>(), range,
                 p["doc"].get<std::string>());
    }
  }
  fmt::print("\nSampling methods (--sampling NAME, --sampling-set KEY=VALUE; of launches for benchmarks, of frames "
             "for gfx: workloads):\n");
  for (const nlohmann::json& m : experiment::methods_listing()) {
    fmt::print("{:<18} [{}] {}\n", m["name"].get<std::string>(), m["kind"].get<std::string>(),
               m["description"].get<std::string>());
    for (const nlohmann::json& p : m["params"])
      fmt::print("    {:<22} {:>10}  {}\n", p["name"].get<std::string>(),
                 p["default"].is_string() ? p["default"].get<std::string>() : fmt::format("{:g}", p["default"].get<double>()),
                 p["doc"].get<std::string>());
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
