// Captures and their replay (see capture.h).
#include "experiment/capture.h"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <memory>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "capture/replay.h"
#include "common/build_info.h"
#include "common/error.h"
#include "capture/frames.h"
#include "experiment/frames.h"
#include "experiment/passes.h"
#include "experiment/program.h"
#include "experiment/profile.h"
#include "experiment/program_env.h"
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

namespace {

/// A host program's capture: the program run once under the strobe platform, which records its
/// launches (STROBE_CAPTURE) and writes the capture at exit.
CaptureResult capture_program(const CaptureSpec& spec) {
  const auto t0 = std::chrono::steady_clock::now();
  RunSpec rs = spec.run;
  rs.mode = "functional";
  rs.capture_output = spec.output;
  ValidatedRun v = validate(std::move(rs));
  if (spec.output.empty()) throw InputError("strobe capture: give the capture file with -o FILE");
  { capture::CaptureWriter probe(spec.output); }  // fails here, before the program runs, if it cannot be written
  std::error_code ec;
  std::filesystem::remove(spec.output, ec);  // a capture left from an earlier run must not pass for this one
  ScratchDir scratch;
  const int status = run_program(v.spec, scratch.path() + "/report.json", /*stdout_to_stderr=*/true);
  if (status != 0)
    throw InputError(fmt::format("{}: exited with status {} while it was captured", v.spec.program[0], status));
  if (!std::filesystem::exists(spec.output)) {
    const std::string report = scratch.path() + "/report.json";
    if (std::filesystem::exists(launch_log_path(report)))  // it launched work, then ended without its exit handlers
      throw Error(ExitCode::Failure, missing_report_error(v.spec.program[0], report) + "; no capture was written");
    throw InputError(fmt::format("{}: made no use of the strobe OpenCL platform or HIP (no capture was written)",
                                 v.spec.program[0]));
  }
  const auto cap = capture::CaptureFile::open(spec.output);
  const capture::CaptureIndex& x = cap->index();
  CaptureResult r;
  r.path = spec.output;
  r.workload = x.workload;
  r.launches = x.launches.size();
  r.bytes = cap->size();
  for (const auto& b : x.blobs) r.pages += b.kind == capture::BlobKind::Page;
  r.peak_device_bytes = x.peak_device_bytes;
  r.run_seconds = x.capture_seconds;
  r.seconds = since(t0);
  return r;
}

/// A graphics workload's capture: its frames rendered once, in order, each recorded to run alone.
CaptureResult capture_frames(const CaptureSpec& spec) {
  const auto t0 = std::chrono::steady_clock::now();
  if (!spec.run.params.empty() || spec.run.verify || spec.recorder.gpumech)
    throw InputError("--param, --verify and --gpumech apply to benchmarks, not to gfx: workloads");
  if (spec.output.empty()) throw InputError("strobe capture: give the capture file with -o FILE");
  FrameSpec fs;
  fs.workload = spec.run.benchmark;
  fs.frames = spec.frames;
  fs.arch = spec.run.arch;
  fs.sets = spec.run.sets;
  const FrameTarget t = resolve(fs);
  capture::CaptureWriter writer(spec.output);  // fails here, before rendering, if it cannot be written
  capture::FrameRecorderOptions o;
  o.tile_size = uint32_t(t.gpu.gfx_tile_size);
  o.bin_entry_bytes = uint32_t(t.gpu.gfx_bin_entry_bytes);
  o.granule_bytes = spec.recorder.granule_bytes;
  o.history_bytes = spec.recorder.history_bytes;
  o.threads = host_threads(spec.run.threads);
  capture::CaptureIndex index = capture::record_frames(t.trace, t.ranges, o, writer);
  index.workload = spec.run.benchmark;
  index.params = {"trace=" + t.trace, "frames=" + (spec.frames.empty() ? std::string("all") : spec.frames)};
  index.build = build_commit();
  CaptureResult r;
  r.path = spec.output;
  r.workload = spec.run.benchmark;
  r.frames = index.frames.size();
  for (const capture::FrameRecord& f : index.frames) r.run_seconds += f.seconds;
  index.capture_seconds = since(t0);
  r.bytes = writer.finish(std::move(index));
  r.seconds = since(t0);
  return r;
}

}  // namespace

