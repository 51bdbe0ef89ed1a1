// exp and v_interp semantics, and the loop that runs one graphics wave. v_interp follows the
// GCN3 ISA: p1 computes P10 * I + P0 and p2 adds P20 * J, each a multiply then an add rounded
// separately (as v_mad_f32); v_interp_mov selects P10, P20 or P0 by its source field.
#include "emu/graphics.h"

#include <bit>
#include <cstring>

#include <fmt/format.h>

#include "emu/float_util.h"
#include "emu/semantics.h"

namespace strobe::emu {
namespace {

uint32_t bits(float f) { return std::bit_cast<uint32_t>(f); }
float value(uint32_t b) { return std::bit_cast<float>(b); }

GraphicsIo& io_of(const Wave& w, const isa::Inst& in, const ExecContext& ctx) {
  if (!ctx.gfx) fault(w, in, ctx, fmt::format("{} outside a graphics shader", mnemonic(in.op)));
  return *ctx.gfx;
}

void exp(Wave& w, const isa::Inst& in, ExecContext& ctx) {
  GraphicsIo& io = io_of(w, in, ctx);
  const int t = in.exp_target;
  // A pixel shader without colour outputs ends with a null export; its lanes are still done.
  if (t == kExpNull) {
    if (in.exp_done) io.done_lanes |= w.exec();
    return;
  }
  if ((t > kExpNull && t < kExpPos0) || (t >= kExpPos0 + 4 && t < kExpParam0))
    fault(w, in, ctx, fmt::format("export to the reserved target {}", t));
  const uint64_t exec = w.exec();
  const uint16_t src[4] = {in.src[0], in.src[1], in.src[2], in.exp_src3};
  for (int c = 0; c < 4; ++c) {
    if (!(in.exp_en >> c & 1)) continue;
    io.written[t] |= uint8_t(1u << c);
    if (io.values.empty()) continue;  // a re-run whose values were kept already (timing)
    uint32_t* out = io.lanes(t, c);
    // Compressed: two fp16 values per VGPR, channels 0-1 in the first source, 2-3 in the second.
    const uint16_t reg = in.exp_compr ? src[c / 2] : src[c];
    const uint32_t* row = w.vrow(reg - isa::opcode_field::kVgprFirst);
    for (uint64_t m = exec; m; m &= m - 1) {
      const int l = std::countr_zero(m);
      out[l] = in.exp_compr ? bits(fp::h2f((row[l] >> (16 * (c % 2))) & 0xFFFF)) : row[l];
    }
  }
  if (in.exp_done) io.done_lanes |= exec;
}

// The three parameter values {P0, P10, P20} of lane `l` for the instruction's attribute channel.
const float* params(const Wave& w, const isa::Inst& in, const ExecContext& ctx, const GraphicsIo& io, int l) {
  if (in.attr >= io.param_slots)
    fault(w, in, ctx, fmt::format("attr{} read where the primitive has {} parameter slots", in.attr, io.param_slots));
  const float* p = io.lane_params[l];
  if (!p) fault(w, in, ctx, fmt::format("lane {} has no primitive to interpolate", l));
  return p + (size_t(in.attr) * 4 + in.attr_chan) * 3;
}

template <int Which>  // 1: p1, 2: p2, 0: mov
void interp(Wave& w, const isa::Inst& in, ExecContext& ctx) {
  const GraphicsIo& io = io_of(w, in, ctx);
  uint32_t* d = w.vrow(in.dst - isa::opcode_field::kVgprFirst);
  const uint32_t* s = Which ? w.vrow(in.src[0] - isa::opcode_field::kVgprFirst) : nullptr;
  const unsigned select = in.src[0] & 3;  // v_interp_mov: 0 P10, 1 P20, 2 P0
  if (!Which && select > 2) fault(w, in, ctx, "v_interp_mov parameter select 3 is reserved");
  for (uint64_t m = w.exec(); m; m &= m - 1) {
    const int l = std::countr_zero(m);
    const float* p = params(w, in, ctx, io, l);
    if constexpr (Which == 1) {
      const float prod = p[1] * value(s[l]);
      d[l] = bits(prod + p[0]);
    } else if constexpr (Which == 2) {
      const float prod = p[2] * value(s[l]);
      d[l] = bits(prod + value(d[l]));
    } else {
      d[l] = bits(select == 0 ? p[1] : select == 1 ? p[2] : p[0]);
    }
  }
}

}  // namespace

void register_graphics(HandlerTable& t) {
  t.set(isa::Op::EXP, exp);
  t.set(isa::Op::V_INTERP_P1_F32, interp<1>);
  t.set(isa::Op::V_INTERP_P2_F32, interp<2>);
  t.set(isa::Op::V_INTERP_MOV_F32, interp<0>);
}

DispatchStats run_graphics_wave(const isa::Program& program, Wave& w, GraphicsIo& io, GlobalMemory& mem,
                                const char* shader) {
  Dispatch named;  // only its name: faults say which shader
  named.kernel_name = shader;
  named.program = &program;
  ExecContext ctx;
  ctx.memory = &mem;
  ctx.program = &program;
  ctx.dispatch = &named;
  ctx.gfx = &io;
  DispatchStats stats;
  const auto& table = handlers();
  while (!w.halted) {
    if (w.pc >= program.insts.size()) fault(w, isa::Inst{}, ctx, "program counter left the shader's code");
    const isa::Inst& in = program.insts[w.pc];
    ++stats.wave_instructions;
    stats.thread_instructions += std::popcount(w.exec());
    ctx.branch_taken = false;
    table.fn[size_t(in.op)](w, in, ctx);
    w.pc = ctx.branch_taken ? ctx.branch_target : w.pc + 1;
  }
  stats.wavefronts = 1;
  return stats;
}

}  // namespace strobe::emu
