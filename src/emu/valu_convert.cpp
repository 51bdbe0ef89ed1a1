// Conversions between f16/f32/f64 and integers, byte/nibble unpacking and the packing
// conversions (pkrtz, pknorm, pk_u8, pkaccum). Float->int conversions truncate unless the
// op says otherwise, saturate out-of-range values and turn NaN into 0, as the ISA specifies.
#include <algorithm>
#include <cmath>

#include "emu/valu_exec.h"

namespace strobe::emu::valu {
namespace {

using isa::Op;
using namespace fp;

/// Saturating double -> integer in [lo, hi] of an already-rounded value; NaN -> 0.
inline int64_t sat(double d, double lo, double hi) {
  if (std::isnan(d)) return 0;
  if (d <= lo) return int64_t(lo);
  if (d >= hi) return int64_t(hi);
  return int64_t(d);
}
inline uint32_t to_i32(double d) { return uint32_t(int32_t(sat(std::trunc(d), -2147483648.0, 2147483647.0))); }
inline uint32_t to_u32(double d) { return uint32_t(sat(std::trunc(d), 0.0, 4294967295.0)); }
/// Round-to-nearest-even of a double without depending on the host rounding mode.
inline double rne(double x) {
  double t = std::trunc(x), d = x - t;
  if (std::fabs(d) > 0.5 || (std::fabs(d) == 0.5 && std::fmod(t, 2.0) != 0)) t += std::copysign(1.0, x);
  return t;
}
/// f32 -> unsigned byte for the pk_u8 ops: round to nearest even, saturate, NaN -> 0.
inline uint32_t to_u8(float f) { return uint32_t(sat(rne(f), 0.0, 255.0)); }
inline uint32_t snorm16(float f) {
  if (std::isnan(f)) return 0;
  return uint32_t(int32_t(rne(std::clamp(double(f), -1.0, 1.0) * 32767.0))) & 0xFFFF;
}
inline uint32_t unorm16(float f) {
  if (std::isnan(f)) return 0;
  return uint32_t(rne(std::clamp(double(f), 0.0, 1.0) * 65535.0));
}

#define H(OP, ...) t.set(Op::OP, [](Wave& w, const isa::Inst& in, ExecContext& ctx) { __VA_ARGS__; })
// Conversion with a destination kind D from a source kind S; `x` is the raw (modified) source.
#define CVT(OP, D, S, ...) \
  H(OP, const uint32_t md = w.mode; run<K::D, K::S>(w, in, [md](raw_t<K::S> x) -> raw_t<K::D> { return __VA_ARGS__; }))

/// Flushes an f32 input per MODE and returns it as float.
inline float in32(uint32_t x, uint32_t md) { return f32(flush_in32(md) ? ftz32(x) : x); }
inline double in64(uint64_t x, uint32_t md) { return f64(flush_in64(md) ? ftz64(x) : x); }
inline double in16(uint32_t x, uint32_t md) { return h2d(flush_in64(md) ? ftz16(x) : x & 0xFFFF); }
inline uint32_t out32(float r, uint32_t md) { return flush_out32(md) ? ftz32(b32(r)) : b32(r); }
inline uint64_t out64(double r, uint32_t md) { return flush_out64(md) ? ftz64(b64(r)) : b64(r); }
inline uint32_t out16(double r, uint32_t md) {
  uint32_t h = d2h(r, round64(md));
  return flush_out64(md) ? ftz16(h) : h;
}
/// Rounds an exact double to f32 under the f32 rounding mode of `md`.
inline float round_to_f32(double d, uint32_t md) {
  RoundGuard rg(round32(md));
  volatile double v = d;  // keep the conversion inside the guard's scope
  return float(v);
}

}  // namespace

void register_valu_convert(HandlerTable& t) {
  // ---- int <-> f32
  CVT(V_CVT_F32_I32, F32, B32, out32(round_to_f32(double(int32_t(x)), md), md));
  CVT(V_CVT_F32_U32, F32, B32, out32(round_to_f32(double(x), md), md));
  CVT(V_CVT_I32_F32, B32, F32, to_i32(in32(x, md)));
  CVT(V_CVT_U32_F32, B32, F32, to_u32(in32(x, md)));
  CVT(V_CVT_RPI_I32_F32, B32, F32, uint32_t(int32_t(sat(std::floor(double(in32(x, md)) + 0.5), -2147483648.0, 2147483647.0))));
  CVT(V_CVT_FLR_I32_F32, B32, F32, uint32_t(int32_t(sat(std::floor(double(in32(x, md))), -2147483648.0, 2147483647.0))));
  CVT(V_CVT_OFF_F32_I4, F32, B32, b32(float(int32_t(x << 28) >> 28) * 0.0625f));
  CVT(V_CVT_F32_UBYTE0, F32, B32, b32(float(x & 0xFF)));
  CVT(V_CVT_F32_UBYTE1, F32, B32, b32(float((x >> 8) & 0xFF)));
  CVT(V_CVT_F32_UBYTE2, F32, B32, b32(float((x >> 16) & 0xFF)));
  CVT(V_CVT_F32_UBYTE3, F32, B32, b32(float(x >> 24)));
  // ---- f64
  CVT(V_CVT_F64_I32, F64, B32, b64(double(int32_t(x))));
  CVT(V_CVT_F64_U32, F64, B32, b64(double(x)));
  CVT(V_CVT_I32_F64, B32, F64, to_i32(in64(x, md)));
  CVT(V_CVT_U32_F64, B32, F64, to_u32(in64(x, md)));
  CVT(V_CVT_F32_F64, F32, F64, nan64(x) ? quiet32(uint32_t(x >> 32) | 0x7F800000u) : out32(round_to_f32(in64(x, md), md), md));
  CVT(V_CVT_F64_F32, F64, F32, nan32(x) ? b64(double(f32(quiet32(x)))) : out64(double(in32(x, md)), md));
  // ---- f16
  CVT(V_CVT_F16_F32, F16, F32, out16(double(in32(x, md)), md));
  CVT(V_CVT_F32_F16, F32, F16, nan16(x) ? b32(float(h2d(quiet16(x)))) : out32(float(in16(x, md)), md));
  CVT(V_CVT_F16_U16, F16, B16, out16(double(x & 0xFFFF), md));
  CVT(V_CVT_F16_I16, F16, B16, out16(double(int16_t(x)), md));
  CVT(V_CVT_U16_F16, B16, F16, uint32_t(sat(std::trunc(in16(x, md)), 0.0, 65535.0)));
  CVT(V_CVT_I16_F16, B16, F16, uint32_t(sat(std::trunc(in16(x, md)), -32768.0, 32767.0)) & 0xFFFF);
  // ---- packing
  H(V_CVT_PKRTZ_F16_F32, const uint32_t md = w.mode;
    run<K::B32, K::F32, K::F32>(w, in, [md](uint32_t a, uint32_t b) -> uint32_t {
      uint32_t lo = d2h(double(in32(a, md)), kRtz), hi = d2h(double(in32(b, md)), kRtz);
      if (flush_out64(md)) lo = ftz16(lo), hi = ftz16(hi);
      return lo | hi << 16;
    }));
  H(V_CVT_PKNORM_I16_F32, const uint32_t md = w.mode;
    run<K::B32, K::F32, K::F32>(w, in, [md](uint32_t a, uint32_t b) -> uint32_t {
      return snorm16(in32(a, md)) | snorm16(in32(b, md)) << 16;
    }));
  H(V_CVT_PKNORM_U16_F32, const uint32_t md = w.mode;
    run<K::B32, K::F32, K::F32>(w, in, [md](uint32_t a, uint32_t b) -> uint32_t {
      return unorm16(in32(a, md)) | unorm16(in32(b, md)) << 16;
    }));
  H(V_CVT_PK_U8_F32, const uint32_t md = w.mode;
    run<K::B32, K::F32, K::B32, K::B32>(w, in, [md](uint32_t a, uint32_t b, uint32_t c) -> uint32_t {
      const unsigned sh = 8 * (b & 3);
      return (c & ~(0xFFu << sh)) | to_u8(in32(a, md)) << sh;
    }));
  H(V_CVT_PKACCUM_U8_F32, const uint32_t md = w.mode; const uint16_t codes[3] = {in.src[0], in.src[1], in.dst};
    run_codes<K::B32, K::F32, K::B32, K::B32>(w, in, codes, [md](uint32_t a, uint32_t b, uint32_t d) -> uint32_t {
      const unsigned sh = 8 * (b & 3);
      return (d & ~(0xFFu << sh)) | to_u8(in32(a, md)) << sh;
    }));
}

}  // namespace strobe::emu::valu
