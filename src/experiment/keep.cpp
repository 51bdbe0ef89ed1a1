// A capture keeping the checkpoints a selection needs (see keep.h).
#include "experiment/keep.h"

#include <chrono>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "capture/replay.h"
#include "common/error.h"
#include "experiment/capture.h"

namespace strobe::experiment {

KeepOutcome keep(const KeepSpec& spec) {
  const auto t0 = std::chrono::steady_clock::now();
  if (spec.methods.empty() && spec.launches.empty())
    throw InputError("strobe keep: name the methods whose launches to keep (--sampling) or the launches (--launches)");
  if (spec.output.empty()) throw InputError("strobe keep: give the new capture with -o FILE");
  const std::unique_ptr<capture::CaptureFile> cap = capture::CaptureFile::open(spec.run.capture);
  const uint64_t n = cap->index().launches.size();
  std::vector<bool> keep(n, false);
  KeepOutcome out;
  std::vector<std::string> parts;
  if (!spec.launches.empty()) {
    for (uint64_t i : capture::parse_launch_list(spec.launches, n)) keep[i] = true;
    parts.push_back("launches " + spec.launches);
  }
  std::string config = spec.run.arch;
  for (const std::string& s : spec.run.sets) config += " --set " + s;
  for (const std::string& m : spec.methods) {
    RunSpec rs = spec.run;
    rs.workload = Workload::Capture;
    rs.benchmark = rs.capture;
    rs.sampling = m;
    rs.mode = "timing";
    rs.mode_given = true;
    rs.launches.clear();
    rs.command = "keep";
    ValidatedRun v = validate(std::move(rs));
    const RunResult r = replay(v);
    for (uint64_t i : r.capture_ran) keep[i] = true;
    out.methods.emplace_back(m, r.capture_ran.size());
    std::string what = m;
    for (const std::string& s : spec.run.sampling_sets) what += " " + s;
    parts.push_back(what);
  }
  out.kept_for = fmt::format("{}", fmt::join(parts, ", "));
  if (!spec.methods.empty()) out.kept_for += " on " + config;  // the configuration the methods chose on
  out.file = capture::keep_launches(*cap, keep, out.kept_for, spec.output, host_threads(spec.run.threads));
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return out;
}

std::string keep_summary(const KeepOutcome& k, const std::string& output) {
  std::string per;
  for (const auto& [m, ran] : k.methods) per += fmt::format(", {} read {}", m, ran);
  return fmt::format("{}: the checkpoints of {} of {} launches ({} runnable{}), {:.1f} of {:.1f} MiB, for {} "
                     "({:.2f} s)",
                     output, k.file.chosen, k.file.launches, k.file.runnable, per,
                     double(k.file.bytes_out) / (1 << 20), double(k.file.bytes_in) / (1 << 20), k.kept_for, k.seconds);
}

}  // namespace strobe::experiment
