// Functional-emulation speed: wavefront instructions per second, for a compute-bound kernel (tiled
// matmul) and a memory-bound one (streaming vecadd), on one host thread and on two (the second
// argument; work-groups on threads, emu/workgroup_threads.cpp), so the scaling is a ratio taken in
// one run. The third argument runs the same kernel built for gfx942 by clang-19 (1) instead of
// gfx803 (0), so the two instruction sets' rates are compared in one run. Run: build/bench/emu_bench
#include <benchmark/benchmark.h>

#include <cmath>
#include <string>
#include <vector>

#include "runtime/device.h"

namespace {

using strobe::runtime::ArgValue;

/// The test kernel `name` built for gfx803 (`gfx942` false) or gfx942.
std::string kernel_path(const char* name, bool gfx942) {
  return std::string(gfx942 ? STROBE_GFX942_KERNEL_DIR : STROBE_KERNEL_DIR) + "/tests/" + name + ".hsaco";
}

/// A device for the benchmark's thread count (argument 1) and instruction set (argument 2).
void configure(strobe::runtime::Device& dev, const benchmark::State& state) {
  dev.set_threads(uint32_t(state.range(1)));
  if (state.range(2)) dev.set_isa(strobe::isa::Target::Gfx942);
}

void BM_FunctionalMatmul(benchmark::State& state) {
  const uint32_t n = uint32_t(state.range(0));
  strobe::runtime::Device dev;
  configure(dev, state);
  auto& m = dev.load(kernel_path("matmul_tiled", state.range(2)));
  std::vector<float> a(size_t(n) * n, 1.0f);
  uint64_t A = dev.malloc(a.size() * 4), B = dev.malloc(a.size() * 4), C = dev.malloc(a.size() * 4);
  dev.copy_to_device(A, a.data(), a.size() * 4);
  dev.copy_to_device(B, a.data(), a.size() * 4);
  strobe::runtime::LaunchConfig cfg;
  cfg.grid = {n, n, 1};
  cfg.local = {16, 16, 1};
  cfg.dims = 2;
  cfg.args = {ArgValue::buffer(A), ArgValue::buffer(B), ArgValue::buffer(C), ArgValue::scalar(n), ArgValue::scalar(n),
              ArgValue::scalar(n)};
  uint64_t insts = 0;
  for (auto _ : state) insts += dev.launch(m, "matmul_tiled", cfg).stats.wave_instructions;
  state.counters["wave_insts_per_s"] = benchmark::Counter(double(insts), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_FunctionalMatmul)->Args({256, 1, 0})->Args({256, 2, 0})->Args({256, 1, 1})->Unit(benchmark::kMillisecond)->MinTime(2.0)->UseRealTime();

void BM_FunctionalVecadd(benchmark::State& state) {
  const uint32_t n = uint32_t(state.range(0));
  strobe::runtime::Device dev;
  configure(dev, state);
  auto& m = dev.load(kernel_path("vecadd", state.range(2)));
  std::vector<float> a(n, 1.0f);
  uint64_t A = dev.malloc(n * 4ull), B = dev.malloc(n * 4ull), C = dev.malloc(n * 4ull);
  dev.copy_to_device(A, a.data(), n * 4ull);
  dev.copy_to_device(B, a.data(), n * 4ull);
  strobe::runtime::LaunchConfig cfg;
  cfg.grid = {n, 1, 1};
  cfg.local = {256, 1, 1};
  cfg.args = {ArgValue::buffer(A), ArgValue::buffer(B), ArgValue::buffer(C), ArgValue::scalar(n)};
  uint64_t insts = 0;
  for (auto _ : state) insts += dev.launch(m, "vecadd", cfg).stats.wave_instructions;
  state.counters["wave_insts_per_s"] = benchmark::Counter(double(insts), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_FunctionalVecadd)->Args({1 << 22, 1, 0})->Args({1 << 22, 2, 0})->Args({1 << 22, 1, 1})->Unit(benchmark::kMillisecond)->MinTime(2.0)->UseRealTime();

// Reference runs on the same machine: the CPU references of the same kernels, compiled natively.
// The ratio emulated/native time is stable where absolute rates move with machine load.
void BM_NativeReferenceMatmul(benchmark::State& state) {
  const uint32_t n = uint32_t(state.range(0));
  std::vector<float> a(size_t(n) * n, 1.0f), b(a), c(a.size());
  for (auto _ : state) {
    for (uint32_t r = 0; r < n; ++r)
      for (uint32_t col = 0; col < n; ++col) {
        float acc = 0;
        for (uint32_t k = 0; k < n; ++k) acc = std::fma(a[r * n + k], b[k * n + col], acc);
        c[r * n + col] = acc;
      }
    benchmark::DoNotOptimize(c.data());
  }
}
BENCHMARK(BM_NativeReferenceMatmul)->Arg(256)->Unit(benchmark::kMillisecond)->MinTime(2.0);

void BM_NativeReferenceVecadd(benchmark::State& state) {
  const uint32_t n = uint32_t(state.range(0));
  std::vector<float> a(n, 1.0f), b(a), c(n);
  for (auto _ : state) {
    for (uint32_t i = 0; i < n; ++i) c[i] = a[i] + b[i];
    benchmark::DoNotOptimize(c.data());
  }
}
BENCHMARK(BM_NativeReferenceVecadd)->Arg(1 << 22)->Unit(benchmark::kMillisecond)->MinTime(2.0);

}  // namespace

BENCHMARK_MAIN();
