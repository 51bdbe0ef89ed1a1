// `strobe compare BENCH --sampling M1[,M2...]`: full detailed simulation and each sampling
// method on the same workload; estimated against full cycles, error and speedup (DESIGN.md §5).
#include <cmath>
#include <memory>
#include <sstream>

#include <CLI/CLI.hpp>
#include <fmt/core.h>

#include "cli/commands.h"
#include "cli/gpu_config_options.h"
#include "cli/report.h"
#include "cli/sampled_run.h"
#include "common/atomic_file.h"
#include "common/error.h"

namespace strobe::cli {

namespace {

struct CompareOptions {
  std::string bench, sampling, arch = "r9nano", json;
  std::vector<std::string> params, sets, sampling_sets;
  bool verify = false, skip_functional = false;
};

std::vector<std::string> split_methods(const std::string& list) {
  std::vector<std::string> out;
  std::stringstream ss(list);
  for (std::string m; std::getline(ss, m, ',');) {
    if (m.empty()) throw InputError(fmt::format("--sampling '{}': empty method name", list));
    if (m == "none") throw InputError("--sampling: compare needs sampling methods, not none");
    for (const auto& seen : out)
      if (seen == m) throw InputError(fmt::format("--sampling '{}': {} is named twice", list, m));
    out.push_back(m);
  }
  if (out.empty()) throw InputError("--sampling: name at least one method");
  return out;
}

double error_pct(uint64_t estimate, uint64_t full) {
  return full ? 100.0 * std::abs(double(estimate) - double(full)) / double(full) : (estimate ? 100.0 : 0.0);
}

uint64_t total_cycles(const std::vector<workloads::LaunchStat>& ls) {
  uint64_t c = 0;
  for (const auto& l : ls)
    if (l.result.timing) c += l.result.timing->cycles;
  return c;
}

int run_compare(const CompareOptions& o) {
  const std::vector<std::string> names = split_methods(o.sampling);
  const timing::GpuConfig cfg = resolve_gpu_config(o.arch, o.sets);
  sampling::check_sampling_sets(names, o.sampling_sets);
  if (o.skip_functional && o.verify)
    throw InputError("--verify: with --sampling-skip-functional predicted work is not emulated, so the results "
                     "cannot be verified");
  std::vector<std::unique_ptr<sampling::SamplingMethod>> methods;
  for (const auto& n : names) methods.push_back(sampling::make_method(n, cfg, o.sampling_sets, o.skip_functional));

  // The reference: the whole workload in detail.
  workloads::RunRequest req;
  req.benchmark = o.bench;
  req.params = o.params;
  req.verify = o.verify;
  req.prepare_device = [&cfg](runtime::Device& dev) { dev.enable_timing(cfg); };
  workloads::RunOutcome full = workloads::run_benchmark(std::move(req));
  const uint64_t full_cycles = total_cycles(full.launches);

  RunReport rep;
  rep.benchmark = full.benchmark;
  rep.mode = "timing";
  rep.arch = o.arch;
  rep.sampling = o.sampling;
  rep.verified = full.verified;
  rep.params = full.params.to_json();
  rep.phase_seconds = {{"setup", full.setup_seconds}, {"run", full.run_seconds}, {"verify", full.verify_seconds}};
  for (const auto& l : full.launches) rep.launches.push_back(LaunchRecord{l.result, l.grid, l.local});
  double wall = full.wall_seconds;
  nlohmann::json jm = nlohmann::json::object();
  std::string table;
  for (size_t m = 0; m < names.size(); ++m) {
    SampledRun sr = run_sampled(o.bench, o.params, cfg, names[m], *methods[m], o.verify, nullptr);
    wall += sr.wall_seconds;
    const auto& ls = sr.outcome.launches;
    if (ls.size() != full.launches.size())
      throw FaultError(fmt::format("{}: the sampled run made {} launches, the full run {}", names[m], ls.size(),
                                   full.launches.size()));
    const uint64_t est = total_cycles(ls);
    nlohmann::json kernels = nlohmann::json::array();
    for (size_t i = 0; i < ls.size(); ++i) {
      const uint64_t f = full.launches[i].result.timing ? full.launches[i].result.timing->cycles : 0;
      const uint64_t e = ls[i].result.timing ? ls[i].result.timing->cycles : 0;
      const auto& s = ls[i].result.sampling;
      kernels.push_back({{"launch", i},
                         {"name", ls[i].result.kernel},
                         {"full_cycles", f},
                         {"estimated_cycles", e},
                         {"error_pct", error_pct(e, f)},
                         {"level", s ? s->level : "detailed"},
                         {"full_wall_seconds", full.launches[i].result.wall_seconds},
                         {"sampled_wall_seconds", ls[i].result.wall_seconds}});
      // What the method did to this launch, so a report shows how much of it was predicted.
      if (s) {
        kernels.back()["detailed_instructions"] = s->detailed_instructions;
        kernels.back()["predicted_instructions"] = s->predicted_instructions;
        kernels.back()["detail"] = s->detail;
      }
    }
    const double speedup = sr.run_seconds > 0 ? full.run_seconds / sr.run_seconds : 0.0;
    jm[names[m]] = {{"estimated_cycles", est},
                    {"full_cycles", full_cycles},
                    {"error_pct", error_pct(est, full_cycles)},
                    {"full_wall_seconds", full.run_seconds},
                    {"sampled_wall_seconds", sr.run_seconds},
                    {"speedup", speedup},
                    {"verified", sr.outcome.verified},
                    {"sampling", sr.summary},
                    {"kernels", kernels}};
    const auto& sh = sr.summary["shares"];
    table += fmt::format("{:<10} {:>14} {:>8.2f}% {:>10.3f} {:>8.2f}x   {:.1f}% / {:.1f}% / {:.1f}%\n", names[m], est,
                         error_pct(est, full_cycles), sr.run_seconds, speedup, 100 * sh["detailed"].get<double>(),
                         100 * sh["predicted"].get<double>(), 100 * sh["functional"].get<double>());
  }
  rep.wall_seconds = wall;
  attach_timing(rep, full.context->device());
  nlohmann::json j = to_json(rep);
  j["methods"] = jm;
  if (o.json == "-") {
    fmt::print("{}\n", j.dump(2));
    return 0;
  }
  if (!o.json.empty()) write_file_atomic(o.json, j.dump(2) + "\n");
  fmt::print("{}: full detailed simulation {} cycles in {:.3f} s ({} launch{})\n", full.benchmark, full_cycles,
             full.run_seconds, full.launches.size(), full.launches.size() == 1 ? "" : "es");
  fmt::print("{:<10} {:>14} {:>9} {:>10} {:>9}   instructions detailed / predicted / analysis\n", "method",
             "est. cycles", "error", "wall s", "speedup");
  fmt::print("{}", table);
  return 0;
}

}  // namespace

void add_compare_command(CLI::App& app, Action& action) {
  auto o = std::make_shared<CompareOptions>();
  auto* cmd = app.add_subcommand("compare", "Run a benchmark in full detail and under sampling methods; report each "
                                            "method's estimate, error and speedup");
  cmd->add_option("benchmark", o->bench, "Benchmark name (see `strobe list`)")->required();
  cmd->add_option("--sampling", o->sampling, "Methods to compare, comma-separated: " + method_names())->required();
  cmd->add_option("--param", o->params, "Benchmark parameter NAME=VALUE (repeatable)");
  cmd->add_option("--arch", o->arch, "GPU preset r9nano, mi100, or FILE.toml (default r9nano)");
  cmd->add_option("--set", o->sets, "Override a GPU configuration parameter KEY=VALUE (repeatable)");
  cmd->add_option("--sampling-set", o->sampling_sets, "Override a sampling-method parameter KEY=VALUE (repeatable)");
  cmd->add_flag("--sampling-skip-functional", o->skip_functional,
                "Do not emulate predicted work at all (faster; the results are then unverifiable)");
  cmd->add_flag("--verify", o->verify, "Check every run's results against the CPU reference");
  cmd->add_option("--json", o->json, "Write the JSON report to FILE, or - for stdout");
  cmd->callback([o, &action] { action = [o] { return run_compare(*o); }; });
}

}  // namespace strobe::cli
