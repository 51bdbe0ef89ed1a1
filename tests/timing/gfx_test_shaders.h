// Shader waves for the graphics timing tests: a few instructions of real GCN3 code, and an
// executor that sets up every wave of a stage the same way.
#pragma once

#include <cstdint>
#include <vector>

#include "emu/executor.h"
#include "emu/memory.h"
#include "isa/program.h"

namespace strobe::timing::test {

constexpr uint32_t kEndpgm = 0xBF810000;  // s_endpgm
constexpr uint32_t kVmov = 0x7E000280;    // v_mov_b32_e32 v0, 0

/// A shader of `valu` VALU instructions then s_endpgm, decoded.
inline isa::Program shader(uint32_t valu) {
  std::vector<uint32_t> words(valu, kVmov);
  words.push_back(kEndpgm);
  return isa::decode_program({reinterpret_cast<const uint8_t*>(words.data()), words.size() * 4}, 0x100000);
}

/// Sets up every wave of a stage the same way: all 64 lanes on, 4 VGPRs.
class UniformStage final : public emu::Executor {
 public:
  UniformStage(const isa::Program& p, emu::GlobalMemory& m) : emu::Executor(dispatch_of(p), m) {}
  void init_workgroup(emu::WorkGroup& wg, uint64_t, uint32_t) override {
    wg.waves.assign(1, emu::Wave{});
    emu::Wave& w = wg.waves[0];
    w.num_vgprs = 4;
    w.v.assign(4 * emu::kWaveSize, 0);
    w.set_exec(~uint64_t{0});
    w.pc = 0;
    wg.ctx = emu::ExecContext{};
    wg.ctx.memory = &memory();
    wg.ctx.program = dispatch().program;
    wg.ctx.dispatch = &dispatch();
  }

 private:
  static emu::Dispatch dispatch_of(const isa::Program& p) {
    emu::Dispatch d;
    d.kernel_name = "test shader";
    d.program = &p;
    d.grid = {64, 1, 1};
    d.local = {64, 1, 1};
    return d;
  }
};

}  // namespace strobe::timing::test
