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
// A representative may come after members of its cluster. Those launches run functionally when
// they arrive and are given their time when the representative has run: their timing records
// are completed in place, so a report read after the run sees every estimate.
#include <algorithm>
#include <cmath>
#include <memory>

#include <fmt/format.h>

#include "common/error.h"
#include "emu/executor.h"
#include "sampling/common/runners.h"
#include "sampling/method.h"
#include "sampling/profile/functional_profile.h"
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

class TbPoint final : public SamplingMethod {
 public:
  TbPoint(const MethodOptions& o, Levels levels)
      : o_(o),
        p_(tb::Params::from(o)),
        levels_(levels),
        profile_pass_([this](const emu::Dispatch& d, emu::GlobalMemory& mem, timing::Gpu&) { return run_profile(d, mem); }),
        sampled_([this](const emu::Dispatch& d, emu::GlobalMemory& mem, timing::Gpu& gpu) {
          return run_sampled(d, mem, gpu);
        }) {
    if (o_.profile) prepare(*o_.profile);
  }
  int passes() const override { return o_.profile ? 1 : 2; }
  runtime::DispatchRunner& runner(int pass) override {
    if (passes() == 2 && pass == 0) return profile_pass_;
    return sampled_;
  }
  void end_pass(int pass) override {
    if (passes() == 2 && pass == 0) {
      sp::ProfileFile f;
      f.line_bytes = line_bytes();
      f.launches = std::move(profiled_);
      prepare(f);
      return;
    }
    finish();
  }
  nlohmann::json summary() const override;

 private:
  /// A launch whose cluster's representative had not run yet when it did.
  struct Pending {
    size_t launch = 0;
    std::shared_ptr<timing::LaunchTiming> timing;
    std::shared_ptr<runtime::SampledLaunch> record;
  };

  bool inter() const { return levels_ != Levels::Intra; }
  bool intra() const { return levels_ != Levels::Inter; }
  /// Line size a profile of the method's own counts requests at: the configured L1V line.
  uint32_t line_bytes() const { return uint32_t(o_.gpu.line_bytes); }

  /// Takes the profile and clusters its launches (every launch alone without inter-launch sampling).
  void prepare(const sp::ProfileFile& f) {
    program_ = sp::to_tbpoint(f);
    ids_.clear();
    for (const auto& l : f.launches) ids_.push_back(l.id);
    const size_t n = program_.launches.size();
    if (inter()) {
      clusters_ = tb::cluster_launches(program_.launches, p_);
    } else {
      clusters_ = {};
      for (size_t i = 0; i < n; ++i) {
        clusters_.cluster.push_back(int(i));
        clusters_.members.push_back({i});
        clusters_.representative.push_back(i);
      }
    }
    rep_cpi_.assign(clusters_.members.size(), -1.0);
    pending_.assign(clusters_.members.size(), {});
    launch_ = 0;
  }

  /// Where the profile came from, for errors.
  std::string source() const {
    return o_.profile ? fmt::format("profile {}", o_.profile_path) : std::string("the profiling pass");
  }

  /// The profiling pass: every launch run functionally through the profile collector.
  runtime::LaunchResult run_profile(const emu::Dispatch& d, emu::GlobalMemory& mem) {
    runtime::LaunchResult r;
    profiled_.push_back(sp::profile_launch(d, mem, line_bytes(), r.stats));
    r.sampling = profile_record(method_name(levels_), r.stats.wave_instructions);
    return r;
  }

  runtime::LaunchResult run_sampled(const emu::Dispatch& d, emu::GlobalMemory& mem, timing::Gpu& gpu) {
    const size_t i = launch_++;
    if (i >= ids_.size())
      throw InputError(fmt::format("{}: launch {} ({}) is not in it; it has {} launches", source(), i, d.kernel_name,
                                   ids_.size()));
    if (auto diff = sp::launch_difference(i, ids_[i], sp::identify(d, mem)))
      throw InputError(fmt::format("{} does not match the workload: {}", source(), *diff));
    const tb::LaunchProfile& lp = program_.launches[i];
    const uint64_t insts = lp.wave_insts();
    const size_t c = size_t(clusters_.cluster[i]);
    const size_t rep = clusters_.representative[c];
    auto rec = std::make_shared<runtime::SampledLaunch>();
    rec->method = method_name(levels_);
    rec->emulated = !o_.skip_functional;
    rec->detail = {{"cluster", c}, {"representative", rep}};
    runtime::LaunchResult r;
    std::shared_ptr<timing::LaunchTiming> lt;
    if (i == rep) {
      lt = simulate(d, mem, gpu, lp, *rec);
      r.stats = lt->functional;
      rep_cpi_[c] = double(lt->cycles) / double(std::max<uint64_t>(insts, 1));
      for (Pending& p : pending_[c]) complete(p, c);
      pending_[c].clear();
    } else {
      if (!o_.skip_functional) r.stats = emu::run_dispatch(d, mem);
      lt = std::make_shared<timing::LaunchTiming>(timing::predicted_launch_timing(
          d.kernel_name, 0, insts, lp.thread_insts(), r.stats, gpu.config().clock_mhz));
      rec->level = "cluster";
      rec->predicted_instructions = insts;
      Pending p{i, lt, rec};
      if (rep_cpi_[c] >= 0) complete(p, c);
      else pending_[c].push_back(std::move(p));
    }
    inter_skipped_ += rec->level == "cluster" ? insts : 0;
    r.timing = lt;
    r.sampling = rec;
    return r;
  }

