// `strobe list [--json]`: the registered benchmarks with their parameters and defaults.
#include <memory>

#include <CLI/CLI.hpp>
#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "workloads/benchmark.h"

namespace strobe::cli {

namespace {

int run_list(bool json) {
  auto all = workloads::Registry::instance().all();
  if (json) {
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
    fmt::print("{}\n", nlohmann::json{{"benchmarks", std::move(arr)}}.dump(2));
    return 0;
  }
  for (const auto* b : all) {
    fmt::print("{:<14} {}\n", b->name, b->description);
    for (const auto& p : b->params)
      fmt::print("    {:<12} {:>10}  [{} .. {}]  {}\n", p.name, workloads::format_value(p, p.def),
                 workloads::format_value(p, p.lo), workloads::format_value(p, p.hi), p.doc);
  }
  return 0;
}

}  // namespace

void add_list_command(CLI::App& app, Action& action) {
  auto json = std::make_shared<bool>(false);
  auto* cmd = app.add_subcommand("list", "List the built-in benchmarks and their parameters");
  cmd->add_flag("--json", *json, "Print the list as JSON");
  cmd->callback([json, &action] { action = [json] { return run_list(*json); }; });
}

}  // namespace strobe::cli
