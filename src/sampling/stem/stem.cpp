// STEM+ROOT (MICRO'25), registered as `stem`: launches grouped by kernel, each group split by
// ROOT while that lowers the simulated time (clusters.h), and a uniform random sample of each
// cluster, sized by the central limit theorem for a relative error bound, simulated in detail;
// every other launch is timed from its cluster's sample. The signature the sizes come from
// stands in for silicon time, which strobe does not have before it simulates: each launch's wave
// instructions, or GPUMech's prediction of its cycles from saved traces. The passes, and the
// launches that run before their cluster's last sample, are RepresentativeMethod's.
#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <optional>

#include <fmt/format.h>

#include "common/error.h"
#include "sampling/common/representative_method.h"
#include "sampling/gpumech/launch_model.h"
#include "sampling/method.h"
#include "sampling/numeric/stratified.h"
#include "sampling/stem/clusters.h"
#include "sampling/stem/params.h"

namespace strobe::sampling {

namespace {

class Stem final : public RepresentativeMethod {
 public:
  explicit Stem(const MethodOptions& o)
      : RepresentativeMethod(o, "stem", "cluster"), p_(stem::Params::from(o)), model_(gpumech::proxy_options(o.gpu)) {
    if (gpumech_signature() && o.skip_functional && !o.profile)
      throw InputError("stem: signature=gpumech with --sampling-skip-functional traces every launch in its profiling "
                       "pass by executing it; give a profile or capture made with --gpumech");
    set_intra_launch(p_.intra_launch);
  }

  nlohmann::json summary() const override;

 private:
  LaunchPartition partition(const profile::ProfileFile& f) override {
    std::vector<stem::LaunchRow> rows;
    for (size_t i = 0; i < f.launches.size(); ++i) {
      const profile::LaunchIdentity& id = f.launches[i].id;
      std::string key = id.kernel;
      if (p_.groups == stem::Groups::Geometry)
        key += fmt::format(" grid {}x{}x{} local {}x{}x{}", id.grid[0], id.grid[1], id.grid[2], id.local[0],
                           id.local[1], id.local[2]);
      rows.push_back({key, gpumech_signature() ? gpumech_cycles_.at(i) : double(profiled_wave_insts(i))});
    }
    clusters_ = stem::root_clusters(rows, p_);
    signature_.clear();
    for (const stem::LaunchRow& r : rows) signature_.push_back(r.signature);
    LaunchPartition part;
    part.group.assign(rows.size(), 0);
    for (size_t c = 0; c < clusters_.size(); ++c) {
      for (size_t l : clusters_[c].launches) part.group[l] = c;
      if (p_.pilot == 0) {
        part.samples.push_back(stem::draw(clusters_[c], p_.seed, c));
      } else {
        order_.push_back(stem::random_order(clusters_[c], p_.seed, c));
        const uint64_t n = std::max(clusters_[c].samples(), std::min<uint64_t>(p_.pilot, clusters_[c].launches.size()));
        part.samples.push_back(prefix(c, n));
      }
    }
    return part;
  }

  /// The first `n` launches of cluster `c`'s random order, in program order.
  std::vector<size_t> prefix(size_t c, uint64_t n) const {
    std::vector<size_t> out(order_[c].begin(), order_[c].begin() + std::ptrdiff_t(n));
    std::sort(out.begin(), out.end());
    return out;
  }

  /// The second stage (pilot > 0): each cluster's sample grown to the size the spread of its
  /// first sample's cycles asks for, once.
  bool revise(LaunchPartition& part) override {
    if (p_.pilot == 0 || revised_) return false;
    revised_ = true;
    const size_t k = clusters_.size();
    std::vector<uint64_t> N(k);
    std::vector<double> mean(k, 0), sd(k, 0);
    for (size_t c = 0; c < k; ++c) {
      N[c] = clusters_[c].launches.size();
      const std::vector<RepresentativeRun>& rs = runs(c);
      if (rs.empty()) continue;
      // The spread that enters the estimator's variance: the cycles themselves (mean), or what
      // the signature does not explain of them (ratio).
      double y = 0, x = 0, xall = 0;
      for (const RepresentativeRun& r : rs) y += double(r.cycles), x += signature_[r.launch];
      for (size_t l : clusters_[c].launches) xall += signature_[l];
      const double ratio = y / std::max(x, 1e-300);
      mean[c] = p_.estimator == stem::Estimator::Ratio ? ratio * xall / double(N[c]) : y / double(rs.size());
      if (rs.size() < 2) continue;
      double ss = 0;
      for (const RepresentativeRun& r : rs) {
        const double e = p_.estimator == stem::Estimator::Ratio ? double(r.cycles) - ratio * signature_[r.launch]
                                                                : double(r.cycles) - y / double(rs.size());
        ss += e * e;
      }
      sd[c] = std::sqrt(ss / double(rs.size() - 1));
    }
    const std::vector<uint64_t> want = stem::two_stage_sizes(N, mean, sd, z_for_confidence(p_.confidence), p_.error);
    bool grew = false;
    second_stage_.assign(k, 0);
    for (size_t c = 0; c < k; ++c) {
      second_stage_[c] = want[c];
      if (want[c] <= part.samples[c].size()) continue;
      part.samples[c] = prefix(c, want[c]);
      grew = true;
    }
    return grew;
  }

