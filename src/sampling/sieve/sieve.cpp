// Sieve (Naderan-Tahan and Eeckhout, ISPASS'23), registered as `sieve`: launches stratified by
// kernel name and the spread of their instruction counts (strata.h), one representative per
// stratum simulated in detail, every other launch timed from its stratum's representative. The
// profile (wave instructions and work-items per launch) comes from a capture, a profile file or
// a profiling pass of the method's own; the passes, and the launches that run before their
// representative, are RepresentativeMethod's.
#include <cmath>
#include <limits>
#include <memory>
#include <optional>

#include <fmt/format.h>

#include "sampling/common/representative_method.h"
#include "sampling/method.h"
#include "sampling/sieve/params.h"
#include "sampling/sieve/strata.h"

namespace strobe::sampling {

namespace {

class Sieve final : public RepresentativeMethod {
 public:
  explicit Sieve(const MethodOptions& o) : RepresentativeMethod(o, "sieve", "stratum"), p_(sieve::Params::from(o)) {
    set_intra_launch(p_.intra_launch);
  }

  nlohmann::json summary() const override {
    nlohmann::json s = base_summary();
    int tiers[3] = {0, 0, 0};
    nlohmann::json strata = nlohmann::json::array();
    for (const sieve::Stratum& st : strata_) {
      ++tiers[st.tier - 1];
      strata.push_back({{"kernel", st.kernel}, {"tier", st.tier}, {"launches", st.launches.size()},
                        {"representative", st.representative}});
    }
    s["strata_by_tier"] = {{"1", tiers[0]}, {"2", tiers[1]}, {"3", tiers[2]}};
    s["strata_detail"] = strata;
    s["variant"] = {{"strata", choice_name(p_.strata)}, {"projection", choice_name(p_.projection)},
                    {"groups", choice_name(p_.groups)}, {"warm_representative", p_.warm_representative},
                    {"intra_launch", p_.intra_launch}};
    s["interval"] = no_interval("a prediction: one representative launch per stratum, chosen by rule, "
                                "not a random sample, so no variance gives an interval");
    return s;
  }

 private:
  LaunchPartition partition(const profile::ProfileFile& f) override {
    rows_.clear();
    for (size_t i = 0; i < f.launches.size(); ++i) {
      const profile::LaunchIdentity& id = f.launches[i].id;
      const auto& g = id.grid;
      std::string key = id.kernel;
      // The same kernel over another grid or work-group size can take another time per
      // instruction (fewer groups than CUs, another occupancy): groups=geometry keeps them apart.
      if (p_.groups == sieve::Groups::Geometry)
        key += fmt::format(" grid {}x{}x{} local {}x{}x{}", g[0], g[1], g[2], id.local[0], id.local[1], id.local[2]);
      rows_.push_back({key, profiled_wave_insts(i), uint64_t(g[0]) * g[1] * g[2]});
    }
    strata_ = sieve::stratify(rows_, p_);
    LaunchPartition part;
    part.group.assign(rows_.size(), 0);
    for (size_t s = 0; s < strata_.size(); ++s) {
      for (size_t l : strata_[s].launches) part.group[l] = s;
      part.samples.push_back({strata_[s].representative});
    }
    return part;
  }

  double project(std::span<const RepresentativeRun> runs, size_t launch, uint64_t instructions) const override {
    if (p_.projection == sieve::Projection::Count) return double(runs.front().cycles);
    return RepresentativeMethod::project(runs, launch, instructions);
  }

  /// A stratum whose representative never ran takes the representative, among those that ran,
  /// of the same kernel if any, nearest in instruction count (as a ratio).
  std::optional<size_t> borrow(size_t s, const std::vector<bool>& ran) const override {
    const double at = std::log1p(double(rows_[strata_[s].representative].instructions));
    std::optional<size_t> best;
    std::pair<bool, double> best_key{true, std::numeric_limits<double>::infinity()};
    for (size_t k = 0; k < ran.size(); ++k) {
      if (!ran[k]) continue;
      const std::pair<bool, double> key{strata_[k].kernel != strata_[s].kernel,
                                        std::abs(std::log1p(double(rows_[strata_[k].representative].instructions)) - at)};
      if (key < best_key) best_key = key, best = k;
    }
    return best;
  }

  sieve::Params p_;
  std::vector<sieve::LaunchRow> rows_;
  std::vector<sieve::Stratum> strata_;
};

std::unique_ptr<SamplingMethod> make_sieve(const MethodOptions& o) { return std::make_unique<Sieve>(o); }

}  // namespace

STROBE_SAMPLING_METHOD(kSieveRegistered, "sieve",
                       "Sieve (ISPASS'23): launches stratified by kernel and instruction-count spread, one "
                       "representative per stratum in detail",
                       sieve::Params::schema(), make_sieve, /*reads_profile=*/true, profile::ProfileDetail::sums);

}  // namespace strobe::sampling
