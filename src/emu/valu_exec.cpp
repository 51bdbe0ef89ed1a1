// Operand resolution and output modifiers shared by all vector ALU handlers, and the
// register_valu() entry point that gathers the per-family handler files.
#include "emu/valu_exec.h"

#include <string>

namespace strobe::emu::valu {
namespace {

using isa::opcode_field::kVgprFirst;

/// Sign-bit position mask (in the dword that holds it) of a float kind; 0 for integers.
uint32_t sign_mask(K k) {
  switch (k) {
    case K::F16: return 0x8000u;
    case K::F32:
    case K::F64: return 0x80000000u;
    default: return 0;
  }
}

/// Applies an SDWA source select (BYTE_0..3, WORD_0..1) with optional sign extension.
inline uint32_t sdwa_sel(uint32_t x, uint8_t sel, bool sext) {
  if (sel < 4) {
    uint32_t b = (x >> (8 * sel)) & 0xFF;
    return sext ? uint32_t(int32_t(int8_t(b))) : b;
  }
  if (sel < 6) {
    uint32_t h = (x >> (16 * (sel - 4))) & 0xFFFF;
    return sext ? uint32_t(int32_t(int16_t(h))) : h;
  }
  return x;
}

/// Source lane that lane `l` reads under DPP control `ctrl`, or -1 when it is out of range.
inline int dpp_source_lane(uint16_t ctrl, int l) {
  int row = l & ~15, in_row = l & 15;
  if (ctrl <= 0xFF) return (l & ~3) | ((ctrl >> (2 * (l & 3))) & 3);  // quad_perm
  if (ctrl >= 0x101 && ctrl <= 0x10F) {                                  // row_shl
    int s = in_row + (ctrl & 15);
    return s < 16 ? row + s : -1;
  }
  if (ctrl >= 0x111 && ctrl <= 0x11F) {  // row_shr
    int s = in_row - (ctrl & 15);
    return s >= 0 ? row + s : -1;
  }
  if (ctrl >= 0x121 && ctrl <= 0x12F) return row + ((in_row - (ctrl & 15)) & 15);  // row_ror
  switch (ctrl) {
    case 0x130: return l < 63 ? l + 1 : -1;  // wave_shl:1
    case 0x134: return (l + 1) & 63;         // wave_rol:1
    case 0x138: return l > 0 ? l - 1 : -1;   // wave_shr:1
    case 0x13C: return (l - 1) & 63;         // wave_ror:1
    case 0x140: return row + 15 - in_row;    // row_mirror
    case 0x141: return (l & ~7) | (7 - (l & 7));  // row_half_mirror
    case 0x142: return row >= 16 ? row - 1 : -1;  // row_bcast:15 (lane 15 of the previous row)
    case 0x143: return row >= 32 ? 31 : -1;       // row_bcast:31
    default: return -2;                           // reserved encoding
  }
}

/// DPP: permutes src0 into the frame buffer and removes lanes that must keep their old value.
/// A source lane outside the wave or inactive in EXEC is invalid; it reads 0 when bound_ctrl
/// is set, otherwise the destination lane is not written. row_mask/bank_mask (banks are
/// groups of four lanes within a row) disable destination writes only.
void apply_dpp(Wave& w, const isa::Inst& in, Frame& fr, uint64_t lanes) {
  Src& s = fr.s[0];
  const uint64_t live = w.exec() & lanes;
  uint32_t* blo = fr.buf[0][0];
  uint32_t* bhi = fr.buf[0][1];
  for (int l = 0; l < kWaveSize; ++l) {
    int sl = dpp_source_lane(in.dpp_ctrl, l);
    if (sl == -2) {
      static const ExecContext kNoCtx{};
      unsupported(w, in, kNoCtx, "reserved DPP control value");
    }
    if (sl >= 0 && ((live >> sl) & 1)) {
      blo[l] = s.lo[sl];
      bhi[l] = s.hi[sl];
    } else if (in.dpp_bound_ctrl) {
      blo[l] = bhi[l] = 0;
    } else {
      fr.wmask &= ~(1ull << l);
    }
    if (!((in.dpp_row_mask >> (l >> 4)) & 1) || !((in.dpp_bank_mask >> ((l >> 2) & 3)) & 1))
      fr.wmask &= ~(1ull << l);
  }
  s.lo = blo;
  s.hi = bhi;
}

const char* const kOpNames[] = {
#define STROBE_OP(OP, NAME) NAME,
#include "isa/ops.def"
#undef STROBE_OP
    "invalid",
};

}  // namespace

void prepare(Wave& w, const isa::Inst& in, Frame& fr, const K kinds[3], const uint16_t codes[3]) {
  fr.n = w.lane_count > kWaveSize ? kWaveSize : w.lane_count;
  const uint64_t lanes = fr.n >= 64 ? ~0ull : (1ull << fr.n) - 1;
  fr.wmask = w.exec() & lanes;
  for (int i = 0; i < 3; ++i) {
    const K k = kinds[i];
    if (k == K::None) continue;
    Src& s = fr.s[i];
    const uint16_t code = codes[i];
    if (is_vgpr(code)) {
      s.lo = w.vrow(vgpr_index(code));
      s.hi = is64(k) ? s.lo + kWaveSize : s.lo;
    } else {
      const uint64_t v = scalar_source(w, in, code, op_type(k));
      const uint32_t lo = uint32_t(v), hi = uint32_t(v >> 32);
      uint32_t* blo = fr.buf[i][0];
      uint32_t* bhi = fr.buf[i][1];
      for (int l = 0; l < kWaveSize; ++l) blo[l] = lo;
      if (is64(k))
        for (int l = 0; l < kWaveSize; ++l) bhi[l] = hi;
      s.lo = blo;
      s.hi = bhi;
    }
    if ((k == K::F16 || k == K::B16) && ((in.op_sel >> i) & 1) && in.enc == isa::Encoding::VOP3) {
      // gfx9 VOP3 op_sel: a 16-bit operand comes from the high half of its dword.
      uint32_t* b = fr.buf[i][0];
      for (int l = 0; l < kWaveSize; ++l) b[l] = s.lo[l] >> 16;
      s.lo = s.hi = b;
    }
    s.and_m = ~0u;
    s.xor_m = 0;
    if (uint32_t sm = sign_mask(k)) {
      if ((in.abs >> i) & 1) s.and_m = ~sm;
      if ((in.neg >> i) & 1) s.xor_m = sm;
    }
  }
  if (in.ext == isa::VopExt::SDWA) {
    for (int i = 0; i < 2; ++i) {
      const K k = kinds[i];
      if (k == K::None || is64(k)) continue;
      const uint8_t sel = in.sdwa_src_sel[i];
      const bool sext = (in.sdwa_sext >> i) & 1;
      if (sel >= 6) continue;
      Src& s = fr.s[i];
      for (uint32_t l = 0; l < fr.n; ++l) fr.buf[i][0][l] = sdwa_sel(s.lo[l], sel, sext);
      s.lo = s.hi = fr.buf[i][0];
    }
  } else if (in.ext == isa::VopExt::DPP && kinds[0] != K::None) {
    apply_dpp(w, in, fr, lanes);
  }
  fr.all = fr.wmask == lanes;
}

uint64_t out_mods(uint64_t r, K k, const isa::Inst& in, uint32_t mode) {
  static constexpr double kOmod[4] = {1.0, 2.0, 4.0, 0.5};
  const bool nan_to_zero = fp::dx10_clamp(mode);
  if (k == K::F32) {
    uint32_t x = uint32_t(r);
    if (in.omod && !fp::nan32(x)) x = fp::b32(fp::f32(x) * float(kOmod[in.omod & 3]));
    if (in.clamp) {
      if (fp::nan32(x)) x = nan_to_zero ? 0 : fp::quiet32(x);
      else if (fp::f32(x) <= 0.0f) x = 0;
      else if (fp::f32(x) > 1.0f) x = 0x3F800000u;
    }
    return x;
  }
  if (k == K::F64) {
    uint64_t x = r;
    if (in.omod && !fp::nan64(x)) x = fp::b64(fp::f64(x) * kOmod[in.omod & 3]);
    if (in.clamp) {
      if (fp::nan64(x)) x = nan_to_zero ? 0 : fp::quiet64(x);
      else if (fp::f64(x) <= 0.0) x = 0;
      else if (fp::f64(x) > 1.0) x = 0x3FF0000000000000ull;
    }
    return x;
  }
  if (k == K::F16) {
    uint32_t x = uint32_t(r) & 0xFFFF;
    if (in.omod && !fp::nan16(x)) x = fp::d2h(fp::h2d(x) * kOmod[in.omod & 3], fp::round64(mode));
    if (in.clamp) {
      if (fp::nan16(x)) x = nan_to_zero ? 0 : fp::quiet16(x);
      else if (fp::h2d(x) <= 0.0) x = 0;
      else if (fp::h2d(x) > 1.0) x = 0x3C00;
    }
    return x;
  }
  return r;
}

uint32_t sdwa_dst(uint32_t r, uint32_t old, uint8_t sel, uint8_t unused) {
  if (sel >= 6) return r;
  const unsigned width = sel < 4 ? 8 : 16;
  const unsigned shift = sel < 4 ? 8 * sel : 16 * (sel - 4);
  const uint32_t low = (1u << width) - 1;
  const uint32_t field = (r & low) << shift;
  const uint32_t fmask = low << shift;
  switch (unused) {
    case 1: {  // UNUSED_SEXT: bits above the field copy its sign bit
      const unsigned top = shift + width;
      const bool neg = (r >> (width - 1)) & 1;
      return field | ((neg && top < 32) ? ~0u << top : 0u);
    }
    case 2: return field | (old & ~fmask);  // UNUSED_PRESERVE
    default: return field;                  // UNUSED_PAD
  }
}

const char* op_text(isa::Op op) {
  size_t i = size_t(op);
  return i < sizeof(kOpNames) / sizeof(kOpNames[0]) ? kOpNames[i] : "invalid";
}

void unsupported(const Wave& w, const isa::Inst& inst, const ExecContext& ctx, const char* why) {
  fault(w, inst, ctx, std::string(op_text(inst.op)) + ": " + why);
}

}  // namespace strobe::emu::valu

namespace strobe::emu {

void register_valu(HandlerTable& t) {
  valu::register_valu_int(t);
  valu::register_valu_f32(t);
  valu::register_valu_f64(t);
  valu::register_valu_f16(t);
  valu::register_valu_convert(t);
  valu::register_valu_move(t);
  valu::register_valu_mfma(t);
}

}  // namespace strobe::emu
