// OpenCL C integer builtin conformance: every builtin of kernels/conformance/integer_list.h
// (scalar and one vector form, char to ulong) runs on strobe's emulator over every pair of edge
// values and random bit patterns, and must match the exact host result bit for bit. A failure
// names the kernel, the input, the expected and the received value.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "conformance/integer_reference.h"
#include "conformance/kernel_runner.h"
#include "e2e/kernel_fixture.h"

namespace strobe::conformance {
namespace {

/// One integer builtin to check, for one element type and build.
struct IntegerCase {
  std::string build_dir, build_label;
  std::string type;  ///< i8, u8, i16, u16, i32, u32, i64, u64
  std::string name;
  int width = 0;
  int arity = 1;
};

/// Names a case in test output as the builtin, its type and widths, and the build.
void PrintTo(const IntegerCase& c, std::ostream* os) {
  *os << c.name << "_" << c.type << " (x1 and x" << c.width << ", " << c.build_label << ")";
}

std::vector<IntegerCase> integer_cases() {
  struct Entry {
    const char* name;
    int width, arity;
    bool only32, upsample;
  };
  static const Entry list[] = {
#define STROBE_INT_UNARY(f, w) {#f, w, 1, false, false},
#define STROBE_INT_BINARY(f, w) {#f, w, 2, false, false},
#define STROBE_INT_TERNARY(f, w) {#f, w, 3, false, false},
#define STROBE_INT24_BINARY(f, w) {#f, w, 2, true, false},
#define STROBE_INT24_TERNARY(f, w) {#f, w, 3, true, false},
#define STROBE_UPSAMPLE(f, w) {#f, w, 2, false, true},
#include "../../kernels/conformance/integer_list.h"
#undef STROBE_INT_UNARY
#undef STROBE_INT_BINARY
#undef STROBE_INT_TERNARY
#undef STROBE_INT24_BINARY
#undef STROBE_INT24_TERNARY
#undef STROBE_UPSAMPLE
  };
  std::vector<IntegerCase> out;
  for (const auto& [dir, label] : conformance_builds())
    for (const std::string type : {"i8", "u8", "i16", "u16", "i32", "u32", "i64", "u64"})
      for (const Entry& e : list) {
        if (e.only32 && type != "i32" && type != "u32") continue;
        if (e.upsample && (type == "i64" || type == "u64")) continue;
        out.push_back({dir, label, type, e.name, e.width, e.arity});
      }
  return out;
}

/// Prints an integer with its bit pattern.
template <typename T>
std::string show(T v) {
  std::ostringstream s;
  if constexpr (std::is_signed_v<T>) s << int64_t(v);
  else s << uint64_t(v);
  s << " (0x" << std::hex << uint64_t(std::make_unsigned_t<T>(v)) << ")";
  return s.str();
}

/// Inputs for `c`: every pair of edge values (the third argument cycling through them), then
/// random bit patterns from a seed fixed per builtin; the count is a multiple of 16. Each input
/// is put into the domain the spec defines the builtin for.
template <typename T>
std::vector<std::vector<T>> make_inputs(const IntegerCase& c) {
  const bool is24 = c.name == "mul24" || c.name == "mad24";
  const T lo = is24 ? (std::is_signed_v<T> ? T(-(1 << 23)) : T(0)) : std::numeric_limits<T>::min();
  const T hi = is24 ? (std::is_signed_v<T> ? T((1 << 23) - 1) : T(0xFFFFFF)) : std::numeric_limits<T>::max();
  const std::vector<T> edges = edge_values<T>(lo, hi), all = edge_values<T>(std::numeric_limits<T>::min(),
                                                                            std::numeric_limits<T>::max());
  std::vector<std::vector<T>> args(3);
  for (T x : edges)
    for (T y : edges) {
      args[0].push_back(x);
      args[1].push_back(y);
      args[2].push_back(all[(args[0].size() * 5) % all.size()]);
    }
  e2e::Rng rng(std::hash<std::string>{}(c.name + c.type));
  while (args[0].size() < 512 || args[0].size() % 16)
    for (auto& a : args) a.push_back(T(rng.next()));
  for (size_t i = 0; i < args[0].size(); ++i) {
    if (is24) args[0][i] = to_24bit(args[0][i]), args[1][i] = to_24bit(args[1][i]);
    // clamp(x, minval, maxval) is undefined for minval > maxval.
    if (c.name == "clamp" && args[1][i] > args[2][i]) std::swap(args[1][i], args[2][i]);
  }
  args.resize(c.arity);
  return args;
}

/// A result where the compiled device library deviates from the specification: hardware runs
/// the same instructions and shows the same value, so the emulator is checked against what the
/// library computes there.
struct LibraryDeviation {
  const char* name;   ///< builtin
  const char* types;  ///< the types it affects: "i32 i64"
  const char* build;  ///< the build it affects, or "" for both
  bool scalar_only;   ///< only the scalar form (the vector forms are other library code)
  /// The library's result at (x, y) for an n-bit type, as the bits of the result.
  Uint128 (*value)(Int128 x, Int128 y, int bits);
};

/// The known deviations, each with what the library computes instead.
const std::vector<LibraryDeviation>& library_deviations() {
  static const std::vector<LibraryDeviation> list = {
      // ROCm 5.2's abs_diff(int, int) is max(x, y) - min(x, y) with a `sub nsw` (and the long
      // form selects between two `sub nsw`s): the IR claims the difference cannot overflow.
      // clang-15 keeps the wrapping subtraction, which gives the right bits; LLVM 19 uses the
      // nsw to rewrite it as abs(x - y), so where x - y overflows the result is |x - y mod 2^n|:
      // abs_diff(INT_MIN, INT_MAX) is 1 (spec: 0xffffffff), abs_diff(1, INT_MIN) is 0x7fffffff.
      // The vector forms are computed per element without the nsw and come out right.
      {"abs_diff", "i32 i64", "clang19_v5", true,
       [](Int128 x, Int128 y, int bits) -> Uint128 {
         const Uint128 mask = (Uint128(1) << bits) - 1, d = Uint128(x - y) & mask;
         const bool negative = (d >> (bits - 1)) & 1;
         return negative ? (Uint128(0) - d) & mask : d;
       }},
  };
  return list;
}

/// The deviation of `c`'s builtin at vector width `width`, if the library has one.
const LibraryDeviation* deviation_of(const IntegerCase& c, int width) {
  for (const LibraryDeviation& d : library_deviations())
    if (c.name == d.name && (width == 1 || !d.scalar_only) && std::string(d.types).find(c.type) != std::string::npos &&
        (*d.build == 0 || c.build_label == d.build))
      return &d;
  return nullptr;
}

class IntegerConformance : public ::testing::TestWithParam<IntegerCase> {
 protected:
  template <typename T>
  void check() {
    const IntegerCase& c = GetParam();
    const std::string object = conformance_object(c.build_dir, "integer_" + c.type);
    if (object.empty()) GTEST_SKIP() << "no integer_" << c.type << ".hsaco (compiler not installed)";
    const auto inputs = make_inputs<T>(c);
    const size_t n = inputs[0].size();
    const bool upsample = c.name == "upsample";
    const size_t out_size = upsample ? 2 * sizeof(T) : sizeof(T);
    KernelRunner run(object);
    std::vector<uint64_t> bufs;
    for (const auto& a : inputs) bufs.push_back(run.upload(a));
    bufs.push_back(run.output<uint8_t>(n * out_size));
    for (int width : {1, c.width}) {
      const std::string kernel = c.name + "_" + c.type + (width > 1 ? "x" + std::to_string(width) : "");
      run.fill(bufs.back(), n * out_size);
      const std::string error = run.launch(kernel, uint32_t(n / width), bufs);
      ASSERT_EQ(error, "");
      const auto bytes = run.template download<uint8_t>(bufs.back(), n * out_size);
      int failures = 0;
      for (size_t i = 0; i < n && failures < 5; ++i) {
        uint64_t got = 0, want = 0;
        std::memcpy(&got, bytes.data() + i * out_size, out_size);
        const T x = inputs[0][i], y = c.arity > 1 ? inputs[1][i] : T(0), z = c.arity > 2 ? inputs[2][i] : T(0);
        if (upsample) {
          want = upsample_ref(x, y);
          if (out_size < 8) want &= (uint64_t(1) << (8 * out_size)) - 1;
        } else {
          want = uint64_t(std::make_unsigned_t<T>(integer_ref<T>(c.name, x, y, z)));
        }
        if (const LibraryDeviation* d = deviation_of(c, width)) want = uint64_t(d->value(x, y, kBits<T>));
        if (got != want) {
          std::ostringstream args;
          for (int a = 0; a < c.arity; ++a) args << (a ? ", " : "") << show(inputs[a][i]);
          ADD_FAILURE() << kernel << "(" << args.str() << "): expected 0x" << std::hex << want << ", got 0x" << got;
          ++failures;
        }
      }
    }
  }
};

TEST_P(IntegerConformance, MatchesTheExactResult) {
  const std::string& t = GetParam().type;
  if (t == "i8") check<int8_t>();
  else if (t == "u8") check<uint8_t>();
  else if (t == "i16") check<int16_t>();
  else if (t == "u16") check<uint16_t>();
  else if (t == "i32") check<int32_t>();
  else if (t == "u32") check<uint32_t>();
  else if (t == "i64") check<int64_t>();
  else check<uint64_t>();
}

INSTANTIATE_TEST_SUITE_P(Builtins, IntegerConformance, ::testing::ValuesIn(integer_cases()), [](const auto& info) {
  return info.param.build_label + "_" + info.param.type + "_" + info.param.name;
});

}  // namespace
}  // namespace strobe::conformance
