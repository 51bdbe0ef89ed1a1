// Test support: loads a kernel from build/kernels/timing, lays out its explicit arguments and
// builds the emu::Dispatch the timing model runs (the runtime is not linked into these tests).
#pragma once

#include <cstring>
#include <string>
#include <vector>

#include "emu/dispatch.h"
#include "emu/memory.h"
#include "isa/program.h"
#include "loader/code_object.h"
#include "timing/config/gpu_config.h"
#include "timing/gpu/gpu.h"

namespace strobe::timing::test {

class KernelHarness {
 public:
  KernelHarness(const std::string& file, const std::string& kernel)
      : co_(loader::CodeObject::load(std::string(STROBE_BUILD_DIR) + "/kernels/timing/" + file + ".hsaco")),
        k_(co_.kernel(kernel)),
        prog_(isa::decode_program(co_.code(k_), k_.entry_address)) {}

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
      if (a.is_hidden()) continue;
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

}  // namespace strobe::timing::test
