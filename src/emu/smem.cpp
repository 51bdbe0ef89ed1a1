// SMEM semantics: scalar loads/stores through a 64-bit address or a buffer descriptor, cache
// maintenance (no functional effect) and the deterministic time counters.
#include <fmt/format.h>

#include "emu/mem_access.h"
#include "emu/operands.h"

namespace strobe::emu {

namespace {
using isa::Op;

// The byte offset. gfx803: an unsigned 20-bit immediate or an SGPR, per the encoding's IMM bit.
// gfx942: a signed 21-bit immediate (IMM), an SGPR (SOFFSET_EN or !IMM), or their sum.
uint32_t smem_offset(const Wave& w, const isa::Inst& in) {
  if (in.target == isa::Target::Gfx803) return in.smem_imm ? in.offset : (in.offset < 128 ? w.s[in.offset] : 0);
  const uint32_t imm = in.smem_imm ? in.offset : 0;
  return imm + (in.soffset < 128 ? w.s[in.soffset] : 0);
}

// s_load_dword*: sbase is an SGPR pair holding a byte address; the low two address bits are ignored.
template <unsigned N, bool Store>
void s_mem(Wave& w, const isa::Inst& in, ExecContext& ctx) {
  const uint64_t addr = (w.s64(in.addr) + smem_offset(w, in)) & ~uint64_t{3};
  mem_info_begin(ctx, MemAccessInfo::Space::Scalar, N * 4, Store, false);
  mem_info_lane(ctx, 0, addr);
  if (in.dst + N > 128) fault(w, in, ctx, "scalar memory destination range exceeds the SGPR file");
  bool ok = Store ? device_store(*ctx.memory, addr, &w.s[in.dst], N * 4) : device_load(*ctx.memory, addr, &w.s[in.dst], N * 4);
  if (!ok) past_end_access(w, in, ctx, Store ? "scalar store" : "scalar load", addr, &w.s[in.dst], N * 4, 0, Store);
}

// s_buffer_*: sbase is a V# (base[47:0], stride[61:48], num_records[95:64]); out-of-range dwords
// read zero and are not written, as the hardware's range check does.
template <unsigned N, bool Store>
void s_buffer(Wave& w, const isa::Inst& in, ExecContext& ctx) {
  if (in.addr + 4 > 128) fault(w, in, ctx, "buffer descriptor exceeds the SGPR file");
  if (in.dst + N > 128) fault(w, in, ctx, "scalar memory destination range exceeds the SGPR file");
  const uint64_t base = w.s[in.addr] | uint64_t(w.s[in.addr + 1] & 0xFFFF) << 32;
  const uint32_t stride = (w.s[in.addr + 1] >> 16) & 0x3FFF;
  const uint64_t limit = stride ? uint64_t(w.s[in.addr + 2]) * stride : w.s[in.addr + 2];
  const uint32_t off = smem_offset(w, in) & ~3u;
  mem_info_begin(ctx, MemAccessInfo::Space::Scalar, N * 4, Store, false);
  mem_info_lane(ctx, 0, base + off);
  for (unsigned i = 0; i < N; ++i) {
    const uint64_t o = uint64_t(off) + 4 * i;
    uint32_t& reg = w.s[in.dst + i];
    if (o + 4 > limit) {
      if (!Store) reg = 0;
      continue;
    }
    bool ok = Store ? device_store(*ctx.memory, base + o, &reg, 4) : device_load(*ctx.memory, base + o, &reg, 4);
    if (!ok) past_end_access(w, in, ctx, Store ? "scalar buffer store" : "scalar buffer load", base + o, &reg, 4, 0, Store);
  }
}

// A monotonically increasing, run-to-run identical clock.
void s_memtime(Wave& w, const isa::Inst& in, ExecContext& ctx) {
  ctx.memtime += 64;
  sdst64(w, in.dst, ctx.memtime);
}
void s_nop(Wave&, const isa::Inst&, ExecContext&) {}
}  // namespace

void register_smem(HandlerTable& t) {
  t.set(Op::S_LOAD_DWORD, s_mem<1, false>);
  t.set(Op::S_LOAD_DWORDX2, s_mem<2, false>);
  t.set(Op::S_LOAD_DWORDX4, s_mem<4, false>);
  t.set(Op::S_LOAD_DWORDX8, s_mem<8, false>);
  t.set(Op::S_LOAD_DWORDX16, s_mem<16, false>);
  t.set(Op::S_STORE_DWORD, s_mem<1, true>);
  t.set(Op::S_STORE_DWORDX2, s_mem<2, true>);
  t.set(Op::S_STORE_DWORDX4, s_mem<4, true>);
  t.set(Op::S_BUFFER_LOAD_DWORD, s_buffer<1, false>);
  t.set(Op::S_BUFFER_LOAD_DWORDX2, s_buffer<2, false>);
  t.set(Op::S_BUFFER_LOAD_DWORDX4, s_buffer<4, false>);
  t.set(Op::S_BUFFER_LOAD_DWORDX8, s_buffer<8, false>);
  t.set(Op::S_BUFFER_LOAD_DWORDX16, s_buffer<16, false>);
  t.set(Op::S_BUFFER_STORE_DWORD, s_buffer<1, true>);
  t.set(Op::S_BUFFER_STORE_DWORDX2, s_buffer<2, true>);
  t.set(Op::S_BUFFER_STORE_DWORDX4, s_buffer<4, true>);
  t.set(Op::S_MEMTIME, s_memtime);
  t.set(Op::S_MEMREALTIME, s_memtime);
  for (Op op : {Op::S_DCACHE_INV, Op::S_DCACHE_WB, Op::S_DCACHE_INV_VOL, Op::S_DCACHE_WB_VOL, Op::S_ATC_PROBE,
                Op::S_ATC_PROBE_BUFFER})
    t.set(op, s_nop);
}

}  // namespace strobe::emu
