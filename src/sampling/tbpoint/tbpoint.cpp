// TBPoint (Huang, Nai, Kim and Lee, IPDPS'14), registered as `tbpoint` (both levels) and, for the
// ablation, `tbpoint-inter` and `tbpoint-intra`.
//
// The functional profile (profile/profile_file.h) comes from a file (--profile) or from a first
// pass of the method's own. Inter-launch: launches are clustered on their 4-D features
// (inter_launch.h); one representative per cluster, the launch nearest the centroid, is
// simulated; every other launch is its cluster's CPI times its own wave instructions. Intra-
// launch: a simulated launch's work-groups are cut into epochs of the configured GPU's system
// occupancy, the epochs clustered into homogeneous regions (intra_launch.h), and the run-time
// state machine (state_machine.h, observer.h) fast-forwards through a region once two
// consecutive sampling units agree on its IPC.
//
// The passes, the completion of launches that come before their representative and the runs
// that leave the profiled sequence are RepresentativeMethod's (common/representative_method.h);
// a cluster whose representative never ran takes the CPI of the nearest cluster (by
// representative features) whose representative did.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <string>

#include <fmt/format.h>

#include "common/error.h"
#include "emu/executor.h"
#include "sampling/common/parallelism.h"
#include "sampling/common/representative_method.h"
#include "sampling/common/steady_state.h"
#include "sampling/method.h"
#include "sampling/profile/functional_profile.h"
#include "sampling/tbpoint/from_profile.h"
#include "sampling/tbpoint/inter_launch.h"
#include "sampling/tbpoint/intra_launch.h"
#include "sampling/tbpoint/observer.h"
#include "sampling/tbpoint/params.h"
#include "timing/gpu/gpu.h"

namespace strobe::sampling {

namespace {

namespace tb = tbpoint;
namespace sp = profile;

/// Which of TBPoint's two levels run.
enum class Levels { Both, Inter, Intra };

const char* method_name(Levels l) {
  switch (l) {
    case Levels::Both: return "tbpoint";
    case Levels::Inter: return "tbpoint-inter";
    case Levels::Intra: return "tbpoint-intra";
  }
  return "tbpoint";
}

class TbPoint final : public RepresentativeMethod {
 public:
  TbPoint(const MethodOptions& o, Levels levels)
      : RepresentativeMethod(o, method_name(levels), "cluster"), p_(tb::Params::from(o)), levels_(levels) {}
  nlohmann::json summary() const override;

 private:
  bool inter() const { return levels_ != Levels::Intra; }
  bool intra() const { return levels_ != Levels::Inter; }
  /// Ties between identical launches go to a warm one only when something warms the caches:
  /// functional work, or a capture's history before any launch simulated from it.
  tb::Ties ties() const {
    return o_.warming == Warming::Caches || o_.from_capture ? tb::Ties::Middle : tb::Ties::Earliest;
  }

  /// Clusters the profile's launches (every launch alone without inter-launch sampling).
  LaunchPartition partition(const sp::ProfileFile& f) override {
    program_ = tb::from_profile(f);
    clusters_ = inter() ? tb::cluster_launches(program_.launches, p_, ties()) : tb::singleton_clusters(program_.launches, p_);
    LaunchPartition part;
    for (int c : clusters_.cluster) part.group.push_back(size_t(c));
    for (size_t r : clusters_.representative) part.samples.push_back({r});
    return part;
  }

  /// Runs representative launch `i` in detail, with intra-launch sampling when it is on.
  std::shared_ptr<timing::LaunchTiming> simulate(const emu::Dispatch& d, emu::GlobalMemory& mem, timing::Gpu& gpu,
                                                 size_t i, runtime::SampledLaunch& rec) override {
    // Epochs are the work-groups resident at once on this configuration, so the region table
    // is rebuilt per configuration from the same profile.
    const uint32_t system = system_occupancy(gpu, d);
    system_[i] = system;
    if (!intra()) return RepresentativeMethod::simulate(d, mem, gpu, i, rec);
    const tb::LaunchProfile& lp = program_.launches[i];
    const bool skip = skips(d);
    rec.level = "detailed";
    tb::RegionObserver obs(tb::find_regions(lp, system, p_), lp.groups, p_, skip, l2_lines(gpu.config()));
    obs.set_warming(warmer_for(gpu, o_.warming));
    auto lt = std::make_shared<timing::LaunchTiming>(gpu.run(d, mem, &obs));
    const tb::RegionSampler& s = obs.sampler();
    const tb::LaunchEstimate e = s.estimate(lt->cycles);
    nlohmann::json regions = nlohmann::json::array();
    for (const tb::SampledRegion& sr : s.sampled_regions())
      regions.push_back({{"region", sr.region}, {"ipc", sr.ipc}, {"skipped_workgroups", sr.skipped_wgs},
                         {"skipped_instructions", sr.skipped_insts}});
    rec.detail["occupancy_workgroups"] = system;
    rec.detail["epochs"] = s.table().epochs.size();
    rec.detail["regions"] = s.table().regions.size();
    rec.detail["sampling_units"] = s.units().size();
    rec.detail["fast_forwarded"] = regions;
    rec.detail["detailed_cycles"] = lt->cycles;
    if (!s.sampled_regions().empty()) rec.level = "region";
    intra_skipped_ += e.skipped_insts;
    lt->cycles = uint64_t(std::llround(e.cycles));
    // The launch's instructions as it ran; the profile's only when skipped groups were not run
    // (a timing-dependent launch, such as a bfs level, may do other work than it was profiled with).
    const uint64_t insts = skip ? lp.wave_insts() : lt->functional.wave_instructions;
    rec.detailed_instructions = lt->detailed_wave_instructions;
    rec.predicted_instructions = insts - std::min(insts, lt->detailed_wave_instructions);
    rec.estimated_cycles = lt->cycles;
    const uint64_t threads = skip ? lp.thread_insts() : lt->functional.thread_instructions;
    lt->set_totals(lt->cycles, insts, threads, gpu.config().clock_mhz);
    return lt;
  }