  /// Runs representative launch `lp` in detail, with intra-launch sampling when it is on, and
  /// returns its timing with the estimated cycles.
  std::shared_ptr<timing::LaunchTiming> simulate(const emu::Dispatch& d, emu::GlobalMemory& mem, timing::Gpu& gpu,
                                                 const tb::LaunchProfile& lp, runtime::SampledLaunch& rec) {
    const uint64_t insts = lp.wave_insts();
    std::shared_ptr<timing::LaunchTiming> lt;
    rec.level = "detailed";
    if (intra()) {
      // Epochs are the work-groups resident at once on this configuration, so the region table
      // is rebuilt per configuration from the same profile.
      const timing::Occupancy occ = gpu.occupancy_of(d);
      const uint32_t system = std::max<uint32_t>(1, occ.workgroups_per_cu * uint32_t(gpu.config().num_cus));
      tb::RegionObserver obs(tb::find_regions(lp, system, p_), lp.groups, p_, o_.skip_functional);
      lt = std::make_shared<timing::LaunchTiming>(gpu.run(d, mem, &obs));
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
    } else {
      lt = std::make_shared<timing::LaunchTiming>(gpu.run(d, mem));
    }
    rec.detailed_instructions = lt->detailed_wave_instructions;
    rec.predicted_instructions = insts - std::min(insts, lt->detailed_wave_instructions);
    rec.estimated_cycles = lt->cycles;
    lt->set_totals(lt->cycles, insts, lp.thread_insts(), gpu.config().clock_mhz);
    return lt;
  }

  /// Gives pending launch `p` of cluster `c` its time: the representative's CPI times its
  /// wave instructions [T Table IV].
  void complete(Pending& p, size_t c) {
    const uint64_t insts = program_.launches[p.launch].wave_insts();
    const uint64_t cycles = uint64_t(std::llround(rep_cpi_[c] * double(insts)));
    p.timing->set_totals(cycles, insts, p.timing->thread_instructions, o_.gpu.clock_mhz);
    p.record->estimated_cycles = cycles;
  }

  /// After the sampled pass: every representative must have run.
  void finish() {
    for (size_t c = 0; c < pending_.size(); ++c)
      if (!pending_[c].empty())
        throw FaultError(fmt::format("{}: the run ended after {} launches, before launch {}, the representative of "
                                     "cluster {}; the workload must launch the same kernels every run",
                                     method_name(levels_), launch_, clusters_.representative[c], c));
  }

  MethodOptions o_;
  tb::Params p_;
  Levels levels_;
  FunctionRunner profile_pass_, sampled_;
  std::vector<sp::LaunchRecord> profiled_;  ///< the profiling pass's records, until prepare()
  tb::ProgramProfile program_;
  std::vector<sp::LaunchIdentity> ids_;
  tb::LaunchClusters clusters_;
  std::vector<double> rep_cpi_;  ///< per cluster: its representative's estimated CPI; < 0 before it ran
  std::vector<std::vector<Pending>> pending_;
  size_t launch_ = 0;
  uint64_t inter_skipped_ = 0, intra_skipped_ = 0;
};

nlohmann::json TbPoint::summary() const {
  uint64_t total = 0;
  for (const auto& l : program_.launches) total += l.wave_insts();
  const double t = double(std::max<uint64_t>(total, 1));
  nlohmann::json reps = nlohmann::json::array();
  for (size_t r : clusters_.representative) reps.push_back(r);
  return {{"levels", levels_ == Levels::Both ? "inter+intra" : levels_ == Levels::Inter ? "inter" : "intra"},
          {"profile", o_.profile ? o_.profile_path : "own pass"},
          {"profile_seconds", o_.profile ? o_.profile->seconds : 0.0},
          {"launches", program_.launches.size()},
          {"clusters", clusters_.members.size()},
          {"representatives", reps},
          // The split of the savings: wave instructions not simulated in detail because their
          // launch was extrapolated from its cluster, and because their work-group was
          // fast-forwarded inside a simulated launch.
          {"skipped_instructions", {{"inter", inter_skipped_}, {"intra", intra_skipped_}}},
          {"skipped_shares", {{"inter", double(inter_skipped_) / t}, {"intra", double(intra_skipped_) / t}}}};
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
