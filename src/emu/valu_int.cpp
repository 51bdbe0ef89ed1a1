// Integer vector ALU operations (16, 24, 32 and 64 bit): arithmetic with carries, multiplies,
// shifts, bit-field ops, min/max/med3, SAD family, byte permute and packing.
#include <algorithm>
#include <bit>

#include "emu/valu_exec.h"

namespace strobe::emu::valu {
namespace {

using isa::Op;

inline int32_t sext24(uint32_t x) { return int32_t(x << 8) >> 8; }
inline uint32_t absdiff(uint32_t a, uint32_t b) { return a > b ? a - b : b - a; }

/// Sum of absolute byte differences of a and b plus c (v_sad_u8).
inline uint32_t sad_u8(uint32_t a, uint32_t b, uint32_t c) {
  for (int i = 0; i < 32; i += 8) c += absdiff((a >> i) & 0xFF, (b >> i) & 0xFF);
  return c;
}
/// Masked SAD: bytes where the reference b is 0 do not count (v_msad_u8).
inline uint32_t msad_u8(uint32_t a, uint32_t b, uint32_t c) {
  for (int i = 0; i < 32; i += 8)
    if ((b >> i) & 0xFF) c += absdiff((a >> i) & 0xFF, (b >> i) & 0xFF);
  return c;
}
/// One byte of v_perm_b32: selector over the 8 bytes of {hi, lo} plus sign-fill/constant codes.
inline uint32_t perm_byte(uint64_t data, uint32_t sel) {
  sel &= 0xFF;
  if (sel >= 13) return 0xFF;
  if (sel == 12) return 0;
  if (sel >= 8) return ((data >> (16 * (sel - 8) + 15)) & 1) ? 0xFF : 0;
  return uint32_t(data >> (8 * sel)) & 0xFF;
}
inline uint32_t sat_u16(uint32_t x) { return x > 0xFFFF ? 0xFFFF : x; }
inline uint32_t sat_i16(int32_t x) { return uint32_t(std::clamp(x, -32768, 32767)) & 0xFFFF; }
inline uint32_t ffbh_u32(uint32_t x) { return x ? uint32_t(std::countl_zero(x)) : ~0u; }

#define H(OP, ...) t.set(Op::OP, [](Wave& w, const isa::Inst& in, ExecContext& ctx) { __VA_ARGS__; })
#define UN32(OP, ...) H(OP, run<K::B32, K::B32>(w, in, [](uint32_t a) -> uint32_t { return __VA_ARGS__; }))
#define BIN32(OP, ...) \
  H(OP, run<K::B32, K::B32, K::B32>(w, in, [](uint32_t a, uint32_t b) -> uint32_t { return __VA_ARGS__; }))
#define TRI32(OP, ...)                                                                              \
  H(OP, run<K::B32, K::B32, K::B32, K::B32>(w, in, [](uint32_t a, uint32_t b, uint32_t c) -> uint32_t { \
      return __VA_ARGS__;                                                                           \
    }))
#define BIN16(OP, ...) \
  H(OP, run<K::B16, K::B16, K::B16>(w, in, [](uint32_t a, uint32_t b) -> uint32_t { return __VA_ARGS__; }))

/// add/sub family: r = x + y + cin computed in 64 bits; carry/borrow out per lane to VCC/sdst.
/// Swap and Sub select which source is subtracted; Cin says whether a carry-in mask is read.
template <bool Sub, bool Rev, bool Cin>
void addsub_u32(Wave& w, const isa::Inst& in, ExecContext&) {
  const uint64_t ci = Cin ? (in.enc == isa::Encoding::VOP3 ? mask_operand(w, in, in.src[2]) : w.vcc()) : 0;
  const bool sat = in.clamp;
  uint64_t co = 0;
  run_lane<K::B32, K::B32, K::B32>(w, in, [&](unsigned l, uint32_t a, uint32_t b) -> uint32_t {
    if (Rev) std::swap(a, b);
    const uint64_t c = (ci >> l) & 1;
    uint64_t r = Sub ? uint64_t(a) - b - c : uint64_t(a) + b + c;
    const uint64_t out = (r >> 32) & 1;  // carry (add) or borrow (sub)
    co |= out << l;
    if (sat && out) return Sub ? 0u : ~0u;
    return uint32_t(r);
  });
  write_mask(w, carry_dst(in), co);
}

/// v_mad_u64_u32 / v_mad_i64_i32: 65-bit result; bit 64 goes to sdst.
template <bool Signed>
void mad64(Wave& w, const isa::Inst& in, ExecContext&) {
  uint64_t co = 0;
  run_lane<K::B64, K::B32, K::B32, K::B64>(w, in, [&](unsigned l, uint32_t a, uint32_t b, uint64_t c) -> uint64_t {
    unsigned __int128 r;
    if (Signed) r = (unsigned __int128)(__int128(int64_t(int32_t(a)) * int64_t(int32_t(b))) + __int128(int64_t(c)));
    else r = (unsigned __int128)(uint64_t(a) * uint64_t(b)) + c;
    co |= uint64_t(r >> 64 & 1) << l;
    return uint64_t(r);
  });
  write_mask(w, carry_dst(in), co);
}

/// qsad/mqsad_pk_u16_u8: four 16-bit SADs of S1 against S0 shifted by 0..3 bytes.
template <bool Masked>
void qsad_pk(Wave& w, const isa::Inst& in, ExecContext&) {
  run<K::B64, K::B64, K::B32, K::B64>(w, in, [](uint64_t a, uint32_t b, uint64_t c) -> uint64_t {
    uint64_t r = 0;
    for (int i = 0; i < 4; ++i) {
      uint32_t acc = uint32_t(c >> (16 * i)) & 0xFFFF;
      uint32_t s = Masked ? msad_u8(uint32_t(a >> (8 * i)), b, acc) : sad_u8(uint32_t(a >> (8 * i)), b, acc);
      r |= uint64_t(s & 0xFFFF) << (16 * i);
    }
    return r;
  });
}

/// v_mqsad_u32_u8: like mqsad_pk but 32-bit accumulators, so src2 and dst are four dwords.
void mqsad_u32(Wave& w, const isa::Inst& in, ExecContext& ctx) {
  if (in.ext != isa::VopExt::None) unsupported(w, in, ctx, "SDWA/DPP not valid");
  Frame fr;
  static constexpr K kinds[3] = {K::B64, K::B32, K::None};
  prepare(w, in, fr, kinds, in.src);
  uint32_t acc[4][kWaveSize];
  const bool vsrc2 = is_vgpr(in.src[2]);
  for (int d = 0; d < 4; ++d) {
    for (uint32_t l = 0; l < fr.n; ++l)
      acc[d][l] = vsrc2 ? w.vrow(vgpr_index(in.src[2]) + d)[l] : uint32_t(scalar_source(w, in, uint16_t(in.src[2] + d), OperandType::B32));
  }
  uint32_t* dst = w.vrow(vgpr_index(in.dst));
  for (uint64_t m = fr.wmask; m; m &= m - 1) {
    unsigned l = unsigned(std::countr_zero(m));
    uint64_t a = rd<K::B64>(fr.s[0], l);
    uint32_t b = rd<K::B32>(fr.s[1], l);
    for (int d = 0; d < 4; ++d) dst[d * kWaveSize + l] = msad_u8(uint32_t(a >> (8 * d)), b, acc[d][l]);
  }
}

/// The sum of N products of Bits-wide lanes of a and b (signed or not), exact in 64 bits.
template <int N, int Bits, bool Signed>
inline int64_t dot(uint32_t a, uint32_t b) {
  int64_t s = 0;
  for (int k = 0; k < N; ++k) {
    const uint32_t ua = (a >> (Bits * k)) & ((1u << Bits) - 1), ub = (b >> (Bits * k)) & ((1u << Bits) - 1);
    if constexpr (Signed) {
      const int32_t sa = int32_t(ua << (32 - Bits)) >> (32 - Bits), sb = int32_t(ub << (32 - Bits)) >> (32 - Bits);
      s += int64_t(sa) * sb;
    } else {
      s += int64_t(ua) * ub;
    }
  }
  return s;
}

/// The integer dot products: D = dot(S0, S1) + S2 (the VOP2 "c" forms accumulate into D), which
/// CLAMP saturates to the result's range and which otherwise wraps. Only whole-dword operands
/// (op_sel 0, op_sel_hi all ones, as compilers emit them) are executed.
template <int N, int Bits, bool Signed, bool Acc>
void dot_int(Wave& w, const isa::Inst& in, ExecContext& ctx) {
  if (in.enc == isa::Encoding::VOP3P && (in.op_sel != 0 || (in.op_sel_hi & 3) != 3))
    fault(w, in, ctx, std::string("not implemented: ") + op_text(in.op) + " with op_sel selecting halves");
  const uint16_t codes[3] = {in.src[0], in.src[1], Acc ? in.dst : in.src[2]};
  const bool sat = in.clamp;
  run_codes<K::B32, K::B32, K::B32, K::B32>(w, in, codes, [sat](uint32_t a, uint32_t b, uint32_t c) -> uint32_t {
    const int64_t r = dot<N, Bits, Signed>(a, b) + (Signed ? int64_t(int32_t(c)) : int64_t(c));
    if (!sat) return uint32_t(r);
    return Signed ? uint32_t(int32_t(std::clamp<int64_t>(r, INT32_MIN, INT32_MAX)))
                  : uint32_t(std::clamp<int64_t>(r, 0, UINT32_MAX));
  });
}

}  // namespace

void register_valu_int(HandlerTable& t) {
  // ---- 24-bit multiplies
  BIN32(V_MUL_I32_I24, uint32_t(int64_t(sext24(a)) * sext24(b)));  // 48-bit product, low half
  BIN32(V_MUL_HI_I32_I24, uint32_t((int64_t(sext24(a)) * sext24(b)) >> 32));
  BIN32(V_MUL_U32_U24, (a & 0xFFFFFF) * (b & 0xFFFFFF));
  BIN32(V_MUL_HI_U32_U24, uint32_t((uint64_t(a & 0xFFFFFF) * (b & 0xFFFFFF)) >> 32));
  TRI32(V_MAD_I32_I24, uint32_t(int64_t(sext24(a)) * sext24(b) + int32_t(c)));
  TRI32(V_MAD_U32_U24, (a & 0xFFFFFF) * (b & 0xFFFFFF) + c);
  // ---- 32-bit multiplies
  BIN32(V_MUL_LO_U32, a * b);
  BIN32(V_MUL_HI_U32, uint32_t((uint64_t(a) * b) >> 32));
  BIN32(V_MUL_HI_I32, uint32_t((int64_t(int32_t(a)) * int32_t(b)) >> 32));
  // ---- min/max
  BIN32(V_MIN_I32, uint32_t(std::min(int32_t(a), int32_t(b))));
  BIN32(V_MAX_I32, uint32_t(std::max(int32_t(a), int32_t(b))));
  BIN32(V_MIN_U32, std::min(a, b));
  BIN32(V_MAX_U32, std::max(a, b));
  TRI32(V_MIN3_I32, uint32_t(std::min({int32_t(a), int32_t(b), int32_t(c)})));
  TRI32(V_MAX3_I32, uint32_t(std::max({int32_t(a), int32_t(b), int32_t(c)})));
  TRI32(V_MIN3_U32, std::min({a, b, c}));
  TRI32(V_MAX3_U32, std::max({a, b, c}));
  TRI32(V_MED3_I32, uint32_t(std::max(std::min(int32_t(a), int32_t(b)),
                                      std::min(std::max(int32_t(a), int32_t(b)), int32_t(c)))));
  TRI32(V_MED3_U32, std::max(std::min(a, b), std::min(std::max(a, b), c)));
  // ---- shifts and logic ("rev": src0 is the shift amount)
  BIN32(V_LSHRREV_B32, b >> (a & 31));
  BIN32(V_ASHRREV_I32, uint32_t(int32_t(b) >> (a & 31)));
  BIN32(V_LSHLREV_B32, b << (a & 31));
  BIN32(V_AND_B32, a & b);
  BIN32(V_OR_B32, a | b);
  BIN32(V_XOR_B32, a ^ b);
  UN32(V_NOT_B32, ~a);
  UN32(V_BFREV_B32, [](uint32_t x) {
    x = ((x >> 1) & 0x55555555u) | ((x & 0x55555555u) << 1);
    x = ((x >> 2) & 0x33333333u) | ((x & 0x33333333u) << 2);
    x = ((x >> 4) & 0x0F0F0F0Fu) | ((x & 0x0F0F0F0Fu) << 4);
    return __builtin_bswap32(x);
  }(a));
  UN32(V_FFBH_U32, ffbh_u32(a));
  UN32(V_FFBL_B32, a ? uint32_t(std::countr_zero(a)) : ~0u);
  UN32(V_FFBH_I32, (a == 0 || a == ~0u) ? ~0u : ffbh_u32(a ^ uint32_t(int32_t(a) >> 31)));
  H(V_LSHLREV_B64, run<K::B64, K::B32, K::B64>(w, in, [](uint32_t a, uint64_t b) -> uint64_t { return b << (a & 63); }));
  H(V_LSHRREV_B64, run<K::B64, K::B32, K::B64>(w, in, [](uint32_t a, uint64_t b) -> uint64_t { return b >> (a & 63); }));
  H(V_ASHRREV_I64, run<K::B64, K::B32, K::B64>(w, in, [](uint32_t a, uint64_t b) -> uint64_t {
      return uint64_t(int64_t(b) >> (a & 63));
    }));
  // ---- bit fields
  TRI32(V_BFE_U32, (c & 31) == 0 ? 0u : (a >> (b & 31)) & (0xFFFFFFFFu >> (32 - (c & 31))));
  TRI32(V_BFE_I32, [](uint32_t x, uint32_t off, uint32_t wid) -> uint32_t {
    off &= 31;
    wid &= 31;
    if (wid == 0) return 0;
    if (off + wid < 32) return uint32_t(int32_t(x << (32 - off - wid)) >> (32 - wid));
    return uint32_t(int32_t(x) >> off);
  }(a, b, c));
  TRI32(V_BFI_B32, (a & b) | (~a & c));
  BIN32(V_BFM_B32, ((1u << (a & 31)) - 1) << (b & 31));
  TRI32(V_ALIGNBIT_B32, uint32_t(((uint64_t(a) << 32) | b) >> (c & 31)));
  TRI32(V_ALIGNBYTE_B32, uint32_t(((uint64_t(a) << 32) | b) >> (8 * (c & 3))));
  BIN32(V_BCNT_U32_B32, uint32_t(std::popcount(a)) + b);
  TRI32(V_PERM_B32, perm_byte((uint64_t(a) << 32) | b, c) | perm_byte((uint64_t(a) << 32) | b, c >> 8) << 8 |
                        perm_byte((uint64_t(a) << 32) | b, c >> 16) << 16 |
                        perm_byte((uint64_t(a) << 32) | b, c >> 24) << 24);
  // ---- SAD / lerp
  TRI32(V_SAD_U8, sad_u8(a, b, c));
  TRI32(V_SAD_HI_U8, (sad_u8(a, b, 0) << 16) + c);
  TRI32(V_SAD_U16, absdiff(a & 0xFFFF, b & 0xFFFF) + absdiff(a >> 16, b >> 16) + c);
  TRI32(V_SAD_U32, absdiff(a, b) + c);
  TRI32(V_MSAD_U8, msad_u8(a, b, c));
  TRI32(V_LERP_U8, [](uint32_t x, uint32_t y, uint32_t z) {
    uint32_t r = 0;
    for (int i = 0; i < 32; i += 8) r |= (((x >> i & 0xFF) + (y >> i & 0xFF) + (z >> i & 1)) >> 1) << i;
    return r;
  }(a, b, c));
  t.set(Op::V_QSAD_PK_U16_U8, qsad_pk<false>);
  t.set(Op::V_MQSAD_PK_U16_U8, qsad_pk<true>);
  t.set(Op::V_MQSAD_U32_U8, mqsad_u32);
  // ---- carries
  t.set(Op::V_ADD_U32, addsub_u32<false, false, false>);
  t.set(Op::V_SUB_U32, addsub_u32<true, false, false>);
  t.set(Op::V_SUBREV_U32, addsub_u32<true, true, false>);
  t.set(Op::V_ADDC_U32, addsub_u32<false, false, true>);
  t.set(Op::V_SUBB_U32, addsub_u32<true, false, true>);
  t.set(Op::V_SUBBREV_U32, addsub_u32<true, true, true>);
  t.set(Op::V_MAD_U64_U32, mad64<false>);
  t.set(Op::V_MAD_I64_I32, mad64<true>);
  // ---- packing
  BIN32(V_CVT_PK_U16_U32, sat_u16(a) | sat_u16(b) << 16);
  BIN32(V_CVT_PK_I16_I32, sat_i16(int32_t(a)) | sat_i16(int32_t(b)) << 16);
  // ---- 16-bit (clamp saturates add/sub/mad as the e64 forms define)
  H(V_ADD_U16, const bool s = in.clamp;
    run<K::B16, K::B16, K::B16>(w, in, [s](uint32_t a, uint32_t b) -> uint32_t {
      uint32_t r = (a & 0xFFFF) + (b & 0xFFFF);
      return s ? sat_u16(r) : r;
    }));
  H(V_SUB_U16, const bool s = in.clamp;
    run<K::B16, K::B16, K::B16>(w, in, [s](uint32_t a, uint32_t b) -> uint32_t {
      int32_t r = int32_t(a & 0xFFFF) - int32_t(b & 0xFFFF);
      return s && r < 0 ? 0u : uint32_t(r);
    }));
  H(V_SUBREV_U16, const bool s = in.clamp;
    run<K::B16, K::B16, K::B16>(w, in, [s](uint32_t a, uint32_t b) -> uint32_t {
      int32_t r = int32_t(b & 0xFFFF) - int32_t(a & 0xFFFF);
      return s && r < 0 ? 0u : uint32_t(r);
    }));
  BIN16(V_MUL_LO_U16, a * b);
  BIN16(V_LSHLREV_B16, b << (a & 15));
  BIN16(V_LSHRREV_B16, (b & 0xFFFF) >> (a & 15));
  BIN16(V_ASHRREV_I16, uint32_t(int32_t(int16_t(b)) >> (a & 15)));
  BIN16(V_MAX_U16, std::max(a & 0xFFFF, b & 0xFFFF));
  BIN16(V_MIN_U16, std::min(a & 0xFFFF, b & 0xFFFF));
  BIN16(V_MAX_I16, uint32_t(std::max(int16_t(a), int16_t(b))));
  BIN16(V_MIN_I16, uint32_t(std::min(int16_t(a), int16_t(b))));
  H(V_MAD_U16, const bool s = in.clamp;
    run<K::B16, K::B16, K::B16, K::B16>(w, in, [s](uint32_t a, uint32_t b, uint32_t c) -> uint32_t {
      uint32_t r = (a & 0xFFFF) * (b & 0xFFFF) + (c & 0xFFFF);
      return s ? sat_u16(r) : r;
    }));
  // ---- gfx9: adds without a carry, three-operand forms, 64-bit shift-add (gfx940)
  H(V_ADD_NC_U32, const bool s = in.clamp; run<K::B32, K::B32, K::B32>(w, in, [s](uint32_t a, uint32_t b) -> uint32_t {
      const uint64_t r = uint64_t(a) + b;
      return s && r >> 32 ? ~0u : uint32_t(r);
    }));
  H(V_SUB_NC_U32, const bool s = in.clamp; run<K::B32, K::B32, K::B32>(w, in, [s](uint32_t a, uint32_t b) -> uint32_t {
      return s && b > a ? 0u : a - b;
    }));
  H(V_SUBREV_NC_U32, const bool s = in.clamp; run<K::B32, K::B32, K::B32>(w, in, [s](uint32_t a, uint32_t b) -> uint32_t {
      return s && a > b ? 0u : b - a;
    }));
  // Signed adds: clamp saturates to the signed range.
  H(V_ADD_I32, const bool s = in.clamp; run<K::B32, K::B32, K::B32>(w, in, [s](uint32_t a, uint32_t b) -> uint32_t {
      const int64_t r = int64_t(int32_t(a)) + int32_t(b);
      return s ? uint32_t(int32_t(std::clamp<int64_t>(r, INT32_MIN, INT32_MAX))) : uint32_t(r);
    }));
  H(V_SUB_I32, const bool s = in.clamp; run<K::B32, K::B32, K::B32>(w, in, [s](uint32_t a, uint32_t b) -> uint32_t {
      const int64_t r = int64_t(int32_t(a)) - int32_t(b);
      return s ? uint32_t(int32_t(std::clamp<int64_t>(r, INT32_MIN, INT32_MAX))) : uint32_t(r);
    }));
  H(V_ADD_I16, const bool s = in.clamp; run<K::B16, K::B16, K::B16>(w, in, [s](uint32_t a, uint32_t b) -> uint32_t {
      const int32_t r = int32_t(int16_t(a)) + int16_t(b);
      return s ? sat_i16(r) : uint32_t(r) & 0xFFFF;
    }));
  H(V_SUB_I16, const bool s = in.clamp; run<K::B16, K::B16, K::B16>(w, in, [s](uint32_t a, uint32_t b) -> uint32_t {
      const int32_t r = int32_t(int16_t(a)) - int16_t(b);
      return s ? sat_i16(r) : uint32_t(r) & 0xFFFF;
    }));
  TRI32(V_ADD3_U32, a + b + c);
  TRI32(V_XAD_U32, (a ^ b) + c);
  TRI32(V_ADD_LSHL_U32, (a + b) << (c & 31));
  TRI32(V_LSHL_ADD_U32, (a << (b & 31)) + c);
  TRI32(V_LSHL_OR_B32, (a << (b & 31)) | c);
  TRI32(V_AND_OR_B32, (a & b) | c);
  TRI32(V_OR3_B32, a | b | c);
  H(V_MED3_I16, run<K::B16, K::B16, K::B16, K::B16>(w, in, [](uint32_t a, uint32_t b, uint32_t c) -> uint32_t {
      const int16_t x = int16_t(a), y = int16_t(b), z = int16_t(c);
      return uint32_t(std::max(std::min(x, y), std::min(std::max(x, y), z))) & 0xFFFF;
    }));
  H(V_MED3_U16, run<K::B16, K::B16, K::B16, K::B16>(w, in, [](uint32_t a, uint32_t b, uint32_t c) -> uint32_t {
      const uint32_t x = a & 0xFFFF, y = b & 0xFFFF, z = c & 0xFFFF;
      return std::max(std::min(x, y), std::min(std::max(x, y), z));
    }));
  // MI300 ISA: D.u64 = (S0.u64 << S1.u[2:0]) + S2.u64 (shifts of 0..4 are the supported ones).
  H(V_LSHL_ADD_U64, run<K::B64, K::B64, K::B32, K::B64>(w, in, [](uint64_t a, uint32_t b, uint64_t c) -> uint64_t {
      return (a << (b & 7)) + c;
    }));
  H(V_MAD_I16, const bool s = in.clamp;
    run<K::B16, K::B16, K::B16, K::B16>(w, in, [s](uint32_t a, uint32_t b, uint32_t c) -> uint32_t {
      int32_t r = int32_t(int16_t(a)) * int16_t(b) + int16_t(c);
      return s ? sat_i16(r) : uint32_t(r);
    }));
  // ---- VOP3P packed 16-bit integer math; CLAMP saturates each element
#define PK2(OP, ...)                                                                               \
  H(OP, const bool s = in.clamp; (void)s;                                                          \
    run_packed<false, 2>(w, in, OperandType::B16, 0, [s](uint32_t a, uint32_t b, uint32_t) -> uint32_t { \
      return __VA_ARGS__;                                                                          \
    }))
  PK2(V_PK_ADD_U16, s ? sat_u16(a + b) : a + b);
  PK2(V_PK_SUB_U16, s && b > a ? 0u : a - b);
  PK2(V_PK_ADD_I16, s ? sat_i16(int32_t(int16_t(a)) + int16_t(b)) : a + b);
  PK2(V_PK_SUB_I16, s ? sat_i16(int32_t(int16_t(a)) - int16_t(b)) : a - b);
  PK2(V_PK_MUL_LO_U16, a * b);
  PK2(V_PK_LSHLREV_B16, b << (a & 15));
  PK2(V_PK_LSHRREV_B16, b >> (a & 15));
  PK2(V_PK_ASHRREV_I16, uint32_t(int32_t(int16_t(b)) >> (a & 15)));
  PK2(V_PK_MAX_U16, std::max(a, b));
  PK2(V_PK_MIN_U16, std::min(a, b));
  PK2(V_PK_MAX_I16, uint32_t(std::max(int16_t(a), int16_t(b))));
  PK2(V_PK_MIN_I16, uint32_t(std::min(int16_t(a), int16_t(b))));
#undef PK2
  H(V_PK_MAD_U16, const bool s = in.clamp;
    run_packed<false, 3>(w, in, OperandType::B16, 0, [s](uint32_t a, uint32_t b, uint32_t c) -> uint32_t {
      const uint32_t r = a * b + c;
      return s ? sat_u16(r) : r;
    }));
  H(V_PK_MAD_I16, const bool s = in.clamp;
    run_packed<false, 3>(w, in, OperandType::B16, 0, [s](uint32_t a, uint32_t b, uint32_t c) -> uint32_t {
      const int32_t r = int32_t(int16_t(a)) * int16_t(b) + int16_t(c);
      return s ? sat_i16(r) : uint32_t(r);
    }));
  t.set(Op::V_DOT2_I32_I16, dot_int<2, 16, true, false>);
  t.set(Op::V_DOT2_U32_U16, dot_int<2, 16, false, false>);
  t.set(Op::V_DOT4_I32_I8, dot_int<4, 8, true, false>);
  t.set(Op::V_DOT4_U32_U8, dot_int<4, 8, false, false>);
  t.set(Op::V_DOT8_I32_I4, dot_int<8, 4, true, false>);
  t.set(Op::V_DOT8_U32_U4, dot_int<8, 4, false, false>);
  t.set(Op::V_DOT2C_I32_I16, dot_int<2, 16, true, true>);
  t.set(Op::V_DOT4C_I32_I8, dot_int<4, 8, true, true>);
  t.set(Op::V_DOT8C_I32_I4, dot_int<8, 4, true, true>);
  // gfx9 keeps gfx8's 16-bit multiply-adds under these names (no op_sel).
  t.set(Op::V_MAD_LEGACY_U16, t.fn[size_t(Op::V_MAD_U16)]);
  t.set(Op::V_MAD_LEGACY_I16, t.fn[size_t(Op::V_MAD_I16)]);
}

}  // namespace strobe::emu::valu
