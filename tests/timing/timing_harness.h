// Test support: loads a kernel from build/kernels/timing, lays out its explicit arguments and
// builds the emu::Dispatch the timing model runs (the runtime is not linked into these tests);
// and the pointer-chase microbenchmark the latency tests measure with.
#pragma once

#include <cstring>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "emu/code_object_program.h"
#include "emu/dispatch.h"
#include "emu/memory.h"
#include "isa/program.h"
#include "loader/code_object.h"
#include "timing/config/gpu_config.h"
#include "timing/gpu/gpu.h"

namespace strobe::timing::test {

class KernelHarness {
 public:
  /// `file` of build/kernels/timing (gfx803), or with `gfx942` of build/gfx942-kernels, where
  /// `file` names its folder too ("timing/stream", "gfx942/mfma_peak").
  KernelHarness(const std::string& file, const std::string& kernel, bool gfx942 = false)
      : co_(loader::CodeObject::load(std::string(STROBE_BUILD_DIR) +
                                         (gfx942 ? "/gfx942-kernels/" : "/kernels/timing/") + file + ".hsaco",
                                     gfx942 ? loader::Accept::Decodable : loader::Accept::Executable)),
        k_(co_.kernel(kernel)),
        prog_(emu::decode_code_object(co_, 0)) {}

  template <typename T>
  uint64_t upload(const std::vector<T>& v) {
    const uint64_t a = mem.allocate(std::max<size_t>(v.size() * sizeof(T), 1), 256, "test buffer");
    mem.write(a, v.data(), v.size() * sizeof(T));
    return a;
  }
  uint64_t zeros(uint64_t bytes) {
    const uint64_t a = mem.allocate(std::max<uint64_t>(bytes, 1), 256, "test buffer");
    mem.fill(a, 0, bytes);
    return a;
  }
  template <typename T>
  std::vector<T> download(uint64_t addr, size_t n) {
    std::vector<T> v(n);
    mem.read(addr, v.data(), n * sizeof(T));
    return v;
  }

  /// A dispatch of the kernel; `args` are the explicit arguments in order (each value's low
  /// `size` bytes are copied). The kernarg segment stays allocated for the harness's life.
  emu::Dispatch dispatch(uint32_t grid, uint32_t local, const std::vector<uint64_t>& args) {
    std::vector<uint8_t> ka(std::max<uint32_t>(k_.kernarg_segment_size, 16), 0);
    size_t i = 0;
    for (const loader::KernelArg& a : k_.args) {
      if (a.is_hidden()) {
        // Code object v5 (the gfx942 build) reads the grid's shape from hidden arguments.
        using K = loader::ArgKind;
        const uint64_t v = a.kind == K::HiddenBlockCountX ? grid / local
                         : a.kind == K::HiddenBlockCountY || a.kind == K::HiddenBlockCountZ ? 1
                         : a.kind == K::HiddenGroupSizeX ? local
                         : a.kind == K::HiddenGroupSizeY || a.kind == K::HiddenGroupSizeZ ? 1
                         : a.kind == K::HiddenGridDims ? 1 : 0;
        std::memcpy(&ka[a.offset], &v, std::min<uint32_t>(a.size, 8));
        continue;
      }
      const uint64_t v = i < args.size() ? args[i] : 0;
      std::memcpy(&ka[a.offset], &v, std::min<uint32_t>(a.size, 8));
      ++i;
    }
    const uint64_t kernarg = mem.allocate(ka.size(), 256, "kernarg");
    mem.write(kernarg, ka.data(), ka.size());
    emu::Dispatch d;
    d.kernel_name = k_.name;
    d.program = &prog_;
    d.entry_address = k_.entry_address;
    d.kd = k_.kd;
    d.grid = {grid, 1, 1};
    d.local = {local, 1, 1};
    d.kernarg_address = kernarg;
    d.lds_bytes = k_.group_segment_fixed_size;
    d.private_bytes_per_lane = k_.kd.private_segment_fixed_size;
    return d;
  }

  const loader::KernelInfo& kernel() const { return k_; }
  emu::GlobalMemory mem;

 private:
  loader::CodeObject co_;
  const loader::KernelInfo& k_;
  isa::Program prog_;
};

/// The R9 Nano preset with `overrides` applied.
inline GpuConfig r9nano(std::initializer_list<const char*> overrides = {}) {
  GpuConfig c = load_config("r9nano");
  for (const char* o : overrides) apply_override(c, o);
  validate(c);
  return c;
}

/// Cycles of one pointer chase of `steps` over `chain` on a fresh (cold) GPU.
inline uint64_t chase_cycles(const GpuConfig& cfg, const std::vector<uint32_t>& chain, uint32_t steps) {
  KernelHarness h("pointer_chase", "chase");
  const uint64_t next = h.upload(chain);
  const uint64_t out = h.zeros(4);
  Gpu gpu(cfg);
  LaunchTiming t = gpu.run(h.dispatch(1, 1, {next, steps, out}), h.mem);
  // The functional result is right too.
  uint32_t p = 0;
  for (uint32_t i = 0; i < steps; ++i) p = chain[p];
  EXPECT_EQ(h.download<uint32_t>(out, 1)[0], p);
  return t.cycles;
}

/// A cyclic chain visiting `lines` cache lines `stride_bytes` apart.
inline std::vector<uint32_t> cyclic_chain(uint32_t lines, uint32_t stride_bytes) {
  const uint32_t stride = stride_bytes / 4;
  std::vector<uint32_t> v(size_t(lines) * stride, 0);
  for (uint32_t i = 0; i < lines; ++i) v[size_t(i) * stride] = ((i + 1) % lines) * stride;
  return v;
}

/// Per-step cycles measured as the difference of two chase lengths (launch and cold misses cancel).
inline double per_step(const GpuConfig& cfg, const std::vector<uint32_t>& chain, uint32_t n1, uint32_t n2) {
  return double(chase_cycles(cfg, chain, n2) - chase_cycles(cfg, chain, n1)) / double(n2 - n1);
}

}  // namespace strobe::timing::test