CaptureResult capture(const CaptureSpec& given) {
  if (given.run.benchmark.rfind("gfx:", 0) == 0) return capture_frames(given);
  if (!given.frames.empty()) throw InputError("--frames: only for gfx: workloads");
  CaptureSpec spec = given;
  // --arch and --set configure only the GPU GPUMech's representative waves are chosen on.
  if (!spec.run.sets.empty() && !spec.recorder.gpumech)
    throw InputError("--set: a capture is configuration-free; --set and --arch choose GPUMech's representative "
                     "waves with --gpumech");
  if (spec.recorder.gpumech) {
    if (spec.run.workload == Workload::Program)
      throw NotImplementedError("--gpumech for a host program's capture (GPUMech traces are saved for benchmarks)");
    spec.recorder.gpumech_config = resolve_gpu_config(spec.run.arch, spec.run.sets);
    spec.run.sets.clear();
  }
  if (spec.run.workload == Workload::Program) return capture_program(spec);
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
  sampling::profile::ProfileFile& profile = recorder->profile();
  profile.workload = benchmark_identity(info->name, resolved);
  profile.seconds = out.run_seconds;
  index.profile = writer.put(capture::BlobKind::Profile, sampling::profile::encode(profile));
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
  if (r.frames)
    return fmt::format("{} frames of {}, {:.1f} MiB, {:.2f} s ({:.2f} s rendering and recording)", r.frames, r.workload,
                       double(r.bytes) / (1 << 20), r.seconds, r.run_seconds);
  return fmt::format("{} launches of {}, {} distinct pages, {:.1f} MiB (peak device memory {:.1f} MiB), {:.2f} s "
                     "({:.2f} s running){}",
                     r.launches, r.workload, r.pages, double(r.bytes) / (1 << 20),
                     double(r.peak_device_bytes) / (1 << 20), r.seconds, r.run_seconds,
                     r.verified ? ", verified" : "");
}

