// streamcluster: Rodinia streamcluster (from PARSEC), one local-search pass of online k-median
// clustering: a pgain launch per candidate centre, the host summing the gain and reassigning.
#include <vector>

#include <fmt/core.h>

#include "workloads/benchmark.h"
#include "workloads/context.h"
#include "workloads/rng.h"
#include "workloads/streamcluster/kmedian.h"
#include "workloads/verify.h"

namespace strobe::workloads {
namespace {

using streamcluster::Clustering;

/// streamcluster's parameters, bound to their declarations in STROBE_BENCHMARK below.
struct StreamclusterParams {
  int64_t points = 0, dim = 0, candidates = 0;
};

constexpr uint32_t kBlock = 256;           ///< Rodinia's THREADS_PER_BLOCK
constexpr uint64_t kMaxWork = 1ull << 30;  ///< work floats (4 GiB), so 32-bit indices into them cannot wrap

/// A point as the kernel reads it (Rodinia's Point_Struct, with a 32-bit assignment).
struct DevicePoint {
  float weight;
  int32_t assign;
  float cost;
};

/// Rodinia's pFL pass after pkmedian's initial solution: for each candidate, the host numbers the
/// centres and uploads the points, two memset launches clear the work rows and switch flags, the
/// pgain launch fills them, and the host reads them back to decide whether the candidate opens.
class Streamcluster : public Benchmark {
 public:
  explicit Streamcluster(const StreamclusterParams& p)
      : num_(uint32_t(p.points)), dim_(uint32_t(p.dim)), cands_(uint32_t(p.candidates)) {
    if (uint64_t(num_) * dim_ > (1u << 26))
      throw InputError(fmt::format("streamcluster: points={} times dim={} exceeds 2^26 coordinates", num_, dim_));
    if (work_floats(streamcluster::kKmin) > kMaxWork)  // the search starts with at least kKmin centres
      throw InputError(fmt::format("streamcluster: candidates={} need over 2^30 work floats for points={}; use fewer "
                                   "candidates or points", cands_, num_));
  }

  void setup(Context& ctx) override {
    // Points scattered around kKmin hidden centres, so the search keeps about kKmin medians open
    // (on a uniform stream its first pass closes all but one or two).
    Rng rng(17);
    init_.num = num_, init_.dim = dim_, init_.weight.assign(num_, 1.0f), init_.coord.resize(size_t(num_) * dim_);
    std::vector<float> centre(size_t(streamcluster::kKmin) * dim_);
    for (auto& v : centre) v = rng.uniform(0, 1);
    for (uint32_t i = 0; i < num_; ++i) {
      uint32_t k = rng.below(streamcluster::kKmin);
      for (uint32_t d = 0; d < dim_; ++d)
        init_.coord[size_t(i) * dim_ + d] = centre[size_t(k) * dim_ + d] + rng.uniform(-0.15f, 0.15f);
    }
    feasible_ = streamcluster::initial_solution(init_, rng);
    std::vector<float> coord_t(init_.coord.size());  // dimension-major, as Rodinia transposes it
    for (uint32_t i = 0; i < num_; ++i)
      for (uint32_t d = 0; d < dim_; ++d) coord_t[size_t(d) * num_ + i] = init_.coord[size_t(i) * dim_ + d];
    dcoord_ = ctx.upload(coord_t);
    dpoints_ = ctx.alloc<DevicePoint>(num_), dtable_ = ctx.alloc<int32_t>(num_), dswitch_ = ctx.alloc<uint32_t>(words());
    if (work_floats(init_.numcenters) > kMaxWork)
      throw InputError(fmt::format("streamcluster: {} initial centres and candidates={} need over 2^30 work floats "
                                   "for points={}; use fewer candidates or points", init_.numcenters, cands_, num_));
    dwork_ = ctx.alloc<float>(work_floats(init_.numcenters));
    kmemset_ = ctx.kernel("streamcluster", "sc_memset"), kpgain_ = ctx.kernel("streamcluster", "sc_pgain");
    ctx.expect_launches(3 * size_t(cands_));
  }

