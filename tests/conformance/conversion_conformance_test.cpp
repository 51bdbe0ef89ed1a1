// OpenCL C conversion conformance: every convert_<dst>{_sat}{_rte,_rtz,_rtp,_rtn} of
// kernels/conformance/conversion_list.h (scalar and one vector form) runs on strobe's emulator
// over the edges of both types' ranges, halfway cases and random bit patterns, and must match
// the exact host result bit for bit. Inputs whose result the spec leaves undefined are skipped.
#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <cstring>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "conformance/conversion_reference.h"
#include "conformance/kernel_runner.h"
#include "e2e/kernel_fixture.h"

namespace strobe::conformance {
namespace {

/// One conversion to check, in one build.
struct ConversionCase {
  std::string build_dir, build_label;
  std::string src, dst, mode;  ///< OpenCL C type names; mode is the suffix, e.g. "_sat_rte"
  int width = 0;
};

/// Names a case in test output as the OpenCL C call, its widths and the build.
void PrintTo(const ConversionCase& c, std::ostream* os) {
  *os << "convert_" << c.dst << c.mode << "(" << c.src << ") (x1 and x" << c.width << ", " << c.build_label << ")";
}

std::vector<ConversionCase> conversion_cases() {
  std::vector<ConversionCase> out;
  for (const auto& [dir, label] : conformance_builds()) {
#define STROBE_CONVERT(s, d, m, w) out.push_back({dir, label, #s, #d, #m, w});
#include "../../kernels/conformance/conversion_list.h"
#undef STROBE_CONVERT
  }
  return out;
}

/// Calls f(T{}) with the host type of an OpenCL C type name.
template <typename F>
void with_type(const std::string& name, F&& f) {
  if (name == "char") f(int8_t{});
  else if (name == "uchar") f(uint8_t{});
  else if (name == "short") f(int16_t{});
  else if (name == "ushort") f(uint16_t{});
  else if (name == "int") f(int32_t{});
  else if (name == "uint") f(uint32_t{});
  else if (name == "long") f(int64_t{});
  else if (name == "ulong") f(uint64_t{});
  else if (name == "float") f(float{});
  else if (name == "double") f(double{});
  else ADD_FAILURE() << "unknown type " << name;
}

/// Prints a value with its bit pattern.
template <typename T>
std::string show(T v) {
  std::ostringstream s;
  s.precision(21);
  if constexpr (std::is_floating_point_v<T>) s << v;
  else if constexpr (std::is_signed_v<T>) s << int64_t(v);
  else s << uint64_t(v);
  uint64_t bits = 0;
  std::memcpy(&bits, &v, sizeof v);
  s << " (0x" << std::hex << bits << ")";
  return s.str();
}

/// Inputs of type S for a conversion to D: the edges of S, D's range ends and their neighbours
/// in S, halfway cases for the roundings, then random bit patterns and random values around D's
/// range, from a seed fixed per case; the count is a multiple of 16.
template <typename S, typename D>
std::vector<S> make_inputs(const ConversionCase& c) {
  std::vector<S> v;
  e2e::Rng rng(std::hash<std::string>{}(c.src + c.dst + c.mode));
  if constexpr (std::is_floating_point_v<S>) {
    constexpr S inf = std::numeric_limits<S>::infinity();
    for (S x : {S(0), S(0.5), S(1), S(1.5), S(2.5), std::nextafter(S(0.5), S(0)), std::nextafter(S(0.5), S(1)),
                S(0x1p24) + 1, S(1e-40), std::numeric_limits<S>::denorm_min(), std::numeric_limits<S>::min(),
                std::numeric_limits<S>::max(), inf, S(0x1p31), S(0x1p63)}) {
      v.push_back(x);
      v.push_back(-x);
    }
    v.push_back(std::numeric_limits<S>::quiet_NaN());
    long double lo = -1e30L, hi = 1e30L;
    if constexpr (std::is_integral_v<D>) {
      lo = std::numeric_limits<D>::min(), hi = std::numeric_limits<D>::max();
      for (long double end : {lo, hi})
        for (long double d : {-1.0L, -0.5L, 0.0L, 0.5L, 1.0L}) {
          const S x = S(end + d);
          v.insert(v.end(), {x, std::nextafter(x, -inf), std::nextafter(x, inf)});
        }
    }
    while (v.size() < 1024 || v.size() % 16) {
      if (v.size() % 2) {
        v.push_back(S(lo + (hi - lo) * rng.uniform_d(-0.05, 1.05)));
      } else if constexpr (std::is_same_v<S, float>) {
        v.push_back(std::bit_cast<float>(rng.u32()));
      } else {
        v.push_back(std::bit_cast<double>(rng.next()));
      }
    }
  } else {
    v = edge_values<S>(std::numeric_limits<S>::min(), std::numeric_limits<S>::max());
    // Integers just above 2^24 and 2^53 need rounding to float and double.
    for (int64_t x : std::initializer_list<int64_t>{(1ll << 24) + 1, (1ll << 24) + 3, (1ll << 25) + 2, (1ll << 25) + 6, (1ll << 31) - 64,
                      (1ll << 53) + 1, 255, 256, -128, -129, 32767, 65535, 65536})
      if (Int128(x) >= std::numeric_limits<S>::min() && Int128(x) <= std::numeric_limits<S>::max()) {
        v.push_back(S(x));
        if (std::is_signed_v<S>) v.push_back(S(-x));
      }
    while (v.size() < 1024 || v.size() % 16) {
      const uint64_t bits = rng.next();
      v.push_back(v.size() % 2 ? S(bits) : S(int64_t(bits) >> (rng.u32() % 64)));
    }
  }
  return v;
}

/// Whether the device's `got` is one of the allowed results (any NaN for a NaN).
template <typename D>
bool matches(D got, const std::vector<D>& allowed) {
  for (D a : allowed) {
    if constexpr (std::is_floating_point_v<D>)
      if (std::isnan(a) && std::isnan(got)) return true;
    if (std::memcmp(&a, &got, sizeof got) == 0) return true;
  }
  return false;
}

/// Whether ROCm 5.2's library deviates from the specification for convert_<D><mode>(s):
/// convert_<signed>_sat of a floating value is fptosi(min(max(x, MIN), MAX)) with selects for
/// x > MAX and x < MIN (see _Z15convert_int_satf in opencl.bc). max(NaN, MIN) is MIN, as
/// fmax's NaN rule says, and neither select catches NaN: NaN converts to the destination's
/// minimum (convert_int_sat(NaN) is 0x80000000, convert_short_sat(NaN) 0x8000) where section
/// 6.2.3.3 says 0. The unsigned forms clamp to 0 first, so they come out right. Hardware runs
/// the same v_max/v_min and shows the same value, so the emulator is held to it.
template <typename D, typename S>
bool nan_saturates_to_min(S s, const std::string& mode) {
  if constexpr (std::is_floating_point_v<S> && std::is_integral_v<D> && std::is_signed_v<D>)
    return std::isnan(s) && mode.find("_sat") != std::string::npos;
  return false;
}

class ConversionConformance : public ::testing::TestWithParam<ConversionCase> {
 protected:
  template <typename S, typename D>
  void check() {
    const ConversionCase& c = GetParam();
    const std::string object = conformance_object(c.build_dir, "conversions");
    if (object.empty()) GTEST_SKIP() << "no conversions.hsaco (compiler not installed)";
    const std::vector<S> in = make_inputs<S, D>(c);
    const size_t n = in.size();
    KernelRunner run(object);
    const uint64_t x = run.upload(in), out = run.output<D>(n);
    size_t checked = 0;
    for (int width : {1, c.width}) {
      const std::string kernel =
          "cvt_" + c.src + "_" + c.dst + c.mode + (width > 1 ? "_x" + std::to_string(width) : "");
      run.fill(out, n * sizeof(D));
      ASSERT_EQ(run.launch(kernel, uint32_t(n / width), {x, out}), "");
      const std::vector<D> got = run.download<D>(out, n);
      int failures = 0;
      for (size_t i = 0; i < n && failures < 5; ++i) {
        const std::vector<D> allowed = nan_saturates_to_min<D>(in[i], c.mode)
                                           ? std::vector<D>{std::numeric_limits<D>::min()}
                                           : allowed_conversions<D>(in[i], c.mode);
        if (allowed.empty()) continue;  // undefined by the spec
        ++checked;
        if (!matches(got[i], allowed)) {
          ADD_FAILURE() << kernel << "(" << show(in[i]) << "): expected " << show(allowed[0]) << ", got "
                        << show(got[i]);
          ++failures;
        }
      }
    }
    EXPECT_GT(checked, n / 2) << "most inputs were undefined: the case tests little";
  }
};

TEST_P(ConversionConformance, MatchesTheExactResult) {
  const ConversionCase& c = GetParam();
  with_type(c.src, [&](auto s) { with_type(c.dst, [&](auto d) { check<decltype(s), decltype(d)>(); }); });
}

INSTANTIATE_TEST_SUITE_P(Builtins, ConversionConformance, ::testing::ValuesIn(conversion_cases()),
                         [](const auto& info) {
                           return info.param.build_label + "_" + info.param.src + "_to_" + info.param.dst +
                                  info.param.mode;
                         });

}  // namespace
}  // namespace strobe::conformance
