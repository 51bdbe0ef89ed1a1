// Comparison of device outputs with CPU references: exact for integers, a stated tolerance for
// floats; a failure names the output, the first mismatching index, expected and got.
#pragma once

#include <cmath>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include <fmt/core.h>

#include "common/error.h"

namespace strobe::workloads {

/// A benchmark's output differs from its reference. Exit status 1.
class VerificationError : public Error {
 public:
  explicit VerificationError(const std::string& what) : Error(ExitCode::Failure, "verification failed: " + what) {}
};

/// Throws VerificationError unless `got` equals `expected` element for element.
template <typename T>
void expect_equal(const std::string& output, const std::vector<T>& got, const std::vector<T>& expected) {
  if (got.size() != expected.size())
    throw VerificationError(fmt::format("{}: {} elements, expected {}", output, got.size(), expected.size()));
  size_t first = got.size(), count = 0;
  for (size_t i = 0; i < got.size(); ++i)
    if (!(got[i] == expected[i])) {
      if (first == got.size()) first = i;
      ++count;
    }
  if (count == 0) return;
  using P = std::conditional_t<std::is_integral_v<T> && sizeof(T) < sizeof(int), int64_t, T>;
  throw VerificationError(fmt::format("{}[{}]: expected {}, got {} ({} of {} elements differ)", output, first,
                                      P(expected[first]), P(got[first]), count, got.size()));
}

/// Throws VerificationError unless |got - expected| <= abs_tol + rel_tol * |expected| everywhere
/// (NaN never matches).
template <typename T>
void expect_close(const std::string& output, const std::vector<T>& got, const std::vector<T>& expected,
                  double rel_tol, double abs_tol) {
  if (got.size() != expected.size())
    throw VerificationError(fmt::format("{}: {} elements, expected {}", output, got.size(), expected.size()));
  size_t first = got.size(), count = 0;
  for (size_t i = 0; i < got.size(); ++i) {
    double g = double(got[i]), e = double(expected[i]);
    if (!(std::fabs(g - e) <= abs_tol + rel_tol * std::fabs(e))) {
      if (first == got.size()) first = i;
      ++count;
    }
  }
  if (count == 0) return;
  throw VerificationError(fmt::format("{}[{}]: expected {:.9g}, got {:.9g} (tolerance {:g} relative + {:g} absolute; "
                                      "{} of {} elements differ)",
                                      output, first, double(expected[first]), double(got[first]), rel_tol, abs_tol,
                                      count, got.size()));
}

}  // namespace strobe::workloads

namespace strobe::workloads {

/// Higham's gamma(n) = n u / (1 - n u) for float (u = 2^-24): a float sum whose every term went
/// through at most `n` roundings lies within gamma(n) * sum |terms| of the exact sum.
inline double float_rounding_bound(double n) {
  const double nu = n * 0x1p-24;
  return nu / (1 - nu);
}

/// A float matrix product computed in double, with each element's sum of |terms|: the reference
/// and, scaled by float_rounding_bound(), the bound of a float computation of it.
struct ExactProduct {
  std::vector<double> value, magnitude;
};

/// A (rows x inner) times B (inner x cols), both row-major, in double.
inline ExactProduct exact_product(const std::vector<float>& a, const std::vector<float>& b, uint32_t rows,
                                  uint32_t inner, uint32_t cols) {
  ExactProduct p{std::vector<double>(size_t(rows) * cols, 0.0), std::vector<double>(size_t(rows) * cols, 0.0)};
  for (uint32_t i = 0; i < rows; ++i)
    for (uint32_t k = 0; k < inner; ++k) {
      const double x = a[size_t(i) * inner + k];
      for (uint32_t j = 0; j < cols; ++j) {
        const double t = x * b[size_t(k) * cols + j];
        p.value[size_t(i) * cols + j] += t;
        p.magnitude[size_t(i) * cols + j] += std::fabs(t);
      }
    }
  return p;
}

/// Throws VerificationError unless |got[i] - expected[i]| <= bound[i] everywhere; for results
/// whose error bound depends on the element (e.g. a dot product's sum of |terms|).
template <typename T>
void expect_within(const std::string& output, const std::vector<T>& got, const std::vector<double>& expected,
                   const std::vector<double>& bound) {
  if (got.size() != expected.size())
    throw VerificationError(fmt::format("{}: {} elements, expected {}", output, got.size(), expected.size()));
  size_t first = got.size(), count = 0;
  for (size_t i = 0; i < got.size(); ++i)
    if (!(std::fabs(double(got[i]) - expected[i]) <= bound[i])) {
      if (first == got.size()) first = i;
      ++count;
    }
  if (count == 0) return;
  throw VerificationError(fmt::format("{}[{}]: expected {:.9g}, got {:.9g} (bound {:.3g}; {} of {} elements differ)",
                                      output, first, expected[first], double(got[first]), bound[first], count,
                                      got.size()));
}

}  // namespace strobe::workloads
