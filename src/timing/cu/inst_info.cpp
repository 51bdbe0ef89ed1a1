#include "timing/cu/inst_info.h"

#include "isa/matrix_ops.h"
#include "isa/op_traits.h"

namespace strobe::timing {

namespace {

using namespace isa::opcode_field;

bool is_register(uint16_t code) {
  return code != kNone && (code <= kExecHi || code == kScc || code == kVccz || code == kExecz || code >= kVgprFirst);
}

void add(RegRange* r, uint8_t& n, uint8_t cap, uint16_t code, uint32_t dwords) {
  if (!is_register(code) || n == cap) return;
  // vccz/execz read vcc/exec
  if (code == kVccz) code = kVccLo, dwords = 2;
  if (code == kExecz) code = kExecLo, dwords = 2;
  r[n++] = RegRange{code, uint8_t(dwords ? dwords : 1)};
}

/// The instruction-buffer action of a SOPP that is not a branch.
Special sopp_special(isa::Control c) {
  switch (c) {
    case isa::Control::Waitcnt: return Special::Waitcnt;
    case isa::Control::Nop: return Special::Nop;
    case isa::Control::Sleep: return Special::Sleep;
    case isa::Control::Barrier: return Special::Barrier;
    case isa::Control::Endpgm: return Special::Endpgm;
    // s_setprio, s_sendmsg, s_trap, s_icache_inv, perf levels, ...: the model has no unit,
    // priority or message path for them, so they retire in the buffer at no cost.
    default: return Special::Untimed;
  }
}

bool is_jump(isa::Control c) {
  return c == isa::Control::Branch || c == isa::Control::Call || c == isa::Control::Return;
}

}  // namespace

std::vector<InstInfo> build_inst_info(const isa::Program& p, const InstTimingParams& t) {
  std::vector<InstInfo> out(p.insts.size());
  for (size_t i = 0; i < p.insts.size(); ++i) {
    const isa::Inst& in = p.insts[i];
    InstInfo& o = out[i];
    const isa::OpTraits& tr = isa::traits(in.op);
    o.offset = p.offsets[i];
    o.size = in.size;
    using E = isa::Encoding;
    switch (in.enc) {
      case E::SOP1: case E::SOP2: case E::SOPK: case E::SOPC:
        if (is_jump(tr.control)) {
          // Returns and calls (and s_rfe and fork/join, which emu does not implement):
          // always-taken jumps, timed on the branch unit like s_branch.
          o.type = IssueType::Branch;
          o.busy = o.latency = t.branch;
        } else {
          o.type = IssueType::Scalar;
          o.busy = o.latency = t.salu;
        }
        break;
      case E::SMEM:
        o.type = IssueType::Scalar;
        o.is_scalar_mem = true;
        o.busy = t.smem;
        break;
      case E::SOPP:
        o.simm16 = in.simm16;
        if (is_jump(tr.control)) {
          o.type = IssueType::Branch;
          o.busy = o.latency = t.branch;
        } else {
          o.type = IssueType::Internal;
          o.special = sopp_special(tr.control);
        }
        break;
      case E::VOP1: case E::VOP2: case E::VOPC: case E::VOP3: case E::VOP3P: case E::VINTRP:
        o.type = IssueType::Valu;
        o.busy = tr.has(isa::kF64)             ? t.valu_f64
                 : tr.has(isa::kTranscendental) ? t.valu_trans
                 : tr.has(isa::kQuarterInt)     ? t.valu_quarter_int
                 : tr.has(isa::kInt64)          ? t.valu_int64
                 : tr.has(isa::kFma32)          ? t.valu_fma32
                                                : t.valu;
        o.latency = o.busy;
        if (const isa::MatrixShape* m = isa::matrix_shape(in.op)) {
          // A matrix instruction issues in one VALU pass and then holds the SIMD's matrix core;
          // independent VALU work issues meanwhile (CDNA3's co-execution), and D is readable
          // when the matrix core is done.
          o.busy = t.valu;
          o.matrix = o.latency = m->cycles;
        }
        break;
      case E::DS:
        o.type = IssueType::Lds;
        o.busy = 1;
        break;
      case E::FLAT: case E::GLOBAL: case E::SCRATCH: case E::MUBUF: case E::MTBUF: case E::MIMG:
        // gfx9's GLOBAL and SCRATCH segments count in vmcnt only; FLAT also in lgkmcnt.
        o.type = IssueType::Vmem;
        o.busy = t.vmem;
        o.is_store = tr.access == isa::MemAccess::Store;
        o.is_flat = in.enc == E::FLAT;
        break;
      case E::EXP:
        // Graphics shaders export positions, parameters and colours over the export bus; its
        // data leaves the VGPRs `busy` cycles later (expcnt). A compute kernel's EXP faults.
        o.type = IssueType::Export;
        o.busy = t.exp;
        break;
      case E::Invalid:
        // The decoder rejects invalid words before a program exists; kept total for the switch.
        o.type = IssueType::Internal;
        o.special = Special::Untimed;
        break;
    }
    // Registers read.
    for (int k = 0; k < 3; ++k) add(o.src, o.nsrc, 6, in.src[k], in.src_dwords[k]);
    if (in.enc == E::SMEM) {
      add(o.src, o.nsrc, 6, in.addr, 2);
    } else {
      // A 64-bit VGPR address (FLAT; GLOBAL without an SGPR base), else a 32-bit offset.
      const bool wide = in.enc == E::FLAT || (in.enc == E::GLOBAL && in.saddr == kNone);
      add(o.src, o.nsrc, 6, in.addr, wide ? 2 : 1);
      if (in.enc == E::GLOBAL) add(o.src, o.nsrc, 6, in.saddr, 2);
      if (in.enc == E::SCRATCH) add(o.src, o.nsrc, 6, in.saddr, 1);
    }
    add(o.src, o.nsrc, 6, in.data0, in.dst_dwords);
    add(o.src, o.nsrc, 6, in.data1, in.dst_dwords);
    add(o.src, o.nsrc, 6, in.srsrc, 4);
    add(o.src, o.nsrc, 6, in.soffset, 1);
    if (o.type == IssueType::Valu) {
      add(o.src, o.nsrc, 6, kExecLo, 2);
      if (in.enc == E::VOP2 && tr.has(isa::kReadsVccE32)) add(o.src, o.nsrc, 6, kVccLo, 2);
    }
    if (tr.has(isa::kReadsScc)) add(o.src, o.nsrc, 6, kScc, 1);
    // v_div_fmas also reads VCC, but the model never tracked it; only the branches are added.
    if (tr.has(isa::kReadsVcc) && in.enc == E::SOPP) add(o.src, o.nsrc, 6, kVccLo, 2);
    if (tr.has(isa::kReadsExec)) add(o.src, o.nsrc, 6, kExecLo, 2);
    // Registers written by ALU instructions (memory results are ordered by s_waitcnt instead).
    if (o.type == IssueType::Valu || (o.type == IssueType::Scalar && !o.is_scalar_mem) ||
        (o.type == IssueType::Branch && in.enc == E::SOP1)) {  // s_swappc_b64 writes the return address
      add(o.dst, o.ndst, 3, in.dst, in.dst_dwords);
      add(o.dst, o.ndst, 3, in.sdst, 2);
      // Only VOPC's implicit VCC is scoreboarded: VOP2 carry-outs into VCC (v_add_u32_e32, ...)
      // never were; tracking them is a model change, not part of reading traits.
      if (in.enc == E::VOPC && tr.has(isa::kWritesVccE32) && in.sdst == kNone && in.dst == kNone)
        add(o.dst, o.ndst, 3, kVccLo, 2);
      if (tr.has(isa::kWritesExec)) add(o.dst, o.ndst, 3, kExecLo, 2);
      if (o.type == IssueType::Scalar) add(o.dst, o.ndst, 3, kScc, 1);  // branches leave SCC alone
    }
    o.ends_bb = o.type == IssueType::Branch || o.special == Special::Barrier || o.special == Special::Endpgm;
  }
  return out;
}

std::vector<uint8_t> basic_block_ends(const isa::Program& p) {
  const std::vector<InstInfo> info = build_inst_info(p, InstTimingParams{});
  std::vector<uint8_t> ends(info.size());
  for (size_t i = 0; i < info.size(); ++i) ends[i] = info[i].ends_bb;
  return ends;
}

}  // namespace strobe::timing
