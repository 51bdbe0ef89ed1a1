// The repeated, determinism-checked comparison behind `strobe compare`.
#include "cli/compare_run.h"

#include <fmt/core.h>
#include <fmt/ranges.h>

#include "common/error.h"

namespace strobe::cli {

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

}  // namespace

uint64_t total_cycles(const std::vector<workloads::LaunchStat>& ls) {
  uint64_t c = 0;
  for (const auto& l : ls)
    if (l.result.timing) c += l.result.timing->cycles;
  return c;
}

nlohmann::json level_counts(const std::vector<std::string>& levels) {
  nlohmann::json j = nlohmann::json::object();
  for (const auto& l : levels) j[l] = j.value(l, 0) + 1;
  return j;
}

ComparedRun compare_run(const CompareSpec& spec) {
  ComparedRun out;
  out.methods.resize(spec.methods.size());
  std::vector<uint64_t> full_first;
  std::vector<std::vector<uint64_t>> method_first(spec.methods.size());
  const std::string label = fmt::format("{} {}", spec.bench, fmt::join(spec.params, " "));
  for (int r = 0; r < spec.repeat; ++r) {
    workloads::RunRequest req;
    req.benchmark = spec.bench;
    req.params = spec.params;
    req.verify = spec.verify;
    req.prepare_device = [&spec](runtime::Device& dev) { dev.enable_timing(spec.cfg); };
    out.full = workloads::run_benchmark(std::move(req));
    const std::vector<uint64_t> fc = launch_cycles(out.full.launches);
    if (r == 0) full_first = fc;
    check_same(full_first, fc, label + " (full detail)", r);
    out.full_seconds.push_back(out.full.run_seconds);
    for (size_t m = 0; m < spec.methods.size(); ++m) {
      MethodRuns& mr = out.methods[m];
      mr.name = spec.methods[m];
      // A fresh method each repeat: methods keep state across launches (PKA's clusters).
      auto method = sampling::make_method(mr.name, spec.cfg, spec.sampling_sets, spec.skip_functional);
      mr.last = run_sampled(spec.bench, spec.params, spec.cfg, mr.name, *method, spec.verify, nullptr);
      const auto& ls = mr.last.outcome.launches;
      if (ls.size() != out.full.launches.size())
        throw FaultError(fmt::format("{}: {}: the sampled run made {} launches, the full run {}", label, mr.name,
                                     ls.size(), out.full.launches.size()));
      const std::vector<uint64_t> ec = launch_cycles(ls);
      if (r == 0) method_first[m] = ec;
      check_same(method_first[m], ec, label + " (" + mr.name + ")", r);
      mr.sampled_seconds.push_back(mr.last.run_seconds);
      mr.speedups.push_back(mr.last.run_seconds > 0 ? out.full.run_seconds / mr.last.run_seconds : 0.0);
    }
  }
  out.full_cycles = total_cycles(out.full.launches);
  for (auto& mr : out.methods) {
    mr.estimated_cycles = total_cycles(mr.last.outcome.launches);
    mr.levels.clear();
    for (const auto& l : mr.last.outcome.launches) mr.levels.push_back(l.result.sampling ? l.result.sampling->level : "detailed");
  }
  return out;
}

sampling::RunScore score(const ComparedRun& run, size_t m) {
  const MethodRuns& mr = run.methods[m];
  return {run.full_cycles,
          mr.estimated_cycles,
          sampling::median(run.full_seconds),
          sampling::median(mr.sampled_seconds),
          sampling::median(mr.speedups),
          sampling::is_fallback(mr.levels)};
}

}  // namespace strobe::cli
