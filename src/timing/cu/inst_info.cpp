#include "timing/cu/inst_info.h"

#include <cstring>
#include <string_view>

#include "emu/semantics.h"

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

bool has(std::string_view s, std::string_view part) { return s.find(part) != std::string_view::npos; }

bool transcendental(std::string_view m) {
  for (std::string_view t : {"v_exp_", "v_log_", "v_rcp_", "v_rsq_", "v_sqrt_", "v_sin_", "v_cos_"})
    if (m.starts_with(t)) return true;
  return false;
}

}  // namespace

std::vector<InstInfo> build_inst_info(const isa::Program& p, const InstTimingParams& t) {
  std::vector<InstInfo> out(p.insts.size());
  for (size_t i = 0; i < p.insts.size(); ++i) {
    const isa::Inst& in = p.insts[i];
    InstInfo& o = out[i];
    const std::string_view m = emu::mnemonic(in.op);
    o.offset = p.offsets[i];
    o.size = in.size;
    using E = isa::Encoding;
    switch (in.enc) {
      case E::SOP1: case E::SOP2: case E::SOPK: case E::SOPC:
        if (m == "s_setpc_b64" || m == "s_swappc_b64") {
          // Returns and calls: always-taken jumps, timed on the branch unit like s_branch.
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
        if (m.starts_with("s_branch") || m.starts_with("s_cbranch")) {
          o.type = IssueType::Branch;
          o.busy = o.latency = t.branch;
        } else {
          o.type = IssueType::Internal;
          if (m == "s_waitcnt") o.special = Special::Waitcnt;
          else if (m == "s_nop") o.special = Special::Nop;
          else if (m == "s_sleep") o.special = Special::Sleep;
          else if (m == "s_barrier") o.special = Special::Barrier;
          else if (m.starts_with("s_endpgm")) o.special = Special::Endpgm;
          else o.special = Special::Ignored;
        }
        break;
      case E::VOP1: case E::VOP2: case E::VOPC: case E::VOP3: case E::VINTRP:
        o.type = IssueType::Valu;
        o.busy = has(m, "f64") ? t.valu_f64 : transcendental(m) ? t.valu_trans : t.valu;
        o.latency = o.busy;
        break;
      case E::DS:
        o.type = IssueType::Lds;
        o.busy = 1;
        break;
      case E::FLAT: case E::MUBUF: case E::MTBUF: case E::MIMG:
        o.type = IssueType::Vmem;
        o.busy = t.vmem;
        o.is_store = has(m, "store");
        o.is_flat = in.enc == E::FLAT;
        break;
      default:
        o.type = IssueType::Internal;
        o.special = Special::Ignored;
        break;
    }
    // Registers read.
    for (int k = 0; k < 3; ++k) add(o.src, o.nsrc, 6, in.src[k], in.src_dwords[k]);
    if (in.enc == E::SMEM) {
      add(o.src, o.nsrc, 6, in.addr, 2);
    } else {
      add(o.src, o.nsrc, 6, in.addr, in.enc == E::FLAT ? 2 : 1);
    }
    add(o.src, o.nsrc, 6, in.data0, in.dst_dwords);
    add(o.src, o.nsrc, 6, in.data1, in.dst_dwords);
    add(o.src, o.nsrc, 6, in.srsrc, 4);
    add(o.src, o.nsrc, 6, in.soffset, 1);
    if (o.type == IssueType::Valu) {
      add(o.src, o.nsrc, 6, kExecLo, 2);
      if (in.enc == E::VOP2 && (has(m, "cndmask") || has(m, "addc") || has(m, "subb"))) add(o.src, o.nsrc, 6, kVccLo, 2);
    }
    if (m == "s_cbranch_scc0" || m == "s_cbranch_scc1" || m.starts_with("s_cselect") || m.starts_with("s_addc") ||
        m.starts_with("s_subb"))
      add(o.src, o.nsrc, 6, kScc, 1);
    if (m == "s_cbranch_vccz" || m == "s_cbranch_vccnz") add(o.src, o.nsrc, 6, kVccLo, 2);
    if (m == "s_cbranch_execz" || m == "s_cbranch_execnz") add(o.src, o.nsrc, 6, kExecLo, 2);
    // Registers written by ALU instructions (memory results are ordered by s_waitcnt instead).
    if (o.type == IssueType::Valu || (o.type == IssueType::Scalar && !o.is_scalar_mem) ||
        (o.type == IssueType::Branch && in.enc == E::SOP1)) {  // s_swappc_b64 writes the return address
      add(o.dst, o.ndst, 3, in.dst, in.dst_dwords);
      add(o.dst, o.ndst, 3, in.sdst, 2);
      if (in.enc == E::VOPC && in.sdst == kNone && in.dst == kNone) add(o.dst, o.ndst, 3, kVccLo, 2);
      if (has(m, "v_cmpx")) add(o.dst, o.ndst, 3, kExecLo, 2);
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