  /// The representative's CPI times the member's instructions (the paper), and with
  /// `parallelism` (strobe's extension) times the ratio of the groups each can hold resident at
  /// once: a launch smaller than one generation runs its groups side by side, so its time does
  /// not grow with its instructions as a full launch's does (scan's 16-group launch projected
  /// from its 1-group one took 16 times its cycles).
  double project(std::span<const RepresentativeRun> runs, size_t launch, uint64_t instructions) const override {
    const double cycles = RepresentativeMethod::project(runs, launch, instructions);
    if (!p_.parallelism || runs.size() != 1) return cycles;
    const auto it = system_.find(runs[0].launch);
    if (it == system_.end()) return cycles;
    return scale_by_parallelism(cycles, groups_at_once(program_.launches[runs[0].launch].groups.size(), it->second),
                                groups_at_once(program_.launches[launch].groups.size(), it->second));
  }

  /// A cluster whose representative never ran takes the CPI of the nearest cluster, by
  /// representative features, whose representative did.
  std::optional<size_t> borrow(size_t c, const std::vector<bool>& ran) const override {
    const Eigen::RowVectorXd at = clusters_.features.row(Eigen::Index(clusters_.representative[c]));
    double best = std::numeric_limits<double>::infinity();
    std::optional<size_t> from;
    for (size_t k = 0; k < ran.size(); ++k) {
      if (!ran[k]) continue;
      const double dist = (clusters_.features.row(Eigen::Index(clusters_.representative[k])) - at).norm();
      if (dist < best) best = dist, from = k;
    }
    return from;
  }

  tb::Params p_;
  Levels levels_;
  tb::ProgramProfile program_;
  tb::LaunchClusters clusters_;
  uint64_t intra_skipped_ = 0;
  std::map<size_t, uint32_t> system_;  ///< each simulated representative's system occupancy, in groups
};

nlohmann::json TbPoint::summary() const {
  uint64_t total = 0;
  for (const auto& l : program_.launches) total += l.wave_insts();
  const double t = double(std::max<uint64_t>(total, 1));
  nlohmann::json s = base_summary();
  const uint64_t inter_skipped = s["projected_instructions"].get<uint64_t>();
  s["levels"] = levels_ == Levels::Both ? "inter+intra" : levels_ == Levels::Inter ? "inter" : "intra";
  // The split of the savings: wave instructions not simulated in detail because their launch
  // was extrapolated from its cluster, and because their work-group was fast-forwarded inside a
  // simulated launch.
  s["skipped_instructions"] = {{"inter", inter_skipped}, {"intra", intra_skipped_}};
  s["skipped_shares"] = {{"inter", double(inter_skipped) / t}, {"intra", double(intra_skipped_) / t}};
  s["interval"] = no_interval("a prediction: one representative launch per cluster, and a region's IPC "
                              "from the last of the warming units that agreed on it; a deterministic choice, "
                              "not a random sample, so no variance gives an interval");
  return s;
}

std::unique_ptr<SamplingMethod> make_both(const MethodOptions& o) { return std::make_unique<TbPoint>(o, Levels::Both); }
std::unique_ptr<SamplingMethod> make_inter(const MethodOptions& o) { return std::make_unique<TbPoint>(o, Levels::Inter); }
std::unique_ptr<SamplingMethod> make_intra(const MethodOptions& o) { return std::make_unique<TbPoint>(o, Levels::Intra); }

}  // namespace

STROBE_SAMPLING_METHOD(kTbPointRegistered, "tbpoint",
                       "TBPoint (IPDPS'14): launch clustering on profiled features, then homogeneous-region "
                       "fast-forward inside each simulated launch",
                       tb::Params::schema(), make_both, true);
STROBE_SAMPLING_METHOD(kTbPointInterRegistered, "tbpoint-inter",
                       "TBPoint's inter-launch level alone: launch clustering, representatives in full detail",
                       tb::Params::schema(), make_inter, true);
STROBE_SAMPLING_METHOD(kTbPointIntraRegistered, "tbpoint-intra",
                       "TBPoint's intra-launch level alone: every launch simulated with region fast-forward",
                       tb::Params::schema(), make_intra, true);

}  // namespace strobe::sampling
