// Comparing sampling methods on an OpenCL host program (see compare_program.h): every run is a
// separate process under the strobe platform, and the runs are matched through their reports.
#include "cli/compare_program.h"

#include <fmt/core.h>
#include <fmt/ranges.h>

#include <filesystem>
#include <fstream>

#include "cli/compare_report.h"
#include "cli/compare_run.h"
#include "cli/gpu_config_options.h"
#include "cli/run_program.h"
#include "common/atomic_file.h"
#include "common/error.h"
#include "sampling/eval/compare_stats.h"

namespace strobe::cli {

namespace {

/// One run of the program: its report and the simulation time of its launches.
struct ProgramRun {
  nlohmann::json report;
  double launch_seconds = 0;  ///< the launches' wall seconds: what sampling speeds up
};

/// Runs the program with `sampling` ("none": full detail) and reads back its report.
ProgramRun run_once(const ProgramCompareOptions& o, const std::string& sampling, const std::string& vendors,
                    const std::string& json) {
  ProgramRunOptions p;
  p.command = o.command;
  p.mode = "timing";
  p.arch = o.arch;
  p.sampling = sampling;
  p.sets = o.sets;
  const std::string what = sampling == "none" ? "the full detailed run" : "the " + sampling + " run";
  const int status = spawn_program(p, vendors, json, /*stdout_to_stderr=*/true);
  if (status != 0) throw InputError(fmt::format("{}: exited with status {} in {}", o.command[0], status, what));
  std::ifstream in(json);
  if (!in)
    throw InputError(
        fmt::format("{}: made no use of the strobe OpenCL platform (no report was written)", o.command[0]));
  ProgramRun r;
  r.report = nlohmann::json::parse(in, nullptr, false);
  if (r.report.is_discarded() || !r.report.contains("kernels"))
    throw Error(ExitCode::Failure, fmt::format("the report {} of {} is not valid", json, what));
  for (const auto& k : r.report["kernels"]) r.launch_seconds += k.value("wall_seconds", 0.0);
  return r;
}

uint64_t cycles_of(const nlohmann::json& kernel) { return kernel.value("cycles", uint64_t{0}); }

std::string level_of(const nlohmann::json& kernel) {
  return kernel.contains("sampling") ? kernel["sampling"].value("level", "detailed") : "detailed";
}

/// sampling_summary()'s shape from a report's launches: instructions per level and their shares.
nlohmann::json summary_of(const nlohmann::json& kernels) {
  uint64_t detailed = 0, predicted = 0, functional = 0;
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

int compare_program(const ProgramCompareOptions& o) {
  if (o.command.empty()) throw InputError("nothing to run after --");
  const timing::GpuConfig cfg = resolve_gpu_config(o.arch, o.sets);
  for (const auto& m : o.methods) check_program_method(m, cfg, "compare");
  const std::string vendors = opencl_vendors_dir();
  ScratchDir scratch;

  std::vector<ProgramRun> full(o.repeat);
  std::vector<std::vector<ProgramRun>> sampled(o.methods.size(), std::vector<ProgramRun>(o.repeat));
  // Interleaved, as for benchmarks, so that drift in the machine's speed affects all alike.
  for (int r = 0; r < o.repeat; ++r) {
    full[r] = run_once(o, "none", vendors, fmt::format("{}/full-{}.json", scratch.path(), r));
    check_same_launches(full[0].report["kernels"], full[r].report["kernels"], fmt::format("full repeat {}", r + 1));
    for (size_t m = 0; m < o.methods.size(); ++m) {
      sampled[m][r] = run_once(o, o.methods[m], vendors, fmt::format("{}/{}-{}.json", scratch.path(), o.methods[m], r));
      check_same_launches(
          full[0].report["kernels"], sampled[m][r].report["kernels"],
          fmt::format("the {} run{}", o.methods[m], o.repeat > 1 ? fmt::format(" (repeat {})", r + 1) : ""));
    }
  }

  const nlohmann::json& fk = full.back().report["kernels"];
  std::vector<double> full_seconds;
  for (const auto& f : full) full_seconds.push_back(f.launch_seconds);
  nlohmann::json jm = nlohmann::json::object();
  for (size_t m = 0; m < o.methods.size(); ++m) {
    const nlohmann::json& sk = sampled[m].back().report["kernels"];
    std::vector<double> seconds, speedups;
    for (int r = 0; r < o.repeat; ++r) {
      seconds.push_back(sampled[m][r].launch_seconds);
      speedups.push_back(seconds.back() > 0 ? full[r].launch_seconds / seconds.back() : 0.0);
    }
    std::vector<std::string> levels;
    nlohmann::json kernels = nlohmann::json::array();
    for (size_t i = 0; i < sk.size(); ++i) {
      levels.push_back(level_of(sk[i]));
      kernels.push_back(launch_entry_json(i, sk[i].value("name", ""), cycles_of(fk[i]), cycles_of(sk[i]), levels.back(),
                                          fk[i].value("wall_seconds", 0.0), sk[i].value("wall_seconds", 0.0)));
      if (sk[i].contains("sampling")) {
        const auto& s = sk[i]["sampling"];
        kernels.back()["detailed_instructions"] = s["detailed_instructions"];
        kernels.back()["predicted_instructions"] = s["predicted_instructions"];
        kernels.back()["detail"] = s["detail"];
      }
    }
    const sampling::RunScore score{total(fk),
                                   total(sk),
                                   sampling::median(full_seconds),
                                   sampling::median(seconds),
                                   sampling::median(speedups),
                                   sampling::is_fallback(levels)};
    jm[o.methods[m]] = method_entry_json(score, speedups, levels, sampled[m].back().report.value("verified", false),
                                         summary_of(sk), kernels);
  }

  // The full run's own report, as `strobe compare BENCH` gives the full benchmark run's.
  nlohmann::json j = full.back().report;
  j["sampling"] = fmt::format("{}", fmt::join(o.methods, ","));
  j["methods"] = jm;
  j["repeat"] = o.repeat;
  if (o.json == "-") {
    fmt::print("{}\n", j.dump(2));
    return 0;
  }
  if (!o.json.empty()) write_file_atomic(o.json, j.dump(2) + "\n");
  fmt::print("{}: full detailed simulation {} cycles in {:.3f} s ({} launch{}, median of {} run{})\n",
             j.value("benchmark", o.command[0]), total(fk), sampling::median(full_seconds), fk.size(),
             fk.size() == 1 ? "" : "es", o.repeat, o.repeat == 1 ? "" : "s");
  fmt::print("{}", method_table_text(o.methods, jm));
  return 0;
}

}  // namespace strobe::cli