  void run(Context& ctx) override {
    c_ = init_;
    std::vector<int32_t> table(num_, 0);
    std::vector<DevicePoint> pts(num_);
    for (uint32_t i = 0; i < cands_; ++i) {
      const uint32_t x = uint32_t(feasible_[i % feasible_.size()]), k = uint32_t(c_.numcenters);
      streamcluster::number_centers(c_, table);
      for (uint32_t p = 0; p < num_; ++p) pts[p] = {c_.weight[p], c_.assign[p], c_.cost[p]};
      ctx.write(dtable_, table), ctx.write(dpoints_, pts);
      const uint32_t nwork = (k + 1) * num_;
      ctx.launch(kmemset_, {round_up(words(), kBlock), 1, 1}, {kBlock, 1, 1}, {buf(dswitch_), val(0u), val(words())});
      ctx.launch(kmemset_, {round_up(nwork, kBlock), 1, 1}, {kBlock, 1, 1}, {buf(dwork_), val(0u), val(nwork)});
      ctx.launch(kpgain_, {round_up(num_, kBlock), 1, 1}, {kBlock, 1, 1},
                 {buf(dpoints_), buf(dcoord_), buf(dwork_), buf(dtable_), buf(dswitch_), lds(dim_ * 4), val(num_),
                  val(dim_), val(x), val(k)});
      std::vector<float> work = ctx.read<float>(dwork_, nwork);
      std::vector<uint8_t> sw = ctx.read<uint8_t>(dswitch_, num_);
      streamcluster::apply_gain(c_, x, table, work, sw);
    }
  }

  void verify(Context& ctx) override {
    // The host repeats the pass with its own pgain. The kernel's squared distance is the same
    // sequence of rounded float subtractions, multiplies and adds (gfx803's v_mac_f32 rounds the
    // product; gfx942 has no unfused multiply-add, and clang contracts to v_fmac_f32), so every
    // work row, and hence every decision, must match exactly.
    const bool fused = ctx.device().isa() == isa::Target::Gfx942;
    Clustering ref = init_;
    std::vector<int32_t> table(num_, 0);
    std::vector<float> work, last_work;
    std::vector<uint8_t> sw;
    for (uint32_t i = 0; i < cands_; ++i) {
      const uint32_t x = uint32_t(feasible_[i % feasible_.size()]);
      streamcluster::number_centers(ref, table);
      streamcluster::reference_pgain(ref, x, table, work, sw, fused);
      last_work = work;
      streamcluster::apply_gain(ref, x, table, work, sw);
    }
    expect_equal("work_mem of the last pgain", ctx.download<float>(dwork_, last_work.size()), last_work);
    // The run's clustering was built from every launch's work rows and switch flags.
    expect_equal("assign", c_.assign, ref.assign);
    expect_equal("cost", c_.cost, ref.cost);
    expect_equal("is_center", c_.is_center, ref.is_center);
    expect_equal("numcenters", std::vector<int64_t>{c_.numcenters}, std::vector<int64_t>{ref.numcenters});
  }

 private:
  uint32_t words() const { return (num_ + 3) / 4; }  ///< 32-bit words of the switch flags
  /// The work floats the pass may need starting from `centres` open centres: each candidate
  /// opens at most one, so K + 1 stays within centres + candidates + 1 floats per point.
  uint64_t work_floats(int64_t centres) const { return uint64_t(centres + cands_ + 1) * num_; }

  uint32_t num_, dim_, cands_;
  Clustering init_, c_;
  std::vector<int32_t> feasible_;
  uint64_t dcoord_ = 0, dpoints_ = 0, dtable_ = 0, dswitch_ = 0, dwork_ = 0;
  Kernel kmemset_, kpgain_;
};

}  // namespace

STROBE_BENCHMARK(Streamcluster, "streamcluster",
                 "Rodinia streamcluster: one k-median local-search pass, a pgain launch per candidate centre",
                 {int_param(STROBE_FIELD(StreamclusterParams, points), 65536, 100, 1 << 20, "points in the chunk")
                      .with_small(2048),
                  int_param(STROBE_FIELD(StreamclusterParams, dim), 64, 1, 1024, "coordinates per point").with_small(16),
                  int_param(STROBE_FIELD(StreamclusterParams, candidates), 48, 1, 2000,
                            "candidate centres tried, 3 launches each (a whole Rodinia pass tries 179)")
                      .with_small(20)});

}  // namespace strobe::workloads