  /// The mean estimator: the sample's mean cycles; the ratio estimator: the sample's cycles per
  /// unit of signature times the launch's own signature.
  double project(std::span<const RepresentativeRun> runs, size_t launch, uint64_t) const override {
    double cycles = 0, signature = 0;
    for (const RepresentativeRun& r : runs) cycles += double(r.cycles), signature += signature_[r.launch];
    if (p_.estimator == stem::Estimator::Mean) return cycles / double(runs.size());
    return cycles / std::max(signature, 1.0) * signature_[launch];
  }

  bool gpumech_signature() const { return p_.signature == stem::Signature::Gpumech; }
  bool observes_dispatches() const override { return gpumech_signature(); }

  /// With signature=gpumech and no profile, the profiling pass traces each launch as
  /// `strobe profile --gpumech` would, so that observe() can model it.
  profile::LaunchRecord profile_launch(const emu::Dispatch& d, emu::GlobalMemory& mem, timing::Gpu& gpu,
                                       emu::DispatchStats& stats) override {
    if (!gpumech_signature()) return RepresentativeMethod::profile_launch(d, mem, gpu, stats);
    timing::GpuConfig at = gpu.config();
    at.line_bytes = line_bytes();
    profile::LaunchRecord rec = profile::begin_record(d, mem);
    rec.blobs[gpumech::kProfileBlob] = gpumech::encode_saved_trace(
        gpumech::trace_for_profile(d, mem, at, model_.max_instructions, stats, &rec, nullptr, gpu.host_threads()));
    return rec;
  }

  /// GPUMech's cycles for launch `i` on the configuration being simulated, from its saved trace.
  void observe(const emu::Dispatch& d, timing::Gpu& gpu, size_t i, const profile::LaunchRecord& rec) override {
    const auto blob = rec.blobs.find(gpumech::kProfileBlob);
    if (blob == rec.blobs.end())
      throw InputError(fmt::format("stem: {} has no GPUMech trace for launch {} ({}), which signature=gpumech needs; "
                                   "{}, or use signature=instructions",
                                   o_.profile_path.empty() ? "the profile" : o_.profile_path, i, d.kernel_name,
                                   o_.from_capture ? "capture it with strobe capture --gpumech"
                                                   : "write it with strobe profile --gpumech"));
    const std::string where = fmt::format("{} launch {}", o_.profile_path.empty() ? "profiling pass" : o_.profile_path, i);
    const gpumech::SavedTrace saved = gpumech::decode_saved_trace(blob->second, where);
    if (gpumech_cycles_.size() <= i) gpumech_cycles_.resize(i + 1, 0);
    gpumech_cycles_[i] = gpumech::model_saved_launch(d, saved, gpu.config(), model_, where).prediction.cycles;
  }

  /// A cluster none of whose samples ran takes the one of the same group nearest in mean
  /// signature (as a ratio) whose samples did, else the nearest of any group.
  std::optional<size_t> borrow(size_t c, const std::vector<bool>& ran) const override {
    const double at = std::log1p(clusters_[c].mean);
    std::optional<size_t> best;
    std::pair<bool, double> best_key{true, std::numeric_limits<double>::infinity()};
    for (size_t k = 0; k < ran.size(); ++k) {
      if (!ran[k]) continue;
      const std::pair<bool, double> key{clusters_[k].group != clusters_[c].group,
                                        std::abs(std::log1p(clusters_[k].mean) - at)};
      if (key < best_key) best_key = key, best = k;
    }
    return best;
  }