namespace {

/// One pass over a capture's chosen launches on a fresh device, and what the replay cost.
struct ReplayPass {
  workloads::RunOutcome outcome;
  double restore_seconds = 0, warm_seconds = 0;
  uint64_t order_dependent = 0;  ///< verified launches left out: global atomics in timing mode
  uint64_t not_run = 0;          ///< verified launches left out: not run whole (predicted)
  std::vector<uint64_t> ran;     ///< launches whose checkpoints it read (capture::Replayer::checkpoints_read)
  uint64_t warm_launches_run = 0;   ///< launches simulated unreported before a replayed one (RunSpec::warm_launches)
  double warm_launch_seconds = 0;   ///< their share of the run's seconds
};

/// Runs `chosen` of `cap` once on a fresh device set up as `v` says, through `runner` when a
/// sampling method's pass drives it (see replay()).
ReplayPass replay_pass(const ValidatedRun& v, const capture::CaptureFile& cap, const std::vector<uint64_t>& chosen,
                       runtime::DispatchRunner* runner, const LaunchCallback& on_launch, bool fresh_memory) {
  const RunSpec& s = v.spec;
  const capture::CaptureIndex& x = cap.index();
  const auto t0 = std::chrono::steady_clock::now();
  ReplayPass out;
  // A program is named by its file, as its own run's report names it.
  out.outcome.benchmark = x.kind == "program" ? std::filesystem::path(x.workload).filename().string() : x.workload;
  out.outcome.context = std::make_unique<workloads::Context>();
  runtime::Device& dev = out.outcome.context->device();
  dev.set_memory_check(v.memory_check);
  dev.set_threads(s.threads);
  capture::Replayer rp(cap, dev);
  // Whenever a launch is simulated in detail, the caches first take the history of the
  // launches since the last one that was (all of them before it on a fresh GPU).
  uint64_t current = 0, next = 0;
  uint64_t unrun = 0;  // the first launch this GPU has not run: detailed warming starts no earlier
  auto start_gpu = [&] {
    dev.enable_timing(v.gpu);
    next = 0;
    unrun = 0;
    if (s.warm_state != "none") {
      const uint64_t window = s.warm_state == "fitted" ? rp.fitted_granules(v.gpu) : 0;
      dev.gpu()->set_before_run([&, window] {
        rp.warm(next, current, window);
        next = current + 1;
      });
    }
  };
  if (v.timing()) start_gpu();
  if (runner) dev.set_dispatch_runner(runner);
  out.outcome.setup_seconds = since(t0);

  const auto t1 = std::chrono::steady_clock::now();
  for (uint64_t i : chosen) {
    if (s.alone && v.timing() && !out.outcome.launches.empty()) start_gpu();  // a new machine
    if (v.timing() && s.warm_launches > 0) {
      // Detailed warming: the launches right before this one, unreported, so that it starts with
      // their requests in flight; the first of them warms from the history before it.
      const auto tw = std::chrono::steady_clock::now();
      for (uint64_t j = std::max(unrun, i - std::min<uint64_t>(i, s.warm_launches)); j < i; ++j) {
        rp.prepare(j, fresh_memory);
        current = j;
        rp.run(j);
        ++out.warm_launches_run;
      }
      out.warm_launch_seconds += since(tw);
    }
    rp.prepare(i, fresh_memory);
    current = i;
    unrun = i + 1;
    workloads::LaunchStat st;
    st.index = uint32_t(out.outcome.launches.size());
    st.grid = x.launches[i].dispatch.grid;
    st.local = x.launches[i].dispatch.local;
    st.result = rp.run(i);
    if (s.verify) {
      // A launch ran whole when nothing of it was predicted, or the predicted work was emulated.
      // A detailed run may perform a launch's global atomics in another order than the capture
      // did and write other (equally valid) values: those are verified in functional mode only.
      const auto& sm = st.result.sampling;
      const bool ran = !sm || sm->emulated || (sm->predicted_instructions == 0 && sm->detailed_instructions > 0);
      const bool comparable = !(v.timing() && x.launches[i].dependent_groups);
      out.order_dependent += ran && !comparable;
      out.not_run += !ran;
      if (ran && comparable && !rp.verify(i))
        throw workloads::VerificationError(fmt::format("capture {}: launch {} ({}) wrote other values than when it "
                                                       "was captured",
                                                       s.capture, i, x.launches[i].dispatch.kernel_name));
    }
    out.outcome.launches.push_back(std::move(st));
    if (on_launch) on_launch(out.outcome.launches.back(), chosen.size());
  }
  out.outcome.run_seconds = since(t1);
  out.outcome.verified = s.verify;
  out.outcome.wall_seconds = since(t0);
  out.ran = rp.checkpoints_read();
  out.restore_seconds = rp.restore_seconds();
  out.warm_seconds = rp.warm_seconds();
  return out;
}

}  // namespace

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

  ReplayPass last;
  nlohmann::json sampling_summary;
  std::vector<uint64_t> ran;
  if (s.sampling == "none") {
    last = replay_pass(v, *cap, chosen, nullptr, on_launch, fresh_memory);
    ran = last.ran;
  } else {
    // A method sees every launch of every pass, as in runs of the benchmark, and chooses what to
    // simulate; the launches it only predicts neither run nor fetch a page. The capture's profile
    // replaces a profiling pass where the method reads one.
    // Decoded only for a method that reads it, and only as far as it reads.
    const sampling::MethodInfo& info = sampling::method_info(s.sampling);
    auto method = sampling::make_method(
        s.sampling, v.gpu, s.sampling_sets, s.skip_functional,
        info.reads_profile ? capture::method_profile(*cap, uint32_t(v.gpu.line_bytes), info.profile_detail) : nullptr,
        s.capture, sampling::Warming::None, /*from_capture=*/true);
    nlohmann::json passes = nlohmann::json::array();
    uint64_t analysis = 0;
    double run_seconds = 0;
    for (int p = 0; p < method->passes(); ++p) {
      ReplayPass rp = replay_pass(v, *cap, chosen, &method->runner(p), on_launch, fresh_memory);
      method->end_pass(p);
      ran.insert(ran.end(), rp.ran.begin(), rp.ran.end());
      run_seconds += rp.outcome.run_seconds;
      passes.push_back({{"run_seconds", rp.outcome.run_seconds}, {"launches", rp.outcome.launches.size()}});
      // A method may add a pass when one ends (SimProf's rounds): only the last one's estimates count.
      if (p + 1 < method->passes()) {
        for (const auto& l : rp.outcome.launches)
          if (l.result.sampling) analysis += l.result.sampling->functional_instructions;
        continue;
      }
      last = std::move(rp);
    }
    last.outcome.run_seconds = run_seconds;
    sampling_summary = experiment::sampling_summary(last.outcome.launches, analysis);
    sampling_summary["method"] = s.sampling;
    sampling_summary["passes"] = passes;
    sampling_summary["method_summary"] = method->summary();
    sampling_summary["from_capture"] = true;
  }
  RunResult r;
  std::sort(ran.begin(), ran.end());
  ran.erase(std::unique(ran.begin(), ran.end()), ran.end());
  r.capture_ran = std::move(ran);
  r.outcome = std::move(last.outcome);
  r.outcome.wall_seconds = since(t0);
  r.report = run_report(r.outcome, s.mode, s.arch, s.sampling);
  r.report.sampling_summary = std::move(sampling_summary);
  r.report.params = params_json(x.params);
  for (size_t k = 0; k < chosen.size(); ++k) r.report.launches[k].capture_launch = int64_t(chosen[k]);
  r.report.capture = {{"file", s.capture},
                      {"workload", x.workload},
                      {"build", x.build},
                      {"launches", x.launches.size()},
                      {"replayed", chosen.size()},
                      {"warm_state", s.warm_state},
                      {"alone", s.alone},
                      {"warm_launches", s.warm_launches},
                      {"warm_launches_run", last.warm_launches_run},
                      {"warm_launch_seconds", last.warm_launch_seconds},
                      {"bytes", cap->size()},
                      {"checkpoints_read", r.capture_ran.size()},
                      {"capture_seconds", x.capture_seconds},
                      {"restore_seconds", last.restore_seconds},
                      {"warm_seconds", last.warm_seconds}};
  if (!x.kept_for.empty()) r.report.capture["kept_for"] = x.kept_for;
  if (s.verify) {
    r.report.capture["unverified_order_dependent"] = last.order_dependent;
    r.report.capture["unverified_not_run"] = last.not_run;
  }
  return r;
}

}  // namespace strobe::experiment
