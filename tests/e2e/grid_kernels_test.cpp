// End-to-end: regular kernels over 1D/2D/3D grids with partial work-groups, against CPU references.
#include <cmath>

#include "e2e/kernel_fixture.h"

namespace strobe::e2e {
namespace {

class GridKernels : public KernelTest {};
STROBE_E2E_SUITE(GridKernels);

TEST_P(GridKernels, VecaddMatchesCpuWithPartialLastGroup) {
  const uint32_t n = 1000;  // 15 full groups of 64 and one of 40
  Rng rng(1);
  std::vector<float> a(n), b(n);
  for (uint32_t i = 0; i < n; ++i) a[i] = rng.uniform(-100, 100), b[i] = rng.uniform(-100, 100);
  auto& m = load("vecadd");
  uint64_t da = upload(a), db = upload(b), dc = zeros<float>(n);
  auto r = launch(m, "vecadd", {n, 1, 1}, {64, 1, 1},
                  {ArgValue::buffer(da), ArgValue::buffer(db), ArgValue::buffer(dc), ArgValue::scalar(n)});
  auto c = download<float>(dc, n);
  for (uint32_t i = 0; i < n; ++i) ASSERT_EQ(std::bit_cast<uint32_t>(c[i]), std::bit_cast<uint32_t>(a[i] + b[i])) << i;
  EXPECT_EQ(r.stats.workgroups, 16u);
  EXPECT_EQ(r.stats.wavefronts, 16u);
  EXPECT_GT(r.stats.wave_instructions, 0u);
  EXPECT_LE(r.stats.thread_instructions, r.stats.wave_instructions * 64);
}

TEST_P(GridKernels, SaxpyUsesByValueFloat) {
  const uint32_t n = 777;
  Rng rng(2);
  std::vector<float> x(n), y(n);
  for (uint32_t i = 0; i < n; ++i) x[i] = rng.uniform(-4, 4), y[i] = rng.uniform(-4, 4);
  auto& m = load("saxpy");
  uint64_t dx = upload(x), dy = upload(y);
  const float a = 2.5f;
  launch(m, "saxpy", {n, 1, 1}, {128, 1, 1},
         {ArgValue::scalar(a), ArgValue::buffer(dx), ArgValue::buffer(dy), ArgValue::scalar(n)});
  auto out = download<float>(dy, n);
  // a*x+y becomes v_mac_f32: multiply and add, each rounded (not fused).
  for (uint32_t i = 0; i < n; ++i) ASSERT_EQ(out[i], a * x[i] + y[i]) << i;
}

TEST_P(GridKernels, Grid3dCoversEveryWorkItemOncePartialInAllDims) {
  const uint32_t nx = 19, ny = 7, nz = 5;
  const runtime::Dim3 local{4, 3, 2};
  auto& m = load("grid3d");
  uint64_t d = zeros<uint32_t>(nx * ny * nz);
  launch(m, "grid3d", {nx, ny, nz}, local, {ArgValue::buffer(d), ArgValue::scalar(nx), ArgValue::scalar(ny), ArgValue::scalar(nz)});
  auto out = download<uint32_t>(d, nx * ny * nz);
  for (uint32_t z = 0; z < nz; ++z)
    for (uint32_t y = 0; y < ny; ++y)
      for (uint32_t x = 0; x < nx; ++x) {
        auto lsize = [&](uint32_t g, uint32_t wg, uint32_t n) { return std::min(wg, n - g * wg); };
        uint32_t ls = lsize(x / local[0], local[0], nx) * lsize(y / local[1], local[1], ny) * lsize(z / local[2], local[2], nz);
        uint32_t groups_y = (ny + local[1] - 1) / local[1];
        uint32_t expect = (x * 7u) ^ (y * 131u) ^ (z * 8191u) ^ ((x % local[0]) << 20) ^ ((z / local[2]) << 26) ^ ls ^
                          (groups_y << 16);
        ASSERT_EQ(out[(z * ny + y) * nx + x], expect) << x << "," << y << "," << z;
      }
}

TEST_P(GridKernels, StructByValueAndConstantTable) {
  struct Params { float scale; int32_t shift; uint32_t mask; float bias; } p{1.5f, 3, 0x3f, -0.25f};
  const uint32_t n = 300;
  Rng rng(3);
  std::vector<float> table(16);
  for (auto& t : table) t = rng.uniform(-1, 1);
  std::vector<uint32_t> in(n);
  for (auto& v : in) v = rng.u32();
  auto& m = load("struct_arg");
  uint64_t dt = upload(table), di = upload(in), dout = zeros<float>(n);
  launch(m, "struct_arg", {n, 1, 1}, {64, 1, 1},
         {ArgValue::scalar(p), ArgValue::buffer(dt), ArgValue::buffer(di), ArgValue::buffer(dout), ArgValue::scalar(n)});
  auto out = download<float>(dout, n);
  for (uint32_t i = 0; i < n; ++i) {
    uint32_t v = (in[i] >> p.shift) & p.mask;
    ASSERT_EQ(out[i], table[v % 16] * p.scale + p.bias) << i;  // v_mac_f32: unfused
  }
}

// Regression: the code object was not loaded into device memory, so a program-scope __constant
// table (reached through s_getpc + a link-time offset) faulted as an unmapped access.
TEST_P(GridKernels, RegressionProgramScopeConstantTableIsInTheLoadedImage) {
  const uint32_t table[8] = {3, 1, 4, 1, 5, 9, 2, 6};
  auto& m = load("constant_table");
  uint64_t d = zeros<uint32_t>(100);
  launch(m, "constant_table", {100, 1, 1}, {64, 1, 1}, {ArgValue::buffer(d), ArgValue::scalar(5u)});
  auto out = download<uint32_t>(d, 100);
  for (uint32_t i = 0; i < 100; ++i) ASSERT_EQ(out[i], table[(i + 5) & 7]) << i;
}

TEST_P(GridKernels, Stencil2dClampsBorders) {
  const uint32_t w = 45, h = 23;
  Rng rng(4);
  std::vector<float> in(w * h);
  for (auto& v : in) v = rng.uniform(0, 10);
  auto& m = load("stencil2d");
  uint64_t di = upload(in), dout = zeros<float>(w * h);
  launch(m, "stencil2d", {w, h, 1}, {16, 8, 1}, {ArgValue::buffer(di), ArgValue::buffer(dout), ArgValue::scalar(w), ArgValue::scalar(h)});
  auto out = download<float>(dout, w * h);
  for (uint32_t y = 0; y < h; ++y)
    for (uint32_t x = 0; x < w; ++x) {
      uint32_t xl = x > 0 ? x - 1 : x, xr = x + 1 < w ? x + 1 : x, yu = y > 0 ? y - 1 : y, yd = y + 1 < h ? y + 1 : y;
      float s = ((in[y * w + xl] + in[y * w + xr]) + in[yu * w + x]) + in[yd * w + x];
      // The kernel's 0.5*c + 0.125*s is a v_mul then v_mac_f32: each step rounded.
      ASSERT_EQ(out[y * w + x], 0.5f * in[y * w + x] + 0.125f * s) << x << "," << y;
    }
}

TEST_P(GridKernels, TiledMatmulWithLdsAndBarriers) {
  const uint32_t M = 37, N = 45, K = 29;  // not multiples of the 16x16 tile
  Rng rng(5);
  std::vector<float> A(M * K), B(K * N);
  for (auto& v : A) v = rng.uniform(-1, 1);
  for (auto& v : B) v = rng.uniform(-1, 1);
  auto& m = load("matmul_tiled");
  uint64_t dA = upload(A), dB = upload(B), dC = zeros<float>(M * N);
  // The kernel assumes whole 16x16 tiles, so the grid is rounded up to full work-groups.
  launch(m, "matmul_tiled", {(N + 15) / 16 * 16, (M + 15) / 16 * 16, 1}, {16, 16, 1},
         {ArgValue::buffer(dA), ArgValue::buffer(dB), ArgValue::buffer(dC), ArgValue::scalar(M), ArgValue::scalar(N),
          ArgValue::scalar(K)});
  auto C = download<float>(dC, M * N);
  for (uint32_t r = 0; r < M; ++r)
    for (uint32_t c = 0; c < N; ++c) {
      float acc = 0;
      for (uint32_t k = 0; k < (K + 15) / 16 * 16; ++k)
        acc = std::fma(k < K ? A[r * K + k] : 0.0f, k < K ? B[k * N + c] : 0.0f, acc);
      ASSERT_EQ(C[r * N + c], acc) << r << "," << c;
    }
}

TEST_P(GridKernels, TransposeThroughPaddedLdsTile) {
  const uint32_t rows = 50, cols = 33;
  std::vector<uint32_t> in(rows * cols);
  for (uint32_t i = 0; i < in.size(); ++i) in[i] = i * 2654435761u;
  auto& m = load("transpose_lds");
  uint64_t di = upload(in), dout = zeros<uint32_t>(rows * cols);
  launch(m, "transpose_lds", {(cols + 15) / 16 * 16, (rows + 15) / 16 * 16, 1}, {16, 16, 1},
         {ArgValue::buffer(di), ArgValue::buffer(dout), ArgValue::scalar(rows), ArgValue::scalar(cols)});
  auto out = download<uint32_t>(dout, rows * cols);
  for (uint32_t y = 0; y < rows; ++y)
    for (uint32_t x = 0; x < cols; ++x) ASSERT_EQ(out[x * rows + y], in[y * cols + x]) << x << "," << y;
}

TEST_P(GridKernels, MandelbrotDivergentLoopCounts) {
  const uint32_t w = 64, h = 48, iters = 200;
  auto& m = load("mandelbrot");
  uint64_t d = zeros<uint32_t>(w * h);
  launch(m, "mandelbrot", {w, h, 1}, {8, 8, 1}, {ArgValue::buffer(d), ArgValue::scalar(w), ArgValue::scalar(h), ArgValue::scalar(iters)});
  auto out = download<uint32_t>(d, w * h);
  for (uint32_t py = 0; py < h; ++py)
    for (uint32_t px = 0; px < w; ++px) {
      // OpenCL's default 2.5-ulp division is lowered to a multiply by v_rcp_f32 (a correctly
      // rounded reciprocal in strobe); the loop body is v_mad_f32, i.e. unfused multiply-adds.
      float cr = (2.5f * float(px)) * (1.0f / float(w)) + -2.0f;
      float ci = (2.5f * float(py)) * (1.0f / float(h)) + -1.25f;
      float zr = 0, zi = 0;
      uint32_t it = 0;
      while (it < iters && zr * zr + zi * zi <= 4.0f) {
        float t = zr * zr - zi * zi + cr;
        zi = 2.0f * zr * zi + ci;
        zr = t;
        ++it;
      }
      ASSERT_EQ(out[py * w + px], it) << px << "," << py;
    }
}

}  // namespace
}  // namespace strobe::e2e
