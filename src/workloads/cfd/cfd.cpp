// cfd: Rodinia cfd (euler3d), a three-stage Runge-Kutta finite-volume solver of the 3-D Euler
// equations for compressible flow on an unstructured tetrahedral mesh.
#include <vector>

#include "workloads/benchmark.h"
#include "workloads/cfd/euler.h"
#include "workloads/cfd/mesh.h"
#include "workloads/context.h"
#include "workloads/verify.h"

namespace strobe::workloads {
namespace {

/// cfd's parameters, bound to their declarations in STROBE_BENCHMARK below.
struct CfdParams {
  int64_t elements = 0, iterations = 0;
};

constexpr uint32_t kBlock = 192;  ///< Rodinia's work-group size; the mesh is padded to a multiple

/// Rodinia's main loop: per time step, copy the variables, compute the local step factors, then
/// per Runge-Kutta stage compute the fluxes and advance the variables.
class Cfd : public Benchmark {
 public:
  explicit Cfd(const CfdParams& p) : elements_(uint32_t(p.elements)), iters_(uint32_t(p.iterations)) {}

  void setup(Context& ctx) override {
    mesh_ = cfd::make_mesh(elements_, kBlock, 31);
    ff_ = cfd::far_field();
    const uint32_t n = mesh_.nelr;
    init_.resize(size_t(cfd::kNvar) * n);  // Rodinia starts every cell at the free stream
    for (int v = 0; v < cfd::kNvar; ++v)
      for (uint32_t i = 0; i < n; ++i) init_[i + size_t(v) * n] = ff_[v];
    dareas_ = ctx.upload(mesh_.areas), dnb_ = ctx.upload(mesh_.neighbours), dnormals_ = ctx.upload(mesh_.normals);
    dff_ = ctx.upload(std::vector<float>(ff_.begin(), ff_.end()));
    dvar_ = ctx.upload(init_), dold_ = ctx.alloc<float>(init_.size()), dflux_ = ctx.alloc<float>(init_.size());
    dstep_ = ctx.alloc<float>(n);
    kcopy_ = ctx.kernel("cfd", "cfd_copy"), kstep_ = ctx.kernel("cfd", "cfd_step_factor");
    kflux_ = ctx.kernel("cfd", "cfd_flux"), ktime_ = ctx.kernel("cfd", "cfd_time_step");
    ctx.expect_launches(size_t(iters_) * (2 + 2 * cfd::kRk));
  }

  void run(Context& ctx) override {
    const int32_t n = int32_t(mesh_.nelr);
    const Dim3 grid{mesh_.nelr, 1, 1}, local{kBlock, 1, 1};
    for (uint32_t it = 0; it < iters_; ++it) {
      ctx.launch(kcopy_, grid, local, {buf(dold_), buf(dvar_), val(n)});
      ctx.launch(kstep_, grid, local, {buf(dvar_), buf(dareas_), buf(dstep_), val(n)});
      for (int32_t j = 0; j < cfd::kRk; ++j) {
        ctx.launch(kflux_, grid, local, {buf(dnb_), buf(dnormals_), buf(dvar_), buf(dff_), buf(dflux_), val(n)});
        ctx.launch(ktime_, grid, local, {val(j), val(n), buf(dold_), buf(dvar_), buf(dstep_), buf(dflux_)});
      }
    }
  }

  void verify(Context& ctx) override {
    std::vector<float> ref = init_;
    cfd::reference_solve(mesh_, ff_, ref, iters_);
    // The reference repeats every float operation of the kernels in their order; only the
    // device's divisions differ (a reciprocal and a multiply, within 2 ulp instead of correctly
    // rounded). The scheme is dissipative, so such differences are damped, not accumulated:
    // after 2 to 2000 steps they stay within 4 ulp of the O(1) variables (an ulp is 2.4e-7 to
    // 4.8e-7 for the free-stream energy 3.5 to 8). Allow 5 ulp relative, plus 1e-6 absolute for
    // the cross-stream momenta near zero, which carry the rounding of the O(1) terms they cancel.
    expect_close("variables", ctx.download<float>(dvar_, ref.size()), ref, 6e-7, 1e-6);
  }

 private:
  uint32_t elements_, iters_;
  cfd::Mesh mesh_;
  cfd::FarField ff_{};
  std::vector<float> init_;
  uint64_t dareas_ = 0, dnb_ = 0, dnormals_ = 0, dff_ = 0, dvar_ = 0, dold_ = 0, dflux_ = 0, dstep_ = 0;
  Kernel kcopy_, kstep_, kflux_, ktime_;
};

}  // namespace

STROBE_BENCHMARK(Cfd, "cfd", "Rodinia cfd (euler3d): Runge-Kutta finite-volume Euler solver on an unstructured mesh",
                 {int_param(STROBE_FIELD(CfdParams, elements), 97046, 1, 1000000,
                            "mesh cells (tetrahedra; from 2059 on the domain holds a wing)")
                      .with_small(3000),
                  int_param(STROBE_FIELD(CfdParams, iterations), 8, 1, 2000, "time steps (8 launches each)")
                      .with_small(2)});

}  // namespace strobe::workloads
