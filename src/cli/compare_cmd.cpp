// `strobe compare BENCH --sampling M1[,M2...]` and `strobe compare --set NAME|--set-file FILE`:
// full detailed simulation and each sampling method on the same workloads; estimated against
// full cycles, error and speedup (DESIGN.md §5), and over a set the aggregates of
// sampling/eval/compare_stats.h.
#include <memory>
#include <sstream>

#include <CLI/CLI.hpp>
#include <fmt/core.h>
#include <fmt/ranges.h>

#include "cli/commands.h"
#include "cli/compare_program.h"
#include "cli/compare_report.h"
#include "cli/compare_run.h"
#include "cli/gpu_config_options.h"
#include "cli/report.h"
#include "common/atomic_file.h"
#include "common/error.h"
#include "workloads/bench_set.h"

namespace strobe::cli {

namespace {

struct CompareOptions {
  std::string bench, sampling, arch = "r9nano", json, csv, set_file, size = workloads::kDefaultSetSize;
  std::vector<std::string> params, sets, sampling_sets;
  int repeat = -1;  // unset: 1 for one benchmark, 3 for a set
  bool verify = false, skip_functional = false, dry_run = false;
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

/// `--set` carries both GPU overrides (KEY=VALUE, as in `strobe run`) and a benchmark set's name
/// (no '='); splits them, allowing one set name.
std::string take_set_name(std::vector<std::string>& sets) {
  std::string name;
  std::vector<std::string> overrides;
  for (auto& s : sets) {
    if (s.find('=') != std::string::npos) {
      overrides.push_back(s);
    } else if (!name.empty()) {
      throw InputError(fmt::format("--set: two benchmark sets named ('{}' and '{}'); compare one at a time", name, s));
    } else {
      name = s;
    }
  }
  sets = overrides;
  return name;
}

void write_output(const std::string& where, const std::string& content) {
  if (where == "-")
    fmt::print("{}", content);
  else
    write_file_atomic(where, content);
}

/// One benchmark: the report of `strobe run` for the full run, plus each method's estimate.
int compare_one(const CompareSpec& spec, const CompareOptions& o) {
  ComparedRun run = compare_run(spec);
  const workloads::RunOutcome& full = run.full;
  RunReport rep;
  rep.benchmark = full.benchmark;
  rep.mode = "timing";
  rep.arch = o.arch;
  rep.sampling = o.sampling;
  rep.verified = full.verified;
  rep.params = full.params.to_json();
  rep.phase_seconds = {{"setup", full.setup_seconds}, {"run", full.run_seconds}, {"verify", full.verify_seconds}};
  for (const auto& l : full.launches) rep.launches.push_back(LaunchRecord{l.result, l.grid, l.local});
  rep.wall_seconds = full.wall_seconds;
  nlohmann::json jm = nlohmann::json::object();
  for (size_t m = 0; m < run.methods.size(); ++m) {
    const MethodRuns& mr = run.methods[m];
    const auto& ls = mr.last.outcome.launches;
    rep.wall_seconds += mr.last.wall_seconds;
    nlohmann::json kernels = nlohmann::json::array();
    for (size_t i = 0; i < ls.size(); ++i) {
      const uint64_t f = full.launches[i].result.timing ? full.launches[i].result.timing->cycles : 0;
      const uint64_t e = ls[i].result.timing ? ls[i].result.timing->cycles : 0;
      kernels.push_back(launch_entry_json(i, ls[i].result.kernel, f, e, mr.levels[i],
                                          full.launches[i].result.wall_seconds, ls[i].result.wall_seconds));
      // What the method did to this launch, so a report shows how much of it was predicted.
      if (const auto& sl = ls[i].result.sampling) {
        kernels.back()["detailed_instructions"] = sl->detailed_instructions;
        kernels.back()["predicted_instructions"] = sl->predicted_instructions;
        kernels.back()["detail"] = sl->detail;
      }
    }
    jm[mr.name] = method_entry_json(score(run, m), mr.speedups, mr.levels, mr.last.outcome.verified, mr.last.summary,
                                    kernels);
  }
  attach_timing(rep, full.context->device());
  nlohmann::json j = to_json(rep);
  j["methods"] = jm;
  j["repeat"] = spec.repeat;
  if (!o.csv.empty()) {
    nlohmann::json set = {{"set", full.benchmark}, {"size", "-"}, {"methods", spec.methods},
                          {"runs", {set_run_json(run, spec.params)}}, {"aggregates", nlohmann::json::object()}};
    for (size_t m = 0; m < run.methods.size(); ++m)
      set["aggregates"][run.methods[m].name] = aggregate_json(sampling::aggregate({score(run, m)}));
    write_output(o.csv, set_report_csv(set));
  }
  if (o.json == "-") {
    fmt::print("{}\n", j.dump(2));
    return 0;
  }
  if (!o.json.empty()) write_file_atomic(o.json, j.dump(2) + "\n");
  if (o.csv == "-") return 0;
  fmt::print("{}: full detailed simulation {} cycles in {:.3f} s ({} launch{}, median of {} run{})\n", full.benchmark,
             run.full_cycles, sampling::median(run.full_seconds), full.launches.size(),
             full.launches.size() == 1 ? "" : "es", spec.repeat, spec.repeat == 1 ? "" : "s");
  fmt::print("{}", method_table_text(spec.methods, jm));
  return 0;
}

/// A set: every run compared, then the per-method aggregates.
int compare_set(CompareSpec spec, const workloads::BenchSet& set, const CompareOptions& o) {
  nlohmann::json rep = {{"set", set.name},         {"size", set.size},   {"description", set.description},
                        {"arch", o.arch},          {"methods", spec.methods}, {"repeat", spec.repeat},
                        {"runs", nlohmann::json::array()}};
  std::vector<std::vector<sampling::RunScore>> scores(spec.methods.size());
  for (size_t i = 0; i < set.runs.size(); ++i) {
    const workloads::SetRun& r = set.runs[i];
    fmt::print(stderr, "compare: [{}/{}] {} {}\n", i + 1, set.runs.size(), r.benchmark, fmt::join(r.params, " "));
    spec.bench = r.benchmark;
    spec.params = r.params;
    const ComparedRun run = compare_run(spec);
    for (size_t m = 0; m < spec.methods.size(); ++m) scores[m].push_back(score(run, m));
    rep["runs"].push_back(set_run_json(run, r.params));
  }
  rep["aggregates"] = nlohmann::json::object();
  for (size_t m = 0; m < spec.methods.size(); ++m)
    rep["aggregates"][spec.methods[m]] = aggregate_json(sampling::aggregate(scores[m]));
  if (!o.json.empty()) write_output(o.json, rep.dump(2) + "\n");
  if (!o.csv.empty()) write_output(o.csv, set_report_csv(rep));
  if (o.json != "-" && o.csv != "-") fmt::print("{}", set_report_text(rep));
  return 0;
}

/// `strobe compare [options] -- PROGRAM`: only the options that apply to a program.
int run_compare_program(CompareOptions o, std::vector<std::string> program) {
  const std::string set_name = take_set_name(o.sets);
  const auto refuse = [](bool given, const std::string& what) {
    if (given) throw InputError(fmt::format("{}: not for a program (-- PROGRAM); only for built-in benchmarks", what));
  };
  if (!o.bench.empty())
    throw InputError(
        fmt::format("compare: benchmark '{}' given with a program after --; give one or the other", o.bench));
  refuse(!set_name.empty() || !o.set_file.empty(), "--set NAME / --set-file");
  refuse(!o.params.empty(), "--param");
  refuse(!o.sampling_sets.empty(), "--sampling-set");
  refuse(!o.csv.empty(), "--csv");
  refuse(o.size != workloads::kDefaultSetSize, "--size");
  refuse(o.dry_run, "--dry-run");
  refuse(o.verify, "--verify");
  refuse(o.skip_functional, "--sampling-skip-functional");
  if (o.repeat != -1 && o.repeat < 1) throw InputError(fmt::format("--repeat {}: must be at least 1", o.repeat));
  ProgramCompareOptions p;
  p.command = std::move(program);
  p.methods = split_methods(o.sampling);
  p.arch = o.arch;
  p.sets = o.sets;
  p.json = o.json;
  p.repeat = o.repeat == -1 ? 1 : o.repeat;
  return compare_program(p);
}

int run_compare(CompareOptions o) {
  const std::string set_name = take_set_name(o.sets);
  const bool is_set = !set_name.empty() || !o.set_file.empty();
  if (!set_name.empty() && !o.set_file.empty()) throw InputError("--set NAME and --set-file: give one of them");
  if (is_set && !o.bench.empty())
    throw InputError(fmt::format("compare: benchmark '{}' given with a set; give one or the other", o.bench));
  if (!is_set && o.bench.empty()) throw InputError("compare: name a benchmark, --set NAME or --set-file FILE");
  if (is_set && !o.params.empty()) throw InputError("--param: a set's runs carry their own parameters");
  if (!is_set && o.size != workloads::kDefaultSetSize) throw InputError("--size: only for --set or --set-file");
  if (!is_set && o.dry_run) throw InputError("--dry-run: only for --set or --set-file");
  if (o.json == "-" && o.csv == "-") throw InputError("--json - and --csv -: only one can go to stdout");
  if (o.repeat != -1 && o.repeat < 1) throw InputError(fmt::format("--repeat {}: must be at least 1", o.repeat));
  CompareSpec spec;
  spec.methods = split_methods(o.sampling);
  spec.cfg = resolve_gpu_config(o.arch, o.sets);
  sampling::check_sampling_sets(spec.methods, o.sampling_sets);
  if (o.skip_functional && o.verify)
    throw InputError("--verify: with --sampling-skip-functional predicted work is not emulated, so the results "
                     "cannot be verified");
  for (const auto& n : spec.methods) sampling::make_method(n, spec.cfg, o.sampling_sets, o.skip_functional);
  spec.sampling_sets = o.sampling_sets;
  spec.verify = o.verify;
  spec.skip_functional = o.skip_functional;
  spec.repeat = o.repeat != -1 ? o.repeat : is_set ? 3 : 1;
  if (!is_set) {
    spec.bench = o.bench;
    spec.params = o.params;
    return compare_one(spec, o);
  }
  const workloads::BenchSet set = set_name.empty() ? workloads::load_set_file(o.set_file, o.size)
                                                   : workloads::load_named_set(set_name, o.size);
  if (o.dry_run) {
    for (const auto& r : set.runs) fmt::print("{} {}\n", r.benchmark, fmt::join(r.params, " "));
    return 0;
  }
  return compare_set(std::move(spec), set, o);
}

}  // namespace

void add_compare_command(CLI::App& app, Action& action, std::vector<std::string> program) {
  auto o = std::make_shared<CompareOptions>();
  auto* cmd = app.add_subcommand("compare",
                                 "Run a benchmark, a set of them, or an OpenCL program (-- PROGRAM [ARGS...]) in full "
                                 "detail and under sampling methods; report each method's estimate, error and speedup");
  cmd->add_option("benchmark", o->bench, "Benchmark name (see `strobe list`); or use --set / --set-file");
  cmd->add_option("--sampling", o->sampling, "Methods to compare, comma-separated: " + method_names())->required();
  cmd->add_option("--param", o->params, "Benchmark parameter NAME=VALUE (repeatable)");
  cmd->add_option("--arch", o->arch, "GPU preset r9nano, mi100, or FILE.toml (default r9nano)");
  cmd->add_option("--set", o->sets,
                  "KEY=VALUE: override a GPU configuration parameter (repeatable); NAME (no '='): compare the "
                  "benchmark set configs/sets/NAME.toml (tuning, evaluation, smoke)");
  cmd->add_option("--set-file", o->set_file,
                  "Compare the runs of FILE: FILE.toml as configs/sets, else one 'BENCH [--param K=V]...' a line");
  cmd->add_option("--size", o->size, "Size variant of the set: eval (default) or ci (each benchmark at its small sizes)");
  cmd->add_option("--repeat", o->repeat,
                  "Run the reference and each method N times in this process; report the median speedup and its "
                  "spread (default 1 for one benchmark, 3 for a set)");
  cmd->add_option("--sampling-set", o->sampling_sets, "Override a sampling-method parameter KEY=VALUE (repeatable)");
  cmd->add_flag("--sampling-skip-functional", o->skip_functional,
                "Do not emulate predicted work at all (faster; the results are then unverifiable)");
  cmd->add_flag("--dry-run", o->dry_run, "With a set: print its runs (BENCH K=V...) and exit without running them");
  cmd->add_flag("--verify", o->verify, "Check every run's results against the CPU reference");
  cmd->add_option("--json", o->json, "Write the JSON report to FILE, or - for stdout");
  cmd->add_option("--csv", o->csv, "Write the per-run rows and aggregates as CSV to FILE, or - for stdout");
  cmd->callback([o, &action, program = std::move(program)] {
    if (program.empty())
      action = [o] { return run_compare(*o); };
    else
      action = [o, program] { return run_compare_program(*o, program); };
  });
}

}  // namespace strobe::cli
