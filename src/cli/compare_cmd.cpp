// `strobe compare BENCH --sampling M1[,M2...]`, `strobe compare --set NAME|--set-file FILE` and
// `strobe compare [options] -- PROGRAM`: full detailed simulation and each sampling method on the
// same workloads (DESIGN.md §5). This file maps options onto an experiment::CompareSpec and
// writes what experiment::compare* returns through src/report.
#include <memory>
#include <optional>

#include <CLI/CLI.hpp>
#include <fmt/core.h>
#include <fmt/ranges.h>

#include "cli/commands.h"
#include "cli/gfx_compare.h"
#include "cli/report.h"
#include "cli/spec_options.h"
#include "common/atomic_file.h"
#include "common/error.h"
#include "experiment/compare.h"
#include "experiment/compare_program.h"
#include "experiment/frames.h"
#include "report/csv.h"
#include "report/json.h"
#include "report/text.h"
#include "workloads/bench_set.h"

namespace strobe::cli {

namespace {

/// `strobe compare`'s options: the spec (run.sampling holds the method list as given), and what
/// selects a set or concerns output.
struct CompareOptions {
  experiment::RunSpec run;
  std::string csv, set_file, size = workloads::kDefaultSetSize, json, journal, captures;
  std::string frames, warm_frames;  // gfx: workloads only
  std::vector<std::string> reference_runs, profile_runs;  // gfx: workloads only
  int repeat = -1;  // unset: 1 for one benchmark, 3 for a set
  bool dry_run = false;
};

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

/// One benchmark: the report of `strobe run` for the full run, plus each method's estimate.
int compare_one(const experiment::ValidatedCompare& c, const CompareOptions& o) {
  const experiment::BenchmarkComparison bc = experiment::compare(c);
  const nlohmann::json j = report::to_json(bc.report);
  if (!o.csv.empty()) write_output(o.csv, report::set_comparison_csv(report::to_json(experiment::one_run_set(bc.run, c))));
  if (o.json == "-") {
    fmt::print("{}\n", j.dump(2));
    return 0;
  }
  if (!o.json.empty()) write_file_atomic(o.json, j.dump(2) + "\n");
  if (o.csv == "-") return 0;
  fmt::print("{}", report::comparison_text(j));
  return 0;
}

/// A set: every run compared, then the per-method aggregates.
int compare_set(const experiment::ValidatedCompare& c, const workloads::BenchSet& set, const CompareOptions& o) {
  std::optional<experiment::RunJournal> journal;
  if (!o.journal.empty()) journal.emplace(o.journal);
  const report::SetComparison sc = experiment::compare_set(
      c, set,
      [](size_t i, size_t n, const workloads::SetRun& r, bool from_journal) {
        fmt::print(stderr, "compare: [{}/{}] {} {}{}\n", i + 1, n, r.benchmark, fmt::join(r.params, " "),
                   from_journal ? " (from the journal)" : "");
      },
      journal ? &*journal : nullptr, o.captures);
  const nlohmann::json rep = report::to_json(sc);
  if (!o.json.empty()) write_output(o.json, rep.dump(2) + "\n");
  if (!o.csv.empty()) write_output(o.csv, report::set_comparison_csv(rep));
  if (o.json != "-" && o.csv != "-") fmt::print("{}", report::set_comparison_text(rep));
  return 0;
}

/// `strobe compare [options] -- PROGRAM`: only the options that apply to a program.
int run_compare_program(CompareOptions o, std::vector<std::string> program) {
  const std::string set_name = take_set_name(o.run.sets);
  const auto refuse = [](bool given, const std::string& what) {
    if (given) throw InputError(fmt::format("{}: not for a program (-- PROGRAM); only for built-in benchmarks", what));
  };
  if (!o.run.benchmark.empty())
    throw InputError(
        fmt::format("compare: benchmark '{}' given with a program after --; give one or the other", o.run.benchmark));
  refuse(!set_name.empty() || !o.set_file.empty(), "--set NAME / --set-file");
  refuse(!o.run.params.empty(), "--param");
  refuse(!o.run.sampling_sets.empty(), "--sampling-set");
  refuse(!o.csv.empty(), "--csv");
  refuse(o.size != workloads::kDefaultSetSize, "--size");
  refuse(o.dry_run, "--dry-run");
  refuse(!o.journal.empty(), "--journal");
  refuse(!o.captures.empty(), "--captures");
  refuse(o.run.verify, "--verify");
  refuse(o.run.skip_functional, "--sampling-skip-functional");
  o.run.workload = experiment::Workload::Program;
  o.run.program = std::move(program);
  const experiment::ValidatedCompare c = experiment::validate(experiment::CompareSpec{o.run, o.repeat == -1 ? 1 : o.repeat});
  const nlohmann::json j = report::to_json(experiment::compare_program(c));
  if (o.json == "-") {
    fmt::print("{}\n", j.dump(2));
    return 0;
  }
  if (!o.json.empty()) write_file_atomic(o.json, j.dump(2) + "\n");
  fmt::print("{}", report::comparison_text(j));
  return 0;
}

/// `strobe compare gfx:...`: frame sampling against every frame in detail (gfx_compare.h).
int compare_graphics_workload(const CompareOptions& o) {
  const experiment::RunSpec& s = o.run;
  const auto refuse = [](bool given, const char* what) {
    if (given) throw InputError(fmt::format("{}: not for a graphics workload", what));
  };
  refuse(!o.csv.empty(), "--csv");
  refuse(!o.set_file.empty(), "--set-file");
  refuse(o.size != workloads::kDefaultSetSize, "--size");
  refuse(o.dry_run, "--dry-run");
  refuse(!o.journal.empty(), "--journal");
  refuse(!o.captures.empty(), "--captures");
  refuse(s.verify, "--verify");
  refuse(!s.params.empty(), "--param");
  refuse(s.skip_functional, "--sampling-skip-functional");
  refuse(!s.profile.empty(), "--profile");
  experiment::FrameCompareSpec g;
  g.frames = {s.benchmark, o.frames, o.warm_frames, s.arch, s.sets, s.warm_state, std::max(s.threads, 1u)};
  g.reference_runs = o.reference_runs;
  g.profile_runs = o.profile_runs;
  g.methods = experiment::parse_methods(s.sampling);
  g.sampling_sets = s.sampling_sets;
  g.repeat = o.repeat == -1 ? 1 : o.repeat;
  return compare_graphics(g, o.json);
}

int run_compare(CompareOptions o) {
  if (o.run.benchmark.rfind("gfx:", 0) == 0 || experiment::is_frames_capture(o.run.benchmark))
    return compare_graphics_workload(o);
  if (!o.frames.empty() || !o.warm_frames.empty() || !o.reference_runs.empty() || !o.profile_runs.empty())
    throw InputError("--frames, --warm-frames, --reference-runs and --profile-runs apply to gfx: workloads");
  const std::string set_name = take_set_name(o.run.sets);
  const bool is_set = !set_name.empty() || !o.set_file.empty();
  if (!set_name.empty() && !o.set_file.empty()) throw InputError("--set NAME and --set-file: give one of them");
  if (is_set && !o.run.benchmark.empty())
    throw InputError(fmt::format("compare: benchmark '{}' given with a set; give one or the other", o.run.benchmark));
  if (!is_set && o.run.benchmark.empty()) throw InputError("compare: name a benchmark, --set NAME or --set-file FILE");
  if (is_set && !o.run.params.empty()) throw InputError("--param: a set's runs carry their own parameters");
  if (!is_set && o.size != workloads::kDefaultSetSize) throw InputError("--size: only for --set or --set-file");
  if (!is_set && o.dry_run) throw InputError("--dry-run: only for --set or --set-file");
  if (!is_set && !o.journal.empty()) throw InputError("--journal: only for --set or --set-file");
  if (!is_set && !o.captures.empty())
    throw InputError("--captures: only for --set or --set-file (capture one benchmark with strobe capture)");
  if (o.json == "-" && o.csv == "-") throw InputError("--json - and --csv -: only one can go to stdout");
  const int repeat = o.repeat != -1 ? o.repeat : is_set ? 3 : 1;
  if (!is_set && o.run.benchmark.size() > 4 && o.run.benchmark.ends_with(".cap")) {
    if (!o.run.params.empty()) throw InputError("--param: a capture holds the parameters it was captured with");
    o.run.workload = experiment::Workload::Capture;
    o.run.capture = o.run.benchmark;
  }
  if (o.run.warm_state == "none")
    throw InputError("--warm-state none: a method's launches would start as the last simulated one left the caches; "
                     "give history or fitted");
  if (o.run.warm_state != experiment::kDefaultWarmState && o.run.workload != experiment::Workload::Capture &&
      o.captures.empty())
    throw InputError("--warm-state: only for a capture (FILE.cap, or a set with --captures)");
  const experiment::ValidatedCompare c = experiment::validate(experiment::CompareSpec{o.run, repeat});
  if (!is_set) return compare_one(c, o);
  const workloads::BenchSet set = set_name.empty() ? workloads::load_set_file(o.set_file, o.size)
                                                   : workloads::load_named_set(set_name, o.size);
  if (o.dry_run) {
    for (const auto& r : set.runs) fmt::print("{} {}\n", r.benchmark, fmt::join(r.params, " "));
    return 0;
  }
  return compare_set(c, set, o);
}

}  // namespace

void add_compare_command(CLI::App& app, Action& action, std::vector<std::string> program) {
  auto o = std::make_shared<CompareOptions>();
  experiment::RunSpec& s = o->run;
  auto* cmd = app.add_subcommand("compare",
                                 "Run a benchmark, a set of them, or an OpenCL program (-- PROGRAM [ARGS...]) in full "
                                 "detail and under sampling methods; report each method's estimate, error and speedup");
  cmd->add_option("benchmark", s.benchmark, "Benchmark name (see `strobe list`); or use --set / --set-file");
  cmd->add_option("--sampling", s.sampling, "Methods to compare, comma-separated: " + experiment::method_names() +
                                 "; for gfx: workloads, " + experiment::frame_method_names())
      ->required();
  add_param_option(*cmd, s);
  add_threads_option(*cmd, s.threads,
                     "Host threads of every run, the detailed reference's and the methods' alike (default 1): "
                     "functional work-groups, and a detailed launch's partitions under --set sim.engine=quantum; "
                     "cycles and estimates are identical for any count");
  add_arch_option(*cmd, s);
  add_set_option(*cmd, s,
                 "KEY=VALUE: override a GPU configuration parameter (repeatable); NAME (no '='): compare the "
                 "benchmark set configs/sets/NAME.toml (tuning, evaluation, ml, heldout, gpumech, tbpoint, smoke)");
  cmd->add_option("--warm-state", s.warm_state,
                  "FILE.cap (or a set with --captures): how each launch or frame a method simulates starts: fitted "
                  "(default; its caches rebuilt from the capture's history, walking back 4x the lines the "
                  "configuration's data caches hold) or history (the same, to the capture's whole bound)");
  cmd->add_option("--set-file", o->set_file,
                  "Compare the runs of FILE: FILE.toml as configs/sets, else one 'BENCH [--param K=V]...' a line");
  cmd->add_option("--size", o->size, "Size variant of the set: eval (default) or ci (each benchmark at its small sizes)");
  cmd->add_option("--repeat", o->repeat,
                  "Run the reference and each method N times in this process; report the median speedup and its "
                  "spread (default 1 for one benchmark, 3 for a set)");
  add_method_options(*cmd, s);
  cmd->add_option("--captures", o->captures,
                  "With a set: compare each run from its capture in DIR, captured there first when it is not (one "
                  "capture per run serves every later configuration); adds one-shot speedups, captures counted");
  cmd->add_option("--journal", o->journal,
                  "With a set: keep each finished run in FILE (JSON Lines) and take the runs FILE already holds "
                  "for this comparison instead of simulating them again, so an interrupted set resumes");
  cmd->add_flag("--dry-run", o->dry_run, "With a set: print its runs (BENCH K=V...) and exit without running them");
  add_verify_flag(*cmd, s, "Check every run's results against the CPU reference");
  add_json_option(*cmd, o->json);
  add_wave_budget_option(*cmd);
  cmd->add_option("--csv", o->csv, "Write the per-run rows and aggregates as CSV to FILE, or - for stdout")
      ->check(output_file());
  cmd->add_option("--frames", o->frames, "gfx: workloads: the frames to compare over: A-B, A, or a list (default: all)");
  cmd->add_option("--warm-frames", o->warm_frames,
                  "gfx: workloads: frames rendered untimed before each frame a method simulates (default 2)");
  cmd->add_option("--reference-runs", o->reference_runs,
                  "gfx: workloads: take the full-detail reference from these strobe run --mode timing --json files "
                  "instead of simulating it (a long trace timed in windows; each frame once)")
      ->delimiter(',');
  cmd->add_option("--profile-runs", o->profile_runs,
                  "gfx: workloads: take MEGsim's functional profile from these strobe run --json files, with their "
                  "rendering seconds as its cost")
      ->delimiter(',');
  cmd->callback([o, &action, program = std::move(program)] {
    // Compare always simulates in detail: the reference is the timing model.
    o->run.mode = "timing";
    if (program.empty())
      action = [o] { return run_compare(*o); };
    else
      action = [o, program] { return run_compare_program(*o, program); };
  });
}

}  // namespace strobe::cli
