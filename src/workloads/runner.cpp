// The benchmark runner.
#include "workloads/runner.h"

#include <chrono>

#include <fmt/core.h>

#include "common/error.h"
#include "workloads/benchmark.h"

namespace strobe::workloads {

RunOutcome run_benchmark(RunRequest req) {
  const BenchmarkInfo* info = Registry::instance().find(req.benchmark);
  if (!info) {
    std::string names;
    for (const auto* b : Registry::instance().all()) names += (names.empty() ? "" : ", ") + b->name;
    throw InputError(fmt::format("unknown benchmark '{}' (available: {})", req.benchmark, names));
  }
  RunOutcome out;
  out.benchmark = info->name;
  out.params = resolve_params(info->name, info->params, req.params);

  using Clock = std::chrono::steady_clock;
  auto seconds_since = [](Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); };
  auto t0 = Clock::now();
  out.context = std::make_unique<Context>(req.backend ? std::move(req.backend) : std::make_unique<DeviceBackend>());
  Context& ctx = *out.context;
  ctx.device().set_memory_check(req.memory_check);
  ctx.device().set_threads(req.threads);
  if (req.prepare_device) req.prepare_device(ctx.device());
  ctx.on_launch = req.on_launch;
  ctx.corrupt_first_verify_download = req.corrupt_for_test;
  std::unique_ptr<Benchmark> bench = info->make(out.params);
  ctx.set_phase(Phase::Setup);
  bench->setup(ctx);
  out.setup_seconds = seconds_since(t0);
  auto t_run = Clock::now();
  ctx.set_phase(Phase::Run);
  bench->run(ctx);
  out.run_seconds = seconds_since(t_run);
  if (req.verify) {
    auto t_verify = Clock::now();
    ctx.set_phase(Phase::Verify);
    bench->verify(ctx);
    out.verified = true;
    out.verify_seconds = seconds_since(t_verify);
  }
  out.wall_seconds = seconds_since(t0);
  out.launches = ctx.launches();
  return out;
}

}  // namespace strobe::workloads
