// End-to-end: kernels that call functions outside their own symbol (direct, deep, recursive,
// indirect, and code built at -O0), against CPU references, functionally and in timing mode.
#include <algorithm>
#include <bit>

#include "e2e/kernel_fixture.h"
#include "sampling/method.h"
#include "timing/config/gpu_config.h"

namespace strobe::e2e {
namespace {

class CallKernels : public KernelTest {};
STROBE_E2E_SUITE(CallKernels);

// ---- CPU references (the kernels' arithmetic, in the same order) ----

uint32_t mix(uint32_t x, uint32_t y) {
  x ^= y * 0x9E3779B9u;
  return std::rotl(x, 7) + y;
}

struct Live {
  uint32_t v[16];
  explicit Live(uint32_t s)
      : v{s * 3u + 1u, s ^ 0x55u, s * 7u,        s + 11u,  s * s,     s >> 3,  s * 13u + 5u,   ~s,
          s * 17u,     s ^ 0xA5A5u, s + 0x1000u, s * 29u,  s << 2,    s * 31u + 7u, s ^ 0x0F0Fu, s * 37u} {}
  uint32_t sum() const {
    uint32_t r = v[0];
    for (uint32_t k = 1; k < 16; ++k) r ^= v[k] * (2 * k + 1);
    return r;
  }
};

uint32_t leaf(uint32_t s) { return s * 0x01000193u ^ (s >> 11); }
uint32_t level3(uint32_t s) { return leaf(s + 3u) + Live(s).sum(); }
uint32_t level2(uint32_t s) { return level3(s * 5u + 2u) ^ Live(s).sum(); }
uint32_t level1(uint32_t s) { return level2(s ^ 0x3Cu) * 3u + Live(s).sum(); }
uint32_t tree(uint32_t x, uint32_t depth) {
  if (depth == 0) return x & 0xFFu;
  return tree(x * 1103515245u + 12345u, depth - 1) * 31u + tree(x ^ (x >> 7), depth - 1) + depth;
}

int mirror(int i, int n) {
  if (i < 0) i = -i;
  if (i >= n) i = 2 * n - 2 - i;
  return i;
}

/// One row pass of the CDF 5/3 forward lifting transform: low-pass half, then high-pass half.
std::vector<int32_t> fdwt53_rows(const std::vector<int32_t>& in, int width, int height) {
  std::vector<int32_t> out(in.size());
  const int half = width / 2;
  for (int y = 0; y < height; ++y) {
    const int32_t* row = &in[size_t(y * width)];
    for (int i = 0; i < half; ++i) {
      const int x0 = row[mirror(2 * i, width)], x1 = row[mirror(2 * i + 1, width)], x2 = row[mirror(2 * i + 2, width)];
      const int xm1 = row[mirror(2 * i - 1, width)], xm2 = row[mirror(2 * i - 2, width)];
      const int d = x1 - ((x0 + x2) >> 1), dm = xm1 - ((xm2 + x0) >> 1);
      out[size_t(y * width + i)] = x0 + ((dm + d + 2) >> 2);
      out[size_t(y * width + half + i)] = d;
    }
  }
  return out;
}

// ---- the tests ----

TEST_P(CallKernels, NoinlineHelpersCalledInALoopMatchCpu) {
  const uint32_t n = 300;
  Rng rng(41);
  std::vector<float> x(n);
  std::vector<uint32_t> k(n);
  for (auto& v : x) v = rng.uniform(-100.f, 100.f);
  for (auto& v : k) v = rng.u32();
  auto& m = load("calls_noinline");
  uint64_t dx = upload(x), dk = upload(k), df = zeros<float>(n), du = zeros<uint32_t>(n);
  launch(m, "calls_noinline", {320, 1, 1}, {64, 1, 1},
         {ArgValue::buffer(dx), ArgValue::buffer(dk), ArgValue::buffer(df), ArgValue::buffer(du), ArgValue::scalar(n)});
  auto f = download<float>(df, n);
  auto u = download<uint32_t>(du, n);
  for (uint32_t i = 0; i < n; ++i) {
    float v = x[i];
    uint32_t h = k[i];
    for (uint32_t r = 0; r < 4; ++r) {
      v = v * 0.5f + float(r);  // the product is exact, so fused or not rounds the same
      h = mix(h, r + i);
    }
    ASSERT_EQ(f[i], v) << "i=" << i;
    ASSERT_EQ(u[i], h) << "i=" << i;
  }
}

/// Runs calls_deep on `dev` and checks both outputs against the CPU; returns the launch.
runtime::LaunchResult run_deep(runtime::Device& dev, const std::filesystem::path& dir) {
  const uint32_t n = 500;
  Rng rng(42);
  std::vector<uint32_t> in(n);
  for (auto& v : in) v = rng.u32();
  auto& m = dev.load((dir / "calls_deep.hsaco").string());
  uint64_t di = dev.malloc(n * 4), dc = dev.malloc(n * 4), dt = dev.malloc(n * 4);
  dev.copy_to_device(di, in.data(), n * 4);
  runtime::LaunchConfig cfg;
  cfg.grid = {512, 1, 1};
  cfg.local = {128, 1, 1};
  cfg.args = {ArgValue::buffer(di), ArgValue::buffer(dc), ArgValue::buffer(dt), ArgValue::scalar(n)};
  runtime::LaunchResult r = dev.launch(m, "calls_deep", cfg);
  std::vector<uint32_t> chain(n), tr(n);
  dev.copy_to_host(chain.data(), dc, n * 4);
  dev.copy_to_host(tr.data(), dt, n * 4);
  for (uint32_t i = 0; i < n; ++i) {
    EXPECT_EQ(chain[i], level1(in[i]) + Live(in[i]).sum()) << "i=" << i;
    EXPECT_EQ(tr[i], tree(in[i], in[i] % 6u)) << "i=" << i;
    if (::testing::Test::HasFailure()) break;
  }
  return r;
}

TEST_P(CallKernels, DeepCallChainAndRecursionKeepLiveRegistersOnTheStack) { run_deep(dev_, dir_); }

TEST_P(CallKernels, IndirectCallsThroughPerLaneFunctionPointers) {
  const uint32_t n = 257;
  Rng rng(43);
  std::vector<int32_t> a(n), b(n), expect(n);
  std::vector<uint32_t> sel(n);
  for (uint32_t i = 0; i < n; ++i) {
    a[i] = int32_t(rng.u32() % 20001) - 10000;
    b[i] = int32_t(rng.u32() % 201) - 100;
    sel[i] = rng.u32();
    switch (sel[i] & 3) {
      case 0: expect[i] = a[i] + b[i]; break;
      case 1: expect[i] = a[i] * b[i]; break;
      case 2: expect[i] = a[i] - b[i]; break;
      default: expect[i] = std::max(a[i], b[i]); break;
    }
  }
  auto& m = load("calls_indirect");
  uint64_t da = upload(a), db = upload(b), ds = upload(sel), dout = zeros<int32_t>(n);
  launch(m, "calls_indirect", {320, 1, 1}, {64, 1, 1},
         {ArgValue::buffer(da), ArgValue::buffer(db), ArgValue::buffer(ds), ArgValue::buffer(dout), ArgValue::scalar(n)});
  EXPECT_EQ(download<int32_t>(dout, n), expect);
}

/// Runs cl_fdwt53Kernel on `dev` over a width x height image and checks it against the CPU.
runtime::LaunchResult run_fdwt53(runtime::Device& dev, const std::filesystem::path& dir) {
  const int width = 200, height = 7;
  Rng rng(44);
  std::vector<int32_t> img(size_t(width * height));
  for (auto& v : img) v = int32_t(rng.u32() % 256);
  auto& m = dev.load((dir / "calls_fdwt53.hsaco").string());
  uint64_t di = dev.malloc(img.size() * 4), dout = dev.malloc(img.size() * 4);
  dev.copy_to_device(di, img.data(), img.size() * 4);
  runtime::LaunchConfig cfg;
  cfg.grid = {64 * height, 1, 1};
  cfg.local = {64, 1, 1};
  cfg.args = {ArgValue::buffer(di), ArgValue::buffer(dout), ArgValue::local(width * 4), ArgValue::scalar(width)};
  runtime::LaunchResult r = dev.launch(m, "cl_fdwt53Kernel", cfg);
  std::vector<int32_t> out(img.size());
  dev.copy_to_host(out.data(), dout, out.size() * 4);
  EXPECT_EQ(out, fdwt53_rows(img, width, height));
  return r;
}

// Regression: the call to the out-of-line lifting step faulted with "jump to 0x...: not an
// instruction of this kernel" because only the kernel symbol's bytes were decoded.
TEST_P(CallKernels, Fdwt53CallToFunctionOutsideKernelSymbolRuns) { run_fdwt53(dev_, dir_); }

TEST_P(CallKernels, TimingModeRunsCallsWithFunctionalResultsAndCycles) {
  timing::GpuConfig cfg = timing::load_config("r9nano");
  timing::apply_override(cfg, "gpu.num_cus=4");
  dev_.enable_timing(cfg);
  for (const runtime::LaunchResult& r : {run_deep(dev_, dir_), run_fdwt53(dev_, dir_)}) {
    ASSERT_TRUE(r.timing) << r.kernel;
    EXPECT_GT(r.timing->cycles, 0u) << r.kernel;
    runtime::Device functional;
    const runtime::LaunchResult f =
        r.kernel == "calls_deep" ? run_deep(functional, dir_) : run_fdwt53(functional, dir_);
    EXPECT_EQ(r.timing->functional.wave_instructions, f.stats.wave_instructions) << r.kernel;
  }
}

TEST_P(CallKernels, SamplingMethodsRunCallingKernels) {
  // The methods' basic-block analyses see calls and returns end blocks in callee code.
  timing::GpuConfig cfg = timing::load_config("r9nano");
  timing::apply_override(cfg, "gpu.num_cus=4");
  for (const char* name : {"photon", "pka", "tbpoint"}) {
    auto method = sampling::make_method(name, cfg, {}, false);
    runtime::LaunchResult r;
    for (int pass = 0; pass < method->passes(); ++pass) {  // pka and tbpoint profile first
      // A fresh device per pass, as a benchmark run has: the same allocations give the same
      // kernel arguments, which tbpoint checks against its profile.
      runtime::Device dev;
      dev.enable_timing(cfg);
      dev.set_dispatch_runner(&method->runner(pass));
      r = run_deep(dev, dir_);
      method->end_pass(pass);
    }
    ASSERT_TRUE(r.sampling && r.timing) << name;
    EXPECT_GT(r.timing->cycles, 0u) << name;
  }
}

// ---- kernels/O0: built without optimisation ----

class UnoptimisedCallKernels : public KernelTest {};
INSTANTIATE_TEST_SUITE_P(O0Builds, UnoptimisedCallKernels,
                         ::testing::Values(KernelBuild{"kernels/O0", "clang14_v4_O0"},
                                           KernelBuild{"kernels-clang19/O0", "clang19_v5_O0"}),
                         [](const auto& info) { return info.param.label; });

TEST_P(UnoptimisedCallKernels, EveryHelperOutOfLineAtO0MatchesCpu) {
  const uint32_t n = 150;
  Rng rng(45);
  std::vector<float> x(n);
  std::vector<uint32_t> v(n);
  for (auto& e : x) e = float(int(rng.u32() % 33) - 16) * 0.25f;  // dyadic: every step is exact
  for (auto& e : v) e = rng.u32() % 10000 + 1;
  auto& m = load("calls_O0");
  uint64_t dx = upload(x), dv = upload(v), df = zeros<float>(n), du = zeros<uint32_t>(n);
  launch(m, "calls_O0", {192, 1, 1}, {64, 1, 1},
         {ArgValue::buffer(dx), ArgValue::buffer(dv), ArgValue::buffer(df), ArgValue::buffer(du), ArgValue::scalar(n)});
  auto f = download<float>(df, n);
  auto u = download<uint32_t>(du, n);
  for (uint32_t i = 0; i < n; ++i) {
    float acc = 0.0f;
    for (int t = 4; t >= 0; --t) acc = acc * x[i] + float(t + 1);
    uint32_t s = 0, w = v[i];
    while (w != 1u && s < 200u) {
      w = (w & 1u) ? 3u * w + 1u : w >> 1;
      ++s;
    }
    ASSERT_EQ(f[i], acc) << "i=" << i;
    ASSERT_EQ(u[i], s) << "i=" << i;
  }
}

}  // namespace
}  // namespace strobe::e2e
