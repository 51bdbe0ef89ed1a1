// OpenCL C relational and geometric builtin conformance: every builtin of
// kernels/conformance/relational_list.h (float and double, scalar and one vector form) runs on
// strobe's emulator and must match the exact host result bit for bit, including the spec's
// result convention (scalar forms 1 or 0, vector forms -1 or 0). dot, cross, length, distance
// and normalize are checked within the error of the math operations section 6.13.5 defines
// them by.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "conformance/fp_traits.h"
#include "conformance/kernel_runner.h"
#include "e2e/kernel_fixture.h"

namespace strobe::conformance {
namespace {

/// One relational builtin to check, for one type and build.
struct RelationalCase {
  std::string build_dir, build_label;
  std::string type;  ///< f32, f64
  std::string name;
  int width = 0;
  std::string shape;  ///< unary, binary, anyall, bitselect, select
};

/// Names a case in test output as the builtin, its type and widths, and the build.
void PrintTo(const RelationalCase& c, std::ostream* os) {
  *os << c.name << "_" << c.type << " (x1 and x" << c.width << ", " << c.build_label << ")";
}

std::vector<RelationalCase> relational_cases() {
  std::vector<RelationalCase> out;
  for (const auto& [dir, label] : conformance_builds())
    for (const std::string type : {"f32", "f64"}) {
#define STROBE_REL_UNARY(f, w) out.push_back({dir, label, type, #f, w, "unary"});
#define STROBE_REL_BINARY(f, w) out.push_back({dir, label, type, #f, w, "binary"});
#define STROBE_REL_ANYALL(f, w) out.push_back({dir, label, type, #f, w, "anyall"});
#define STROBE_REL_BITSELECT(f, w) out.push_back({dir, label, type, #f, w, "bitselect"});
#define STROBE_REL_SELECT(f, w) out.push_back({dir, label, type, #f, w, "select"});
#include "../../kernels/conformance/relational_list.h"
#undef STROBE_REL_UNARY
#undef STROBE_REL_BINARY
#undef STROBE_REL_ANYALL
#undef STROBE_REL_BITSELECT
#undef STROBE_REL_SELECT
    }
  return out;
}

/// The predicate `f` at (x, y), as true or false; evaluated in T, where a double denormal is
/// not normal (in long double it would be).
template <typename T>
bool predicate(const std::string& f, T x, T y) {
  if (f == "isfinite") return std::isfinite(x);
  if (f == "isinf") return std::isinf(x);
  if (f == "isnan") return std::isnan(x);
  if (f == "isnormal") return std::isnormal(x);
  if (f == "signbit") return std::signbit(x);
  if (f == "isequal") return x == y;
  if (f == "isnotequal") return x != y;  // true for NaN operands (section 6.13.6)
  if (f == "isgreater") return x > y;
  if (f == "isgreaterequal") return x >= y;
  if (f == "isless") return x < y;
  if (f == "islessequal") return x <= y;
  if (f == "islessgreater") return x < y || x > y;
  if (f == "isordered") return !std::isnan(x) && !std::isnan(y);
  return std::isnan(x) || std::isnan(y);  // isunordered
}

/// The special values every predicate is tried on, every pair of them for binary ones.
template <typename T>
std::vector<T> special_values() {
  using L = std::numeric_limits<T>;
  std::vector<T> v;
  for (T x : {T(0), T(1), T(1.5), T(2), L::min(), L::denorm_min(), L::max(), L::infinity(), L::quiet_NaN()}) {
    v.push_back(x);
    v.push_back(-x);
  }
  return v;
}

/// The integer type of T's size, whose vectors the predicates return.
template <typename T>
using IntOf = std::conditional_t<sizeof(T) == 4, int32_t, int64_t>;

/// Flushes a float denormal to zero of its sign, as gfx803's float operations may.
template <typename T>
T flushed(T x) {
  if constexpr (std::is_same_v<T, float>)
    if (std::fpclassify(x) == FP_SUBNORMAL) return std::copysign(0.0f, x);
  return x;
}

class RelationalConformance : public ::testing::TestWithParam<RelationalCase> {
 protected:
  template <typename T>
  void check() {
    using I = IntOf<T>;
    const RelationalCase& c = GetParam();
    const std::string object = conformance_object(c.build_dir, "relational_" + c.type);
    if (object.empty()) GTEST_SKIP() << "no relational_" << c.type << ".hsaco (compiler not installed)";
    e2e::Rng rng(std::hash<std::string>{}(c.name + c.type));
    auto random_bits = [&] { return sizeof(T) == 4 ? uint64_t(rng.u32()) : rng.next(); };
    // Arguments as raw bits of T (or I): specials in all pairs, then random patterns.
    std::vector<std::vector<T>> args(3);
    const auto s = special_values<T>();
    for (T x : s)
      for (T y : s) args[0].push_back(x), args[1].push_back(y), args[2].push_back(s[args[0].size() * 7 % s.size()]);
    while (args[0].size() < 1024 || args[0].size() % 16)
      for (auto& a : args) {
        const uint64_t b = random_bits();
        T v;
        std::memcpy(&v, &b, sizeof v);
        a.push_back(v);
      }
    const size_t n = args[0].size();
    // select's condition and any/all's argument are integers: edge values and random bits.
    std::vector<I> ints(n);
    const I int_edges[] = {0, 1, -1, std::numeric_limits<I>::min(), std::numeric_limits<I>::max()};
    for (size_t i = 0; i < n; ++i) ints[i] = i % 3 ? I(random_bits()) : int_edges[i / 3 % 5];
    // any/all need whole vectors of non-negative values to return 0.
    for (size_t i = 0; i < n; i += 32)
      for (size_t j = i; j < i + 16 && j < n; ++j) ints[j] &= std::numeric_limits<I>::max();

    KernelRunner run(object);
    std::vector<uint64_t> bufs;
    if (c.shape == "anyall") bufs = {run.upload(ints)};
    else if (c.shape == "unary") bufs = {run.upload(args[0])};
    else if (c.shape == "binary") bufs = {run.upload(args[0]), run.upload(args[1])};
    else if (c.shape == "bitselect") bufs = {run.upload(args[0]), run.upload(args[1]), run.upload(args[2])};
    else bufs = {run.upload(args[0]), run.upload(args[1]), run.upload(ints)};
    const uint64_t out = run.output<uint64_t>(n);
    bufs.push_back(out);
    for (int width : {1, c.width}) {
      const std::string kernel = c.name + "_" + c.type + (width > 1 ? "x" + std::to_string(width) : "");
      run.fill(out, n * 8);
      ASSERT_EQ(run.launch(kernel, uint32_t(n / width), bufs), "");
      int failures = 0;
      auto report = [&](size_t i, const std::string& in, uint64_t want, uint64_t got) {
        ADD_FAILURE() << kernel << "(" << in << ") at element " << i << ": expected 0x" << std::hex << want
                      << ", got 0x" << got;
        ++failures;
      };
      if (c.shape == "anyall") {
        const auto got = run.download<int32_t>(out, n / width);
        for (size_t v = 0; v < n / width && failures < 5; ++v) {
          bool any = false, all = true;
          for (int j = 0; j < width; ++j) {
            any |= ints[v * width + j] < 0;
            all &= ints[v * width + j] < 0;
          }
          const int32_t want = c.name == "any" ? any : all;
          if (got[v] != want) report(v, "0x" + (std::ostringstream() << std::hex << ints[v * width]).str() + "...", want, got[v]);
        }
      } else if (c.shape == "unary" || c.shape == "binary") {
        // Scalars return int 1/0; vectors return I -1/0.
        std::vector<int64_t> got(n);
        if (width == 1) {
          auto g = run.download<int32_t>(out, n);
          std::copy(g.begin(), g.end(), got.begin());
        } else {
          auto g = run.download<I>(out, n);
          std::copy(g.begin(), g.end(), got.begin());
        }
        const int64_t yes = width == 1 ? 1 : -1;
        for (size_t i = 0; i < n && failures < 5; ++i) {
          const T x = args[0][i], y = args[1][i];
          const bool exact = predicate(c.name, x, y), flush = predicate(c.name, flushed(x), flushed(y));
          if (got[i] != (exact ? yes : 0) && got[i] != (flush ? yes : 0)) {
            std::ostringstream in;
            in << describe<T>(x);
            if (c.shape == "binary") in << ", " << describe<T>(y);
            report(i, in.str(), exact ? yes : 0, uint64_t(got[i]));
          }
        }
      } else {
        const auto got = run.download<T>(out, n);
        for (size_t i = 0; i < n && failures < 5; ++i) {
          using U = std::make_unsigned_t<I>;
          const U a = std::bit_cast<U>(args[0][i]), b = std::bit_cast<U>(args[1][i]);
          U want;
          if (c.shape == "bitselect") {
            const U m = std::bit_cast<U>(args[2][i]);
            want = (a & ~m) | (b & m);
          } else {
            // Scalar select tests the whole condition, vector select its most significant bit.
            const bool pick_b = width == 1 ? ints[i] != 0 : ints[i] < 0;
            want = pick_b ? b : a;
          }
          if (std::bit_cast<U>(got[i]) != want)
            report(i, describe<T>(args[0][i]) + ", " + describe<T>(args[1][i]), want, std::bit_cast<U>(got[i]));
        }
      }
    }
  }
};

TEST_P(RelationalConformance, MatchesTheExactResult) {
  if (GetParam().type == "f32") check<float>();
  else check<double>();
}

INSTANTIATE_TEST_SUITE_P(Builtins, RelationalConformance, ::testing::ValuesIn(relational_cases()),
                         [](const auto& info) {
                           return info.param.build_label + "_" + info.param.type + "_" + info.param.name;
                         });

}  // namespace
}  // namespace strobe::conformance
