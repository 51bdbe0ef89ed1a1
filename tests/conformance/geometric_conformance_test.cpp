// OpenCL C geometric builtin conformance: dot, cross, length, distance and normalize of
// kernels/conformance/relational_kernels.h (float and double, 2 to 4 elements) run on strobe's
// emulator over random vectors and are checked against a long double reference. Section 6.13.5
// defines them by arithmetic and sqrt (length(p) = sqrt(p.x^2 + ...), distance(p0, p1) =
// length(p0 - p1), normalize(p) = p / length(p)), so the tolerance is the error those
// operations may add: 0.5 ulp per correctly rounded +, -, *, the sqrt and division bounds of
// section 7.4 (float: 3 and 2.5 ulp; double: correctly rounded), and for dot and cross, whose
// sums may cancel, the classic bound n * u * sum |x_i * y_i| (u the unit roundoff).
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "conformance/fp_traits.h"
#include "conformance/kernel_runner.h"
#include "e2e/kernel_fixture.h"

namespace strobe::conformance {
namespace {

/// One geometric builtin at one vector size, type and build.
struct GeometricCase {
  std::string build_dir, build_label;
  std::string type;  ///< f32, f64
  std::string name;
  int n = 0;  ///< elements per vector
};

/// Names a case in test output as the builtin, its type and size, and the build.
void PrintTo(const GeometricCase& c, std::ostream* os) {
  *os << c.name << "_" << c.type << "x" << c.n << " (" << c.build_label << ")";
}

std::vector<GeometricCase> geometric_cases() {
  std::vector<GeometricCase> out;
  for (const auto& [dir, label] : conformance_builds())
    for (const std::string type : {"f32", "f64"}) {
      for (const std::string f : {"dot", "length", "distance", "normalize"})
        for (int n : {2, 3, 4}) out.push_back({dir, label, type, f, n});
      for (int n : {3, 4}) out.push_back({dir, label, type, "cross", n});
    }
  return out;
}

class GeometricConformance : public ::testing::TestWithParam<GeometricCase> {
 protected:
  template <typename T>
  void check() {
    const GeometricCase& c = GetParam();
    const std::string object = conformance_object(c.build_dir, "relational_" + c.type);
    if (object.empty()) GTEST_SKIP() << "no relational_" << c.type << ".hsaco (compiler not installed)";
    const size_t vectors = 512, n = size_t(c.n);
    e2e::Rng rng(std::hash<std::string>{}(c.name + c.type + std::to_string(n)));
    // Random components of both signs over 2^-20 .. 2^20, so no product is denormal (float
    // denormals are flushed) or overflows; the first vector is all zeros.
    std::vector<T> x(vectors * n), y(vectors * n);
    for (size_t i = n; i < x.size(); ++i) {
      x[i] = T(rng.uniform_d(-1, 1) * std::ldexp(1.0, int(rng.u32() % 41) - 20));
      y[i] = T(rng.uniform_d(-1, 1) * std::ldexp(1.0, int(rng.u32() % 41) - 20));
    }
    const bool vector_result = c.name == "normalize" || c.name == "cross";
    KernelRunner run(object);
    const uint64_t xb = run.upload(x), yb = run.upload(y), out = run.output<T>(vectors * n);
    const std::string kernel = c.name + "_" + c.type + "x" + std::to_string(n);
    ASSERT_EQ(run.launch(kernel, uint32_t(vectors), {xb, yb, out}), "");
    const auto got = run.download<T>(out, vectors * n);

    const long double u = std::ldexp(1.0L, -Fp<T>::kMantissa - 1);
    const bool is_float = sizeof(T) == 4;
    const double sqrt_ulp = is_float ? 3 : 0.5, div_ulp = is_float ? 2.5 : 0.5;
    int failures = 0;
    for (size_t v = 0; v < vectors && failures < 5; ++v) {
      const T* p = &x[v * n];
      const T* q = &y[v * n];
      long double ss = 0, dd = 0, dot = 0, dot_abs = 0;
      for (size_t j = 0; j < n; ++j) {
        ss += (long double)p[j] * p[j];
        dd += ((long double)p[j] - q[j]) * ((long double)p[j] - q[j]);
        dot += (long double)p[j] * q[j];
        dot_abs += std::fabs((long double)p[j] * q[j]);
      }
      std::vector<long double> want;
      std::vector<long double> abs_tol;  // absolute tolerance per result element
      const double len_ulp = sqrt_ulp + 0.5 * n;
      if (c.name == "dot") want = {dot}, abs_tol = {n * u * dot_abs};
      if (c.name == "length") want = {std::sqrt(ss)}, abs_tol = {len_ulp * ulp_of<T>(std::sqrt(ss))};
      if (c.name == "distance") want = {std::sqrt(dd)}, abs_tol = {(len_ulp + 1) * ulp_of<T>(std::sqrt(dd))};
      if (c.name == "normalize")
        for (size_t j = 0; j < n; ++j) {
          // normalize of the zero vector is the zero vector (section 6.13.5).
          want.push_back(ss == 0 ? 0.0L : p[j] / std::sqrt(ss));
          abs_tol.push_back((len_ulp + div_ulp) * ulp_of<T>(want.back()));
        }
      if (c.name == "cross") {
        const long double a[3] = {p[0], p[1], p[2]}, b[3] = {q[0], q[1], q[2]};
        for (int j = 0; j < 3; ++j) {
          const int k = (j + 1) % 3, l = (j + 2) % 3;
          want.push_back(a[k] * b[l] - a[l] * b[k]);
          abs_tol.push_back(2 * u * (std::fabs(a[k] * b[l]) + std::fabs(a[l] * b[k])));
        }
        if (n == 4) want.push_back(0), abs_tol.push_back(0);  // the w of a float4 cross is 0
      }
      for (size_t j = 0; j < want.size() && failures < 5; ++j) {
        const long double g = got[vector_result ? v * n + j : v];
        if (!(std::fabs(g - want[j]) <= abs_tol[j])) {
          std::ostringstream in;
          for (size_t k = 0; k < n; ++k) in << (k ? ", " : "(") << describe<T>(p[k]);
          in << ")";
          if (c.name != "length" && c.name != "normalize") {
            for (size_t k = 0; k < n; ++k) in << (k ? ", " : ", (") << describe<T>(q[k]);
            in << ")";
          }
          ADD_FAILURE() << kernel << in.str() << " element " << j << ": expected " << double(want[j]) << " within "
                        << double(abs_tol[j]) << ", got " << describe<T>(T(g));
          ++failures;
        }
      }
    }
  }
};

TEST_P(GeometricConformance, WithinTheErrorOfItsDefinition) {
  if (GetParam().type == "f32") check<float>();
  else check<double>();
}

INSTANTIATE_TEST_SUITE_P(Builtins, GeometricConformance, ::testing::ValuesIn(geometric_cases()), [](const auto& info) {
  return info.param.build_label + "_" + info.param.type + "_" + info.param.name + std::to_string(info.param.n);
});

}  // namespace
}  // namespace strobe::conformance
