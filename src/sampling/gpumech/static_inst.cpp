#include "sampling/gpumech/static_inst.h"

#include "isa/op_traits.h"

namespace strobe::sampling::gpumech {

namespace {

using namespace isa::opcode_field;

void add(timing::RegRange* r, uint8_t& n, uint32_t cap, uint16_t code, uint32_t dwords) {
  if (code == kNone || n == cap) return;
  for (uint8_t i = 0; i < n; ++i)
    if (r[i].first == code && r[i].count >= dwords) return;  // already listed
  r[n++] = timing::RegRange{code, uint8_t(dwords ? dwords : 1)};
}

bool is_saveexec(isa::Op op) {
  switch (op) {
    case isa::Op::S_AND_SAVEEXEC_B64: case isa::Op::S_OR_SAVEEXEC_B64: case isa::Op::S_XOR_SAVEEXEC_B64:
    case isa::Op::S_ANDN2_SAVEEXEC_B64: case isa::Op::S_ORN2_SAVEEXEC_B64: case isa::Op::S_NAND_SAVEEXEC_B64:
    case isa::Op::S_NOR_SAVEEXEC_B64: case isa::Op::S_XNOR_SAVEEXEC_B64:
      return true;
    default: return false;
  }
}

bool reads_m0(const isa::Inst& in) {
  switch (in.op) {
    case isa::Op::S_MOVRELS_B32: case isa::Op::S_MOVRELS_B64: case isa::Op::S_MOVRELD_B32:
    case isa::Op::S_MOVRELD_B64: case isa::Op::V_MOVRELD_B32: case isa::Op::V_MOVRELS_B32:
    case isa::Op::V_MOVRELSD_B32:
      return true;
    default:
      // gfx8 clamps every LDS address against M0; interpolation reads its parameter base there.
      return (in.enc == isa::Encoding::DS && !in.gds) || in.enc == isa::Encoding::VINTRP;
  }
}

InstClass class_of(const isa::Inst& in, const timing::InstInfo& info) {
  if (info.special == timing::Special::Waitcnt) return InstClass::Waitcnt;
  if (info.is_scalar_mem) return InstClass::ScalarMemory;
  if (info.type == timing::IssueType::Vmem) return InstClass::VectorMemory;
  if (info.type == timing::IssueType::Lds) return InstClass::Lds;
  return InstClass::Compute;
}

MemAccess access_of(isa::MemAccess a) {
  switch (a) {
    case isa::MemAccess::Load: return MemAccess::Read;
    case isa::MemAccess::Store: return MemAccess::Write;
    case isa::MemAccess::Atomic: return MemAccess::Atomic;
    case isa::MemAccess::None: break;
  }
  return MemAccess::None;
}

}  // namespace

WaitCounts decode_waitcnt(uint16_t simm16) {
  const uint8_t vm = simm16 & 0xF, lgkm = (simm16 >> 8) & 0xF;
  return WaitCounts{vm == 0xF ? kNoWait : vm, lgkm == 0xF ? kNoWait : lgkm};
}

RegisterUse register_use(const isa::Inst& in, const timing::InstInfo& info) {
  RegisterUse u;
  constexpr uint32_t R = RegisterUse::kMaxReads, W = RegisterUse::kMaxWrites;
  for (uint8_t i = 0; i < info.nsrc; ++i) add(u.reads, u.nreads, R, info.src[i].first, info.src[i].count);
  for (uint8_t i = 0; i < info.ndst; ++i) add(u.writes, u.nwrites, W, info.dst[i].first, info.dst[i].count);
  const isa::OpTraits& tr = isa::traits(in.op);
  const bool vector = info.type == timing::IssueType::Valu || info.type == timing::IssueType::Vmem ||
                      info.type == timing::IssueType::Lds;
  if (vector) add(u.reads, u.nreads, R, kExecLo, 2);
  if (tr.has(isa::kReadsVcc)) add(u.reads, u.nreads, R, kVccLo, 2);
  if (reads_m0(in)) add(u.reads, u.nreads, R, kM0, 1);
  if (in.enc == isa::Encoding::VOP2 && tr.has(isa::kWritesVccE32)) add(u.writes, u.nwrites, W, kVccLo, 2);
  if (is_saveexec(in.op)) add(u.writes, u.nwrites, W, kExecLo, 2);
  // Memory results: the detailed model orders them through s_waitcnt instead of its scoreboard,
  // but they are what a consumer waits for. A scalar store's sdata operand is a source.
  if (info.type == timing::IssueType::Vmem || info.type == timing::IssueType::Lds || info.is_scalar_mem) {
    if (info.is_scalar_mem && tr.access == isa::MemAccess::Store) {
      add(u.reads, u.nreads, R, in.dst, in.dst_dwords);
    } else if (in.dst != kNone && in.dst_dwords > 0) {
      add(u.writes, u.nwrites, W, in.dst, in.dst_dwords);
    }
  }
  return u;
}

std::vector<StaticInst> static_insts(const isa::Program& p) {
  const std::vector<timing::InstInfo> info = timing::build_inst_info(p, timing::InstTimingParams{});
  std::vector<StaticInst> out(p.insts.size());
  for (size_t i = 0; i < out.size(); ++i) {
    const isa::Inst& in = p.insts[i];
    StaticInst& s = out[i];
    s.cls = class_of(in, info[i]);
    if (s.cls == InstClass::VectorMemory || s.cls == InstClass::ScalarMemory || s.cls == InstClass::Lds)
      s.access = access_of(isa::traits(in.op).access);
    if (s.cls == InstClass::Waitcnt) s.wait = decode_waitcnt(info[i].simm16);
    s.regs = register_use(in, info[i]);
  }
  return out;
}

}  // namespace strobe::sampling::gpumech