  stem::Params p_;
  gpumech::LaunchModelOptions model_;   ///< GPUMech as the signature (signature=gpumech)
  std::vector<double> gpumech_cycles_;  ///< per launch, GPUMech's cycles (signature=gpumech)
  std::vector<stem::Cluster> clusters_;
  std::vector<double> signature_;  ///< per launch, its signature
  std::vector<std::vector<size_t>> order_;  ///< per cluster, its launches in random order (pilot > 0)
  bool revised_ = false;                    ///< whether the second stage has been sized
  std::vector<uint64_t> second_stage_;      ///< per cluster, the size its first sample asked for
};

nlohmann::json Stem::summary() const {
  nlohmann::json s = base_summary();
  nlohmann::json cl = nlohmann::json::array();
  std::vector<StratumSample> strata;
  uint64_t sampled = 0;
  size_t single = 0;
  bool complete = true;
  for (size_t c = 0; c < clusters_.size(); ++c) {
    const stem::Cluster& k = clusters_[c];
    const std::vector<RepresentativeRun>& rs = runs(c);
    const uint64_t n = groups().samples.at(c).size();
    cl.push_back({{"group", k.group}, {"launches", k.launches.size()}, {"design_samples", k.design},
                  {"samples", n}, {"signature_mean", k.mean}, {"signature_sd", k.sd}});
    if (!second_stage_.empty()) cl.back()["second_stage_samples"] = second_stage_[c];
    sampled += n;
    if (rs.size() != n) complete = false;
    if (rs.empty()) continue;
    StratumSample st;
    st.size = k.launches.size();
    for (const RepresentativeRun& r : rs) st.values.push_back(double(r.cycles)), st.aux.push_back(signature_[r.launch]);
    for (size_t l : k.launches) st.aux_total += signature_[l];
    single += rs.size() == 1 && st.size > 1;
    strata.push_back(std::move(st));
  }
  s["clusters_detail"] = cl;
  s["sampled_launches"] = sampled;
  s["variant"] = {{"groups", choice_name(p_.groups)}, {"estimator", choice_name(p_.estimator)},
                  {"signature", choice_name(p_.signature)}, {"root", p_.root}, {"first_apart", p_.first_apart},
                  {"pilot", p_.pilot}, {"seed", p_.seed}, {"intra_launch", p_.intra_launch}};
  const double z = z_for_confidence(p_.confidence);
  // The estimate of the sampled clusters, as the estimator the method projects with.
  double total = 0;
  nlohmann::json sample_interval;
  if (!strata.empty()) {
    if (single == 0) {
      const StratifiedEstimate e = p_.estimator == stem::Estimator::Ratio ? stratified_ratio_estimate(strata, z)
                                                                          : stratified_estimate(strata, z);
      total = e.total;
      sample_interval = {{"half_width", e.half_width}, {"rel_error", e.rel_error}};
    } else {
      for (const StratumSample& st : strata) {
        double y = 0, x = 0;
        for (size_t i = 0; i < st.values.size(); ++i) y += st.values[i], x += st.aux[i];
        total += p_.estimator == stem::Estimator::Ratio ? y / std::max(x, 1.0) * st.aux_total
                                                        : y / double(st.values.size()) * double(st.size);
      }
    }
  }
  // The bound is the one the sample sizes were designed for: ±error at the confidence, if the
  // signature's spread is the cycles' spread. The sample's own interval is given beside it
  // where every sampled cluster has two samples to estimate its variance from.
  s["interval"] = {{"kind", "design"},
                   {"cycles", total},
                   {"low", total * (1 - p_.error)},
                   {"high", total * (1 + p_.error)},
                   {"half_width", total * p_.error},
                   {"rel_error", p_.error},
                   {"confidence", p_.confidence},
                   {"valid", complete},
                   {"sample_interval", sample_interval},
                   {"clusters_with_one_sample", single},
                   {"text", fmt::format("cycles = {:.0f} ± {:g}% ({:g}% bound the sample sizes were chosen for, "
                                        "from {} spread; {} of {} launches in detail{}{})",
                                        total, 100 * p_.error, 100 * p_.confidence,
                                        p_.pilot > 0             ? "the pilot sample's cycle"
                                        : gpumech_signature() ? "GPUMech-cycle"
                                                              : "wave-instruction",
                                        sampled,
                                        signature_.size(),
                                        p_.intra_launch ? ", each to a stable IPC, whose projection the bound does not cover"
                                                        : "",
                                        complete ? "" : "; the run left the profiled sequence")}};
  return s;
}

std::unique_ptr<SamplingMethod> make_stem(const MethodOptions& o) { return std::make_unique<Stem>(o); }

}  // namespace

STROBE_SAMPLING_METHOD(kStemRegistered, "stem",
                       "STEM+ROOT (MICRO'25): launches grouped by kernel and split by ROOT, a random sample of each "
                       "cluster sized for an error bound",
                       stem::Params::schema(), make_stem, /*reads_profile=*/true, profile::ProfileDetail::sums);

}  // namespace strobe::sampling
