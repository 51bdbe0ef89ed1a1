// The repeated, determinism-checked comparison behind `strobe compare` (see compare.h).
#include "experiment/compare.h"

#include <filesystem>

#include <fmt/core.h>
#include <fmt/ranges.h>

#include "capture/capture_file.h"
#include "common/error.h"
#include "experiment/capture.h"
#include "experiment/cpi_compare.h"
#include "experiment/profile.h"
#include "experiment/run.h"
#include "report/json.h"
#include "workloads/verify.h"

namespace strobe::experiment {

namespace {

std::vector<uint64_t> launch_cycles(const std::vector<workloads::LaunchStat>& ls) {
  std::vector<uint64_t> out;
  for (const auto& l : ls) out.push_back(l.result.timing ? l.result.timing->cycles : 0);
  return out;
}

/// Throws unless `now` equals `first`: a repeat that simulates different cycles means the
/// simulator is not deterministic, and no error or speedup from it can be trusted.
void check_same(const std::vector<uint64_t>& first, const std::vector<uint64_t>& now, const std::string& what,
                int repeat) {
  for (size_t i = 0; i < first.size() && i < now.size(); ++i)
    if (first[i] != now[i])
      throw FaultError(fmt::format("not deterministic: {}, launch {}: {} cycles in repeat 1, {} in repeat {}", what, i,
                                   first[i], now[i], repeat + 1));
  if (first.size() != now.size())
    throw FaultError(fmt::format("not deterministic: {}: {} launches in repeat 1, {} in repeat {}", what, first.size(),
                                 now.size(), repeat + 1));
}

report::Spread spread(const std::vector<double>& v) {
  const sampling::Spread s = sampling::spread_of(v);
  return {s.median, s.min, s.max};
}

/// Launch `i` of method `m`'s CPI stack beside the reference's, when the method predicted one.
std::optional<report::CpiComparison> launch_cpi(const ComparedRun& run, size_t m, size_t i) {
  const auto& sl = run.methods[m].last.outcome.launches[i].result.sampling;
  const auto& full = run.full.launches[i].result.timing;
  if (!sl || !sl->detail.contains("cpi") || !full) return std::nullopt;
  return compare_cpi(sl->detail["cpi"], *full);
}

/// Mean |CPI error| of method `m` over the launches it predicted a CPI for.
std::optional<double> run_cpi_error(const ComparedRun& run, size_t m) {
  std::vector<report::LaunchComparison> ls(run.methods[m].last.outcome.launches.size());
  for (size_t i = 0; i < ls.size(); ++i) ls[i].cpi = launch_cpi(run, m, i);
  return mean_abs_cpi_error_pct(ls);
}

/// The parts of a method's result a one-run entry and a set row share.
report::MethodComparison method_result(const ComparedRun& run, size_t m) {
  const MethodRuns& mr = run.methods[m];
  const sampling::RunScore s = score(run, m);
  report::MethodComparison out;
  out.name = mr.name;
  if (!mr.failure.empty()) {
    out.full_cycles = s.full_cycles;
    out.full_wall_seconds = s.full_seconds;
    out.failure = mr.failure;
    return out;
  }
  out.estimated_cycles = s.estimated_cycles;
  out.full_cycles = s.full_cycles;
  out.error_pct = sampling::error_pct(s.estimated_cycles, s.full_cycles);
  out.ipc_error_pct = sampling::ipc_error_pct(s.estimated_cycles, s.full_cycles);
  out.full_wall_seconds = s.full_seconds;
  out.sampled_wall_seconds = s.sampled_seconds;
  out.speedup = spread(mr.speedups);
  out.speedups = mr.speedups;
  out.levels = level_counts(mr.levels);
  out.fallback = s.fallback;
  out.verified = mr.last.outcome.verified;
  out.sampling = mr.last.summary;
  out.detailed_share = mr.last.summary["shares"]["detailed"].get<double>();
  out.mean_abs_cpi_error_pct = run_cpi_error(run, m);
  return out;
}

}  // namespace

uint64_t total_cycles(const std::vector<workloads::LaunchStat>& ls) {
  uint64_t c = 0;
  for (const auto& l : ls)
    if (l.result.timing) c += l.result.timing->cycles;
  return c;
}

std::map<std::string, int> level_counts(const std::vector<std::string>& levels) {
  std::map<std::string, int> out;
  for (const auto& l : levels) ++out[l];
  return out;
}

namespace {

/// What a comparison runs: its workload in full detail, and under a method, once per call.
struct CompareRuns {
  std::string label;
  std::function<workloads::RunOutcome()> full;
  std::function<SampledRun(const std::string& method)> sampled;
};

/// The runs of benchmark `bench` with `params`.
CompareRuns benchmark_runs(const ValidatedCompare& c, const std::string& bench, const std::vector<std::string>& params) {
  const RunSpec& spec = c.spec.run;
  CompareRuns runs;
  runs.label = fmt::format("{} {}", bench, fmt::join(params, " "));
  runs.full = [&c, &spec, bench, params] {
    workloads::RunRequest req;
    req.benchmark = bench;
    req.params = params;
    req.verify = spec.verify;
    req.threads = spec.threads;
    req.prepare_device = [&c](runtime::Device& dev) { dev.enable_timing(c.gpu); };
    return workloads::run_benchmark(std::move(req));
  };
  runs.sampled = [&c, &spec, bench, params](const std::string& name) {
    // A fresh method each repeat: methods keep state across launches (PKA's clusters).
    auto method = c.make(name);
    SampledRun s = run_sampled(bench, params, c.gpu, name, *method, spec.verify, nullptr, emu::MemoryCheck::Page,
                               spec.threads);
    s.summary["warming"] = sampling::warming_name(c.warming);
    return s;
  };
  return runs;
}

/// The runs of a capture's launches: every launch in order in full detail, and each method
/// choosing what to simulate from the capture (replay()).
CompareRuns capture_runs(const ValidatedCompare& c) {
  CompareRuns runs;
  runs.label = c.spec.run.capture;
  auto replay_with = [&c](const std::string& method) {
    ValidatedRun v;
    v.spec = c.spec.run;
    v.spec.sampling = method;
    v.spec.mode = "timing";
    v.gpu = c.gpu;
    return replay(v);
  };
  runs.full = [replay_with] { return replay_with("none").outcome; };
  runs.sampled = [replay_with](const std::string& name) {
    RunResult r = replay_with(name);
    SampledRun s;
    s.run_seconds = r.outcome.run_seconds;
    s.wall_seconds = r.outcome.wall_seconds;
    s.summary = std::move(r.report.sampling_summary);
    s.outcome = std::move(r.outcome);
    return s;
  };
  return runs;
}

ComparedRun compare_runs(const ValidatedCompare& c, const CompareRuns& runs, bool keep_going) {
  ComparedRun out;
  out.methods.resize(c.methods.size());
  std::vector<uint64_t> full_first;
  std::vector<std::vector<uint64_t>> method_first(c.methods.size());
  const std::string& label = runs.label;
  for (int r = 0; r < c.spec.repeat; ++r) {
    out.full = runs.full();
    const std::vector<uint64_t> fc = launch_cycles(out.full.launches);
    if (r == 0) full_first = fc;
    check_same(full_first, fc, label + " (full detail)", r);
    out.full_seconds.push_back(out.full.run_seconds);
    for (size_t m = 0; m < c.methods.size(); ++m) {
      MethodRuns& mr = out.methods[m];
      mr.name = c.methods[m];
      if (!mr.failure.empty()) continue;
      try {
        mr.last = runs.sampled(mr.name);
        const auto& ls = mr.last.outcome.launches;
        if (ls.size() != out.full.launches.size())
          throw FaultError(fmt::format("{}: {}: the sampled run made {} launches, the full run {}", label, mr.name,
                                       ls.size(), out.full.launches.size()));
      } catch (const workloads::VerificationError&) {
        throw;  // a wrong result is the simulator's error, never a method's limitation
      } catch (const Error& e) {
        if (!keep_going) throw;
        mr.failure = e.what();
        mr.sampled_seconds.clear();
        mr.speedups.clear();
        continue;
      }
      const auto& ls = mr.last.outcome.launches;
      const std::vector<uint64_t> ec = launch_cycles(ls);
      if (r == 0) method_first[m] = ec;
      check_same(method_first[m], ec, label + " (" + mr.name + ")", r);
      mr.sampled_seconds.push_back(mr.last.run_seconds);
      mr.speedups.push_back(mr.last.run_seconds > 0 ? out.full.run_seconds / mr.last.run_seconds : 0.0);
    }
  }
  out.full_cycles = total_cycles(out.full.launches);
  for (auto& mr : out.methods) {
    if (!mr.failure.empty()) continue;
    mr.estimated_cycles = total_cycles(mr.last.outcome.launches);
    mr.levels.clear();
    for (const auto& l : mr.last.outcome.launches) mr.levels.push_back(l.result.sampling ? l.result.sampling->level : "detailed");
  }
  return out;
}

}  // namespace

ComparedRun compare_run(const ValidatedCompare& c, const std::string& bench, const std::vector<std::string>& params,
                        bool keep_going) {
  return compare_runs(c, benchmark_runs(c, bench, params), keep_going);
}

sampling::RunScore score(const ComparedRun& run, size_t m) {
  const MethodRuns& mr = run.methods[m];
  if (!mr.failure.empty()) {
    sampling::RunScore failed;
    failed.full_cycles = run.full_cycles;
    failed.full_seconds = sampling::median(run.full_seconds);
    failed.failure = mr.failure;
    return failed;
  }
  const auto& insts = mr.last.summary["instructions"];
  const uint64_t detailed = insts["detailed"].get<uint64_t>();
  return {run.full_cycles,
          mr.estimated_cycles,
          sampling::median(run.full_seconds),
          sampling::median(mr.sampled_seconds),
          sampling::median(mr.speedups),
          sampling::is_fallback(mr.levels),
          detailed,
          detailed + insts["predicted"].get<uint64_t>()};
}

BenchmarkComparison compare(const ValidatedCompare& c) {
  const bool captured = c.spec.run.workload == Workload::Capture;
  if (c.profile) require_profile_of(c.spec.run.profile, *c.profile, c.spec.run.benchmark, c.spec.run.params);
  BenchmarkComparison out;
  out.run = captured ? compare_runs(c, capture_runs(c), false) : compare_run(c, c.spec.run.benchmark, c.spec.run.params);
  const ComparedRun& run = out.run;
  const workloads::RunOutcome& full = run.full;
  // The reference's report is `strobe run`'s for the full run; its wall time covers every run.
  report::RunReport ref = run_report(full, "timing", c.spec.run.arch, c.spec.run.sampling);
  // From a capture, a method's one-shot cost includes the capture's, which every configuration
  // of a study shares.
  std::optional<double> capture_seconds;
  if (captured) {
    const auto cap = capture::CaptureFile::open(c.spec.run.capture);
    capture_seconds = cap->index().capture_seconds;
    ref.capture = {{"file", c.spec.run.capture}, {"workload", cap->index().workload},
                   {"capture_seconds", *capture_seconds}, {"bytes", cap->size()}};
    ref.params = nlohmann::json::object();
  }
  for (size_t m = 0; m < run.methods.size(); ++m) {
    const MethodRuns& mr = run.methods[m];
    const auto& ls = mr.last.outcome.launches;
    ref.wall_seconds += mr.last.wall_seconds;
    report::MethodComparison mc = method_result(run, m);
    if (capture_seconds && mc.failure.empty())
      mc.one_shot_speedup = mc.full_wall_seconds / (mc.sampled_wall_seconds + *capture_seconds);
    for (size_t i = 0; i < ls.size(); ++i) {
      report::LaunchComparison lc;
      lc.launch = i;
      lc.name = ls[i].result.kernel;
      lc.full_cycles = full.launches[i].result.timing ? full.launches[i].result.timing->cycles : 0;
      lc.estimated_cycles = ls[i].result.timing ? ls[i].result.timing->cycles : 0;
      lc.error_pct = sampling::error_pct(lc.estimated_cycles, lc.full_cycles);
      lc.level = mr.levels[i];
      lc.full_wall_seconds = full.launches[i].result.wall_seconds;
      lc.sampled_wall_seconds = ls[i].result.wall_seconds;
      if (const auto& sl = ls[i].result.sampling) {
        lc.has_sampling = true;
        lc.detailed_instructions = sl->detailed_instructions;
        lc.predicted_instructions = sl->predicted_instructions;
        lc.detail = sl->detail;
      }
      lc.cpi = launch_cpi(run, m, i);
      mc.launches.push_back(std::move(lc));
    }
    out.report.methods.push_back(std::move(mc));
  }
  out.report.reference = report::to_json(ref);
  out.report.repeat = c.spec.repeat;
  return out;
}

report::SetRunRow set_row(const ComparedRun& run, const std::vector<std::string>& args) {
  report::SetRunRow row;
  row.benchmark = run.full.benchmark;
  row.args = args;
  row.params = run.full.params.to_json();
  row.launches = run.full.launches.size();
  for (const auto& l : run.full.launches) row.wave_instructions += l.result.stats.wave_instructions;
  row.full_cycles = run.full_cycles;
  row.full_seconds = spread(run.full_seconds);
  row.repeats = run.full_seconds.size();
  for (size_t m = 0; m < run.methods.size(); ++m) row.methods.push_back(method_result(run, m));
  row.provenance = RunJournal::provenance();
  return row;
}

report::AggregateRow aggregate_row(const sampling::Aggregate& a) {
  return {a.runs,
          a.failed_runs,
          a.total_speedup,
          a.geomean_speedup,
          a.mean_abs_error_pct,
          a.max_abs_error_pct,
          a.summed_cycles_error_pct,
          a.fallback_runs,
          a.sampled_runs,
          a.mean_abs_error_pct_sampled,
          a.geomean_ipc_error_pct,
          a.sample_size};
}

std::string set_capture_path(const std::string& dir, const workloads::SetRun& r) {
  std::string joined = r.benchmark;
  for (const std::string& p : r.params) joined += '\0' + p;
  return fmt::format("{}/{}-{:016x}.cap", dir, r.benchmark, sampling::profile::fnv1a(joined));
}

namespace {

/// Run `r` of a set compared from its capture in `dir` (captured first when absent), with each
/// method's one-shot speedup; the row's capture_seconds is set.
ComparedRun compare_captured(const ValidatedCompare& c, const workloads::SetRun& r, const std::string& dir,
                             double& capture_seconds) {
  const std::string path = set_capture_path(dir, r);
  if (!std::filesystem::exists(path)) {
    std::filesystem::create_directories(dir);
    CaptureSpec s;
    s.run.benchmark = r.benchmark;
    s.run.params = r.params;
    s.run.threads = c.spec.run.threads;
    s.output = path;
    capture(s);
  }
  capture_seconds = capture::CaptureFile::open(path)->index().capture_seconds;
  ValidatedCompare v = c;
  v.spec.run.workload = Workload::Capture;
  v.spec.run.capture = path;
  v.spec.run.params.clear();
  return compare_runs(v, capture_runs(v), true);
}

}  // namespace

report::SetComparison compare_set(const ValidatedCompare& c, const workloads::BenchSet& set, const SetProgress& on_run,
                                  RunJournal* journal, const std::string& captures) {
  if (c.profile) throw InputError("--profile: a profile is of one workload, and a set runs several");
  report::SetComparison rep;
  rep.set = set.name;
  rep.size = set.size;
  rep.description = set.description;
  rep.arch = c.spec.run.arch;
  rep.methods = c.methods;
  rep.repeat = c.spec.repeat;
  std::vector<std::vector<sampling::RunScore>> scores(c.methods.size());
  // One-shot totals over the runs a method did not fail: full detail's seconds, and the method's
  // with every capture's.
  std::vector<double> full_total(c.methods.size(), 0), one_shot_total(c.methods.size(), 0);
  for (size_t i = 0; i < set.runs.size(); ++i) {
    const workloads::SetRun& r = set.runs[i];
    // A run compared from its capture is journaled apart from one compared from the benchmark.
    ValidatedCompare keyed = c;
    if (!captures.empty()) keyed.spec.run.workload = Workload::Capture;
    std::optional<JournalEntry> e = journal ? journal->find(keyed, r) : std::nullopt;
    if (on_run) on_run(i, set.runs.size(), r, e.has_value());
    if (!e) {
      double capture_seconds = 0;
      const ComparedRun run =
          captures.empty() ? compare_run(c, r.benchmark, r.params, true) : compare_captured(c, r, captures, capture_seconds);
      e.emplace();
      for (size_t m = 0; m < c.methods.size(); ++m) e->scores.push_back(score(run, m));
      e->row = set_row(run, r.params);
      if (!captures.empty()) {
        e->row.capture_seconds = capture_seconds;
        for (report::MethodComparison& mc : e->row.methods)
          if (mc.failure.empty())
            mc.one_shot_speedup = mc.full_wall_seconds / (mc.sampled_wall_seconds + capture_seconds);
      }
      if (journal) journal->record(keyed, r, *e);
    }
    for (size_t m = 0; m < c.methods.size(); ++m) {
      scores[m].push_back(e->scores[m]);
      const report::MethodComparison& mc = e->row.methods.at(m);
      if (e->row.capture_seconds && mc.failure.empty()) {
        full_total[m] += mc.full_wall_seconds;
        one_shot_total[m] += mc.sampled_wall_seconds + *e->row.capture_seconds;
      }
    }
    rep.runs.push_back(std::move(e->row));
  }
  for (size_t m = 0; m < c.methods.size(); ++m) {
    report::AggregateRow a = aggregate_row(sampling::aggregate(scores[m]));
    if (!captures.empty() && one_shot_total[m] > 0) a.one_shot_total_speedup = full_total[m] / one_shot_total[m];
    rep.aggregates.emplace_back(c.methods[m], a);
  }
  return rep;
}

report::SetComparison one_run_set(const ComparedRun& run, const ValidatedCompare& c) {
  report::SetComparison rep;
  rep.set = run.full.benchmark;
  rep.size = "-";
  rep.arch = c.spec.run.arch;
  rep.methods = c.methods;
  rep.repeat = c.spec.repeat;
  rep.runs.push_back(set_row(run, c.spec.run.params));
  for (size_t m = 0; m < run.methods.size(); ++m)
    rep.aggregates.emplace_back(run.methods[m].name, aggregate_row(sampling::aggregate({score(run, m)})));
  return rep;
}

}  // namespace strobe::experiment
