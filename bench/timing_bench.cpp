// Speed of the detailed timing model: wave instructions simulated per second of host time, next
// to the functional emulator on the same kernel (the ratio is the cost of timing). Run:
// build/bench/timing_bench
#include <benchmark/benchmark.h>

#include <cstring>
#include <memory>
#include <string>

#include "emu/executor.h"
#include "emu/memory.h"
#include "isa/program.h"
#include "loader/code_object.h"
#include "timing/config/gpu_config.h"
#include "timing/gpu/gpu.h"

namespace {

using namespace strobe;

struct Kernel {
  loader::CodeObject co;
  const loader::KernelInfo& k;
  isa::Program prog;
  Kernel(const std::string& file, const std::string& name)
      : co(loader::CodeObject::load(std::string(STROBE_KERNEL_DIR) + "/timing/" + file + ".hsaco")),
        k(co.kernel(name)),
        prog(isa::decode_program(co.code(k), k.entry_address)) {}
  emu::Dispatch dispatch(emu::GlobalMemory& mem, uint32_t grid, uint32_t local, std::vector<uint64_t> args) {
    std::vector<uint8_t> ka(std::max<uint32_t>(k.kernarg_segment_size, 16), 0);
    size_t i = 0;
    for (const auto& a : k.args)
      if (!a.is_hidden()) std::memcpy(&ka[a.offset], &args[i++], std::min<uint32_t>(a.size, 8));
    uint64_t kernarg = mem.allocate(ka.size(), 256, "kernarg");
    mem.write(kernarg, ka.data(), ka.size());
    emu::Dispatch d;
    d.kernel_name = k.name;
    d.program = &prog;
    d.entry_address = k.entry_address;
    d.kd = k.kd;
    d.grid = {grid, 1, 1};
    d.local = {local, 1, 1};
    d.kernarg_address = kernarg;
    d.lds_bytes = k.group_segment_fixed_size;
    return d;
  }
};

/// Runs the kernel once per iteration, detailed (a fresh GPU each time, built outside the timed
/// region) or functional, and reports wave instructions per second of host time.
void run(benchmark::State& state, bool timing, const char* file, const char* name, uint32_t items, uint32_t local,
         uint64_t in_bytes, uint32_t param) {
  Kernel k(file, name);
  emu::GlobalMemory mem;
  const uint64_t in = mem.allocate(in_bytes, 256, "in");
  const uint64_t out = mem.allocate(uint64_t(items) * 16, 256, "out");
  timing::GpuConfig cfg = timing::load_config("r9nano");
  std::vector<uint64_t> args = in_bytes ? std::vector<uint64_t>{in, out, param} : std::vector<uint64_t>{out, param};
  const emu::Dispatch d = k.dispatch(mem, items, local, args);
  uint64_t insts = 0, cycles = 0;
  for (auto _ : state) {
    if (!timing) {
      insts += emu::run_dispatch(d, mem).wave_instructions;
      continue;
    }
    state.PauseTiming();
    auto gpu = std::make_unique<timing::Gpu>(cfg);
    state.ResumeTiming();
    timing::LaunchTiming t = gpu->run(d, mem);
    insts += t.wave_instructions;
    cycles += t.cycles;
    state.PauseTiming();
    gpu.reset();
    state.ResumeTiming();
  }
  state.counters["wave_insts_per_s"] = benchmark::Counter(double(insts), benchmark::Counter::kIsRate);
  if (timing) state.counters["sim_cycles_per_s"] = benchmark::Counter(double(cycles), benchmark::Counter::kIsRate);
}

constexpr uint32_t kItems = 64 * 8 * 64;  // 8 waves per CU of the R9 Nano
void fma(benchmark::State& s, bool timing) { run(s, timing, "valu_peak", "fma_peak", kItems, 256, 0, 64); }
void stream(benchmark::State& s, bool timing) {
  run(s, timing, "stream", "stream_read", kItems, 256, uint64_t(kItems) * 16 * 16, 16);
}
void BM_TimingFmaPeak(benchmark::State& s) { fma(s, true); }
void BM_FunctionalFmaPeak(benchmark::State& s) { fma(s, false); }
void BM_TimingStream(benchmark::State& s) { stream(s, true); }
void BM_FunctionalStream(benchmark::State& s) { stream(s, false); }
BENCHMARK(BM_TimingFmaPeak)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_FunctionalFmaPeak)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_TimingStream)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_FunctionalStream)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
