// Comparing sampling methods on an OpenCL host program (see compare_program.h): every run is a
// separate process under the strobe platform (a method with a profiling pass runs the program
// once more), and the runs are matched through their reports.
#include "experiment/compare_program.h"

#include <fmt/core.h>
#include <fmt/ranges.h>

#include <filesystem>
#include <fstream>

#include "experiment/compare.h"
#include "experiment/cpi_compare.h"
#include "experiment/program.h"
#include "experiment/program_env.h"
#include "common/error.h"
#include "sampling/method.h"
#include "sampling/eval/compare_stats.h"

namespace strobe::experiment {

namespace {

/// One run of the program under a method (every pass of it): the last pass's report and the
/// simulation time of the launches of every pass.
struct ProgramRun {
  nlohmann::json report;      ///< the last pass's: the one whose estimates count
  double launch_seconds = 0;  ///< the launches' wall seconds over every pass: what sampling speeds up
  /// Per pass before the last (a profile): its launches' wall seconds and count, and the wave
  /// instructions it emulated for analysis.
  nlohmann::json earlier_passes = nlohmann::json::array();
  uint64_t earlier_functional = 0;  ///< Σ of those instructions
  std::vector<nlohmann::json> earlier_kernels;  ///< each earlier pass's report's `kernels`
};

/// Reads the report `json` that `what` wrote.
nlohmann::json read_report(const std::string& program, const std::string& json, const std::string& what) {
  std::ifstream in(json);
  if (!in)
    throw InputError(missing_report_error(program, json));
  nlohmann::json r = nlohmann::json::parse(in, nullptr, false);
  if (r.is_discarded() || !r.contains("kernels"))
    throw Error(ExitCode::Failure, fmt::format("the report {} of {} is not valid", json, what));
  return r;
}

double launch_seconds_of(const nlohmann::json& report) {
  double s = 0;
  for (const auto& k : report["kernels"]) s += k.value("wall_seconds", 0.0);
  return s;
}

/// Runs the program with `sampling` ("none": full detail), once per pass of the method (a
/// method with a profiling pass gets one run more), and reads back the reports.
ProgramRun run_once(const ValidatedCompare& c, const std::string& sampling, const std::string& work) {
  RunSpec p;
  p.workload = Workload::Program;
  p.program = c.spec.run.program;
  p.mode = "timing";
  p.arch = c.spec.run.arch;
  p.sampling = sampling;
  p.sets = c.spec.run.sets;
  // --profile reaches the methods that read one; the others profile for themselves.
  if (sampling != "none" && sampling::method_info(sampling).reads_profile) p.profile = c.spec.run.profile;
  if (sampling != "none") p.warming = c.spec.run.warming;
  const int passes = sampling == "none" ? 1 : c.make(sampling)->passes();
  const std::vector<std::string>& command = p.program;
  const std::string what = sampling == "none" ? "the full detailed run" : "the " + sampling + " run";
  const ProgramPasses runs = run_program_passes(p, passes, work + ".json", work, /*stdout_to_stderr=*/true);
  if (runs.exit_status != 0)
    throw InputError(fmt::format("{}: exited with status {} in {}{}", command[0], runs.exit_status, what,
                                 passes > 1 ? fmt::format(" (pass {} of {})", runs.failed_pass, passes) : ""));
  ProgramRun r;
  for (int i = 0; i + 1 < passes; ++i) {
    const nlohmann::json earlier = read_report(command[0], runs.reports[size_t(i)], what);
    uint64_t functional = 0;
    for (const auto& k : earlier["kernels"])
      if (k.contains("sampling")) functional += k["sampling"].value("functional_instructions", uint64_t{0});
    const double seconds = launch_seconds_of(earlier);
    r.launch_seconds += seconds;
    r.earlier_functional += functional;
    r.earlier_kernels.push_back(earlier["kernels"]);
    r.earlier_passes.push_back({{"pass", i}, {"launch_seconds", seconds}, {"launches", earlier["kernels"].size()},
                                {"functional_instructions", functional}});
  }
  r.report = read_report(command[0], runs.reports.back(), what);
  r.launch_seconds += launch_seconds_of(r.report);
  return r;
}

uint64_t cycles_of(const nlohmann::json& kernel) { return kernel.value("cycles", uint64_t{0}); }

std::string level_of(const nlohmann::json& kernel) {
  return kernel.contains("sampling") ? kernel["sampling"].value("level", "detailed") : "detailed";
}

/// sampling_summary()'s shape from a report's launches: instructions per level and their shares,
/// `earlier_functional` instructions of earlier passes (a profile) counted as analysis.
nlohmann::json summary_of(const nlohmann::json& kernels, uint64_t earlier_functional) {
  uint64_t detailed = 0, predicted = 0, functional = earlier_functional;
  bool emulated = true;
  nlohmann::json levels = nlohmann::json::object();
  for (const auto& k : kernels) {
    if (!k.contains("sampling")) continue;
    const auto& s = k["sampling"];
    detailed += s.value("detailed_instructions", uint64_t{0});
    predicted += s.value("predicted_instructions", uint64_t{0});
    functional += s.value("functional_instructions", uint64_t{0});
    emulated = emulated && s.value("emulated", true);
    levels[level_of(k)] = levels.value(level_of(k), 0) + 1;
  }
  const double timed = double(std::max<uint64_t>(detailed + predicted, 1));
  return {{"instructions", {{"detailed", detailed}, {"predicted", predicted}, {"functional", functional}}},
          {"shares",
           {{"detailed", double(detailed) / timed},
            {"predicted", double(predicted) / timed},
            {"functional", double(functional) / timed}}},
          {"launch_levels", levels},
          {"emulated", emulated}};
}

uint64_t total(const nlohmann::json& kernels) {
  uint64_t c = 0;
  for (const auto& k : kernels) c += cycles_of(k);
  return c;
}

}  // namespace

void check_same_launches(const nlohmann::json& full, const nlohmann::json& other, const std::string& other_run) {
  const auto differs = [&](size_t i, const std::string& what, const nlohmann::json& a, const nlohmann::json& b) {
    throw InputError(
        fmt::format("the program launches differently from run to run: launch {}: {} {} in the full "
                    "detailed run, {} in {}; compare needs the same launches in every run",
                    i, what, a.dump(), b.dump(), other_run));
  };
  for (size_t i = 0; i < full.size() && i < other.size(); ++i)
    for (const char* key : {"name", "grid", "local"})
      if (full[i].value(key, nlohmann::json()) != other[i].value(key, nlohmann::json()))
        differs(i, std::string(key == std::string("name") ? "kernel" : key), full[i][key], other[i][key]);
  if (full.size() != other.size())
    throw InputError(
        fmt::format("the program launches differently from run to run: {} launches in the full detailed "
                    "run, {} in {}; compare needs the same launches in every run",
                    full.size(), other.size(), other_run));
}

report::RunComparison compare_program(const ValidatedCompare& c) {
  const std::vector<std::string>& methods = c.methods;
  const int repeat = c.spec.repeat;
  ScratchDir scratch;

  std::vector<ProgramRun> full(repeat);
  std::vector<std::vector<ProgramRun>> sampled(methods.size(), std::vector<ProgramRun>(repeat));
  // Interleaved, as for benchmarks, so that drift in the machine's speed affects all alike.
  for (int r = 0; r < repeat; ++r) {
    full[r] = run_once(c, "none", fmt::format("{}/full-{}", scratch.path(), r));
    check_same_launches(full[0].report["kernels"], full[r].report["kernels"], fmt::format("full repeat {}", r + 1));
    for (size_t m = 0; m < methods.size(); ++m) {
      sampled[m][r] = run_once(c, methods[m], fmt::format("{}/{}-{}", scratch.path(), methods[m], r));
      const std::string rep = repeat > 1 ? fmt::format(" (repeat {})", r + 1) : "";
      for (size_t p = 0; p < sampled[m][r].earlier_kernels.size(); ++p)
        check_same_launches(full[0].report["kernels"], sampled[m][r].earlier_kernels[p],
                            fmt::format("pass {} of the {} run{}", p, methods[m], rep));
      check_same_launches(full[0].report["kernels"], sampled[m][r].report["kernels"],
                          fmt::format("the {} run{}", methods[m], rep));
    }
  }

  const nlohmann::json& fk = full.back().report["kernels"];
  std::vector<double> full_seconds;
  for (const auto& f : full) full_seconds.push_back(f.launch_seconds);
  report::RunComparison out;
  for (size_t m = 0; m < methods.size(); ++m) {
    const nlohmann::json& sk = sampled[m].back().report["kernels"];
    std::vector<double> seconds, speedups;
    for (int r = 0; r < repeat; ++r) {
      seconds.push_back(sampled[m][r].launch_seconds);
      speedups.push_back(seconds.back() > 0 ? full[r].launch_seconds / seconds.back() : 0.0);
    }
    report::MethodComparison mc;
    mc.name = methods[m];
    std::vector<std::string> levels;
    for (size_t i = 0; i < sk.size(); ++i) {
      levels.push_back(level_of(sk[i]));
      report::LaunchComparison lc;
      lc.launch = i;
      lc.name = sk[i].value("name", "");
      lc.full_cycles = cycles_of(fk[i]);
      lc.estimated_cycles = cycles_of(sk[i]);
      lc.error_pct = sampling::error_pct(lc.estimated_cycles, lc.full_cycles);
      lc.level = levels.back();
      lc.full_wall_seconds = fk[i].value("wall_seconds", 0.0);
      lc.sampled_wall_seconds = sk[i].value("wall_seconds", 0.0);
      if (sk[i].contains("sampling")) {
        const auto& s = sk[i]["sampling"];
        lc.has_sampling = true;
        lc.detailed_instructions = s["detailed_instructions"];
        lc.predicted_instructions = s["predicted_instructions"];
        lc.detail = s["detail"];
        if (lc.detail.contains("cpi") && fk[i].contains("timing")) lc.cpi = compare_cpi(lc.detail["cpi"], fk[i]);
      }
      mc.launches.push_back(std::move(lc));
    }
    const sampling::Spread sp = sampling::spread_of(speedups);
    mc.mean_abs_cpi_error_pct = mean_abs_cpi_error_pct(mc.launches);
    mc.full_cycles = total(fk);
    mc.estimated_cycles = total(sk);
    mc.error_pct = sampling::error_pct(mc.estimated_cycles, mc.full_cycles);
    mc.ipc_error_pct = sampling::ipc_error_pct(mc.estimated_cycles, mc.full_cycles);
    mc.full_wall_seconds = sampling::median(full_seconds);
    mc.sampled_wall_seconds = sampling::median(seconds);
    mc.speedup = {sp.median, sp.min, sp.max};
    mc.speedups = speedups;
    mc.levels = level_counts(levels);
    mc.fallback = sampling::is_fallback(levels);
    mc.verified = sampled[m].back().report.value("verified", false);
    mc.sampling = summary_of(sk, sampled[m].back().earlier_functional);
    mc.sampling["warming"] = sampling::warming_name(c.warming);
    // A method's profiling runs, whose time its speedup includes, as `passes` of a benchmark's.
    if (!sampled[m].back().earlier_passes.empty()) mc.sampling["earlier_passes"] = sampled[m].back().earlier_passes;
    mc.detailed_share = mc.sampling["shares"]["detailed"].get<double>();
    out.methods.push_back(std::move(mc));
  }

  // The full run's own report, as `strobe compare BENCH` gives the full benchmark run's.
  out.reference = full.back().report;
  out.reference["sampling"] = fmt::format("{}", fmt::join(methods, ","));
  out.repeat = repeat;
  return out;
}

}  // namespace strobe::experiment
