// Captures and their replay (see capture.h).
#include "experiment/capture.h"

#include <chrono>
#include <memory>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "capture/replay.h"
#include "common/build_info.h"
#include "common/error.h"
#include "experiment/profile.h"
#include "workloads/benchmark.h"
#include "workloads/verify.h"

namespace strobe::experiment {

namespace {

double since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

/// The capture's "K=V" parameters (values as JSON) as the report's parameter object.
nlohmann::json params_json(const std::vector<std::string>& params) {
  nlohmann::json j = nlohmann::json::object();
  for (const auto& p : params) {
    const size_t eq = p.find('=');
    if (eq == std::string::npos) continue;
    j[p.substr(0, eq)] = nlohmann::json::parse(p.substr(eq + 1), nullptr, /*allow_exceptions=*/false);
  }
  return j;
}

}  // namespace

CaptureResult capture(const CaptureSpec& spec) {
  const auto t0 = std::chrono::steady_clock::now();
  RunSpec rs = spec.run;
  rs.mode = "functional";
  ValidatedRun v = validate(std::move(rs));
  const workloads::BenchmarkInfo* info = workloads::Registry::instance().find(v.spec.benchmark);
  if (!info) throw InputError(fmt::format("unknown benchmark '{}' (see strobe list)", v.spec.benchmark));
  const workloads::Params resolved = workloads::resolve_params(info->name, info->params, v.spec.params);
  if (spec.output.empty()) throw InputError("strobe capture: give the capture file with -o FILE");
  capture::CaptureWriter writer(spec.output);  // fails here, before the run, if it cannot be written

  std::unique_ptr<capture::Recorder> recorder;
  workloads::RunRequest req;
  req.benchmark = v.spec.benchmark;
  req.params = v.spec.params;
  req.verify = v.spec.verify;
  req.memory_check = v.memory_check;
  req.threads = v.spec.threads;
  req.prepare_device = [&](runtime::Device& dev) {
    recorder = std::make_unique<capture::Recorder>(dev, writer, spec.recorder);
  };
  workloads::RunOutcome out = workloads::run_benchmark(std::move(req));
  capture::CaptureIndex index = std::move(recorder->index());
  recorder.reset();  // before the device it records goes with `out`

  index.kind = "benchmark";
  index.workload = info->name;
  index.params = benchmark_identity(info->name, resolved).params;
  index.build = build_commit();
  index.threads = v.spec.threads;
  CaptureResult r;
  r.path = spec.output;
  r.workload = info->name;
  r.launches = index.launches.size();
  r.peak_device_bytes = index.peak_device_bytes;
  r.run_seconds = out.run_seconds;
  r.verified = out.verified;
  for (const auto& b : writer.blobs()) r.pages += b.kind == capture::BlobKind::Page;
  index.capture_seconds = since(t0);
  r.bytes = writer.finish(std::move(index));
  r.seconds = since(t0);
  return r;
}

std::string capture_summary(const CaptureResult& r) {
  return fmt::format("{} launches of {}, {} distinct pages, {:.1f} MiB (peak device memory {:.1f} MiB), {:.2f} s "
                     "({:.2f} s running){}",
                     r.launches, r.workload, r.pages, double(r.bytes) / (1 << 20),
                     double(r.peak_device_bytes) / (1 << 20), r.seconds, r.run_seconds,
                     r.verified ? ", verified" : "");
}

RunResult replay(ValidatedRun& v, const LaunchCallback& on_launch, bool fresh_memory) {
  const RunSpec& s = v.spec;
  const auto t0 = std::chrono::steady_clock::now();
  const std::unique_ptr<capture::CaptureFile> cap = capture::CaptureFile::open(s.capture);
  capture::check_definition(*cap, workloads::workload_kernel_dir());
  const capture::CaptureIndex& x = cap->index();
  if (x.launches.empty()) throw InputError(fmt::format("capture {}: it holds no launches", s.capture));
  std::vector<uint64_t> chosen;
  if (s.launches.empty()) {
    for (uint64_t i = 0; i < x.launches.size(); ++i) chosen.push_back(i);
  } else {
    chosen = capture::parse_launch_list(s.launches, x.launches.size());
  }

  RunResult r;
  r.outcome.benchmark = x.workload;
  r.outcome.context = std::make_unique<workloads::Context>();
  runtime::Device& dev = r.outcome.context->device();
  dev.set_memory_check(v.memory_check);
  dev.set_threads(s.threads);
  if (v.timing()) dev.enable_timing(v.gpu);
  capture::Replayer rp(*cap, dev);
  r.outcome.setup_seconds = since(t0);

  const auto t1 = std::chrono::steady_clock::now();
  uint64_t next = 0;  // the first launch the caches have not seen
  for (uint64_t i : chosen) {
    rp.prepare(i, fresh_memory);
    if (s.alone && v.timing() && !r.outcome.launches.empty()) {
      dev.enable_timing(v.gpu);  // a new machine: nothing of the launch replayed before
      next = 0;
    }
    if (s.warm_state == "history") rp.warm(next, i);
    workloads::LaunchStat st;
    st.index = uint32_t(r.outcome.launches.size());
    st.grid = x.launches[i].grid;
    st.local = x.launches[i].local;
    st.result = rp.run(i);
    if (s.verify && !rp.verify(i))
      throw workloads::VerificationError(fmt::format("capture {}: launch {} ({}) wrote other values than when it was "
                                                     "captured",
                                                     s.capture, i, x.launches[i].kernel));
    r.outcome.launches.push_back(std::move(st));
    if (on_launch) on_launch(r.outcome.launches.back(), chosen.size());
    next = i + 1;
  }
  r.outcome.run_seconds = since(t1);
  r.outcome.verified = s.verify;
  r.outcome.wall_seconds = since(t0);
  r.report = run_report(r.outcome, s.mode, s.arch, s.sampling);
  r.report.params = params_json(x.params);
  for (size_t k = 0; k < chosen.size(); ++k) r.report.launches[k].capture_launch = int64_t(chosen[k]);
  r.report.capture = {{"file", s.capture},
                      {"workload", x.workload},
                      {"build", x.build},
                      {"launches", x.launches.size()},
                      {"replayed", chosen.size()},
                      {"warm_state", s.warm_state},
                      {"alone", s.alone},
                      {"bytes", cap->size()},
                      {"capture_seconds", x.capture_seconds},
                      {"restore_seconds", rp.restore_seconds()},
                      {"warm_seconds", rp.warm_seconds()}};
  return r;
}

}  // namespace strobe::experiment
