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
//
// An execution-driven run may leave the launch sequence it was profiled with when the workload
// depends on timing (a host loop that stops on a result atomics raced to). From the first launch
// that differs from the profile (identity, or past its end) every launch is simulated in full
// detail; a cluster whose representative never ran takes the CPI of the nearest cluster (by
// representative features) whose representative did.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <memory>
#include <optional>
#include <string>

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
        profile_pass_([this](const emu::Dispatch& d, emu::GlobalMemory& mem, timing::Gpu& gpu) { return run_profile(d, mem, gpu.host_threads()); }),
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
      saved_ = std::move(f.launches);  // kept for save_passes(): a program's next pass runs elsewhere
      return;
    }
    finish();
  }
  nlohmann::json summary() const override;
  bool carries_passes() const override { return true; }
  /// The profiling pass's state is a functional profile file, as `strobe profile` writes.
  void save_passes(int pass, const std::string& path, const sp::WorkloadIdentity& w) const override {
    if (passes() != 2 || pass != 0)
      throw FaultError(fmt::format("{}: pass {} has no state to save; only the profiling pass does", method_name(levels_),
                                   pass));
    sp::ProfileFile f;
    f.workload = w;
    f.line_bytes = line_bytes();
    f.seconds = profile_seconds_;
    f.launches = saved_;
    sp::save(path, f);
  }
  void restore_passes(int pass, const std::string& path, const sp::WorkloadIdentity& w) override {
    if (passes() != 2 || pass != 1)
      throw FaultError(fmt::format("{}: cannot start at pass {}; only the sampled pass follows a state",
                                   method_name(levels_), pass));
    const sp::ProfileFile f = sp::load(path);
    sp::require_match(path, sp::first_difference(f, w, line_bytes()));
    state_file_ = path;
    prepare(f);
  }

 private:
  /// A launch whose cluster's representative had not run yet when it did.
  struct Pending {
    size_t launch = 0;
    uint64_t insts = 0;  ///< its wave instructions
    std::shared_ptr<timing::LaunchTiming> timing;
    std::shared_ptr<runtime::SampledLaunch> record;
  };

  bool inter() const { return levels_ != Levels::Intra; }
  bool intra() const { return levels_ != Levels::Inter; }
  /// Ties between identical launches go to a warm one only when something warms the caches:
  /// functional work, or a capture's history before any launch simulated from it.
  tb::Ties ties() const {
    return o_.warming == Warming::Caches || o_.from_capture ? tb::Ties::Middle : tb::Ties::Earliest;
  }
  /// Line size a profile of the method's own counts requests at: the configured L1V line.
  uint32_t line_bytes() const { return uint32_t(o_.gpu.line_bytes); }

  /// Takes the profile and clusters its launches (every launch alone without inter-launch sampling).
  void prepare(const sp::ProfileFile& f) {
    program_ = sp::to_tbpoint(f);
    kernargs_comparable_ = sp::kernargs_comparable(f.workload);
    ids_.clear();
    for (const auto& l : f.launches) ids_.push_back(l.id);
    clusters_ = inter() ? tb::cluster_launches(program_.launches, p_, ties()) : tb::singleton_clusters(program_.launches, p_);
    rep_cpi_.assign(clusters_.members.size(), -1.0);
    pending_.assign(clusters_.members.size(), {});
    launch_ = 0;
    diverged_.reset();
  }

  /// Where the profile came from, for errors.
  std::string source() const {
    if (o_.profile) return fmt::format("profile {}", o_.profile_path);
    return state_file_.empty() ? std::string("the profiling pass") : fmt::format("profile {}", state_file_);
  }

  /// The profiling pass: every launch run functionally through the profile collector, on up to
  /// `threads` host threads.
  runtime::LaunchResult run_profile(const emu::Dispatch& d, emu::GlobalMemory& mem, uint32_t threads) {
    runtime::LaunchResult r;
    const auto t0 = std::chrono::steady_clock::now();
    profiled_.push_back(sp::profile_launch(d, mem, line_bytes(), r.stats, nullptr, threads));
    profile_seconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    r.sampling = profile_record(method_name(levels_), r.stats.wave_instructions);
    return r;
  }

  runtime::LaunchResult run_sampled(const emu::Dispatch& d, emu::GlobalMemory& mem, timing::Gpu& gpu) {
    const size_t i = launch_++;
    if (!diverged_) {
      diverged_ = sp::departure_from_profile(i, sp::identify(d, mem), ids_, kernargs_comparable_, source());
      if (diverged_) diverged_at_ = i;
    }
    // A workload whose launches depend on timing (sssp's iteration count follows the order its
    // atomics land in) can leave the launch sequence it was profiled with. From there on the
    // profile says nothing about the launches, so they are simulated in full detail.
    if (diverged_) {
      ++unprofiled_;
      return unprofiled_launch(method_name(levels_), *diverged_, d, mem, gpu);
    }
    const tb::LaunchProfile& lp = program_.launches[i];
    const size_t c = size_t(clusters_.cluster[i]);
    const size_t rep = clusters_.representative[c];
    const bool skip = skips_predicted(o_, d);
    auto rec = std::make_shared<runtime::SampledLaunch>();
    rec->method = method_name(levels_);
    rec->emulated = !skip;
    rec->detail = {{"cluster", c}, {"representative", rep}};
    runtime::LaunchResult r;
    std::shared_ptr<timing::LaunchTiming> lt;
    if (i == rep) {
      lt = simulate(d, mem, gpu, lp, *rec);
      r.stats = lt->functional;
      rep_cpi_[c] = double(lt->cycles) / double(std::max<uint64_t>(lt->wave_instructions, 1));
      for (Pending& p : pending_[c]) complete(p, rep_cpi_[c]);
      pending_[c].clear();
    } else {
      // The launch's own instructions as it ran (the profile's when it is not emulated).
      if (!skip) r.stats = run_functional_launch(d, mem, gpu, o_.warming);
      const uint64_t insts = skip ? lp.wave_insts() : r.stats.wave_instructions;
      lt = std::make_shared<timing::LaunchTiming>(timing::predicted_launch_timing(
          d.kernel_name, 0, insts, lp.thread_insts(), r.stats, gpu.config().clock_mhz));
      rec->level = "cluster";
      rec->predicted_instructions = insts;
      inter_skipped_ += insts;
      Pending p{i, insts, lt, rec};
      if (rep_cpi_[c] >= 0) complete(p, rep_cpi_[c]);
      else pending_[c].push_back(std::move(p));
    }
    r.timing = lt;
    r.sampling = rec;
    return r;
  }


  /// Runs representative launch `lp` in detail, with intra-launch sampling when it is on, and
  /// returns its timing with the estimated cycles.
  std::shared_ptr<timing::LaunchTiming> simulate(const emu::Dispatch& d, emu::GlobalMemory& mem, timing::Gpu& gpu,
                                                 const tb::LaunchProfile& lp, runtime::SampledLaunch& rec) {
    std::shared_ptr<timing::LaunchTiming> lt;
    const bool skip = skips_predicted(o_, d);
    rec.level = "detailed";
    if (intra()) {
      // Epochs are the work-groups resident at once on this configuration, so the region table
      // is rebuilt per configuration from the same profile.
      const timing::Occupancy occ = gpu.occupancy_of(d);
      const uint32_t system = std::max<uint32_t>(1, occ.workgroups_per_cu * uint32_t(gpu.config().num_cus));
      tb::RegionObserver obs(tb::find_regions(lp, system, p_), lp.groups, p_, skip);
      obs.set_warming(warmer_for(gpu, o_.warming));
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

  /// Gives pending launch `p` its time at `cpi`, its representative's cycles per wave
  /// instruction, times its own wave instructions [T Table IV].
  void complete(Pending& p, double cpi) {
    const uint64_t cycles = uint64_t(std::llround(cpi * double(p.insts)));
    p.timing->set_totals(cycles, p.insts, p.timing->thread_instructions, o_.gpu.clock_mhz);
    p.record->estimated_cycles = cycles;
  }

  /// After the sampled pass: a cluster whose representative never ran (the run left the
  /// profiled sequence first) takes the CPI of the nearest cluster, by representative features,
  /// whose representative did; with none at all the launches have no time and the run fails.
  void finish() {
    for (size_t c = 0; c < pending_.size(); ++c) {
      if (pending_[c].empty()) continue;
      const Eigen::RowVectorXd at = clusters_.features.row(Eigen::Index(clusters_.representative[c]));
      double best = std::numeric_limits<double>::infinity();
      size_t from = c;
      for (size_t k = 0; k < rep_cpi_.size(); ++k) {
        if (rep_cpi_[k] < 0) continue;
        const double dist = (clusters_.features.row(Eigen::Index(clusters_.representative[k])) - at).norm();
        if (dist < best) best = dist, from = k;
      }
      if (from == c)
        throw FaultError(fmt::format("{}: the run ended after {} launches without simulating any representative; "
                                     "launch {}'s cluster has no time",
                                     method_name(levels_), launch_, pending_[c].front().launch));
      for (Pending& p : pending_[c]) {
        complete(p, rep_cpi_[from]);
        p.record->detail["cpi_from_cluster"] = from;
      }
      borrowed_ += pending_[c].size();
      pending_[c].clear();
    }
  }

  MethodOptions o_;
  tb::Params p_;
  Levels levels_;
  FunctionRunner profile_pass_, sampled_;
  std::vector<sp::LaunchRecord> profiled_;  ///< the profiling pass's records, until prepare()
  std::vector<sp::LaunchRecord> saved_;     ///< the same after prepare(), for save_passes()
  double profile_seconds_ = 0;              ///< the profiling pass's launches, measured
  std::string state_file_;                  ///< the pass state the profile came from (empty: none)
  bool kernargs_comparable_ = true;         ///< whether the profile's kernarg hashes are this run's to compare
  tb::ProgramProfile program_;
  std::vector<sp::LaunchIdentity> ids_;
  tb::LaunchClusters clusters_;
  std::vector<double> rep_cpi_;  ///< per cluster: its representative's estimated CPI; < 0 before it ran
  std::vector<std::vector<Pending>> pending_;
  size_t launch_ = 0;
  uint64_t inter_skipped_ = 0, intra_skipped_ = 0;
  std::optional<std::string> diverged_;  ///< how the run left the profiled launch sequence
  size_t diverged_at_ = 0;               ///< the first launch outside it
  size_t unprofiled_ = 0;                ///< launches simulated in detail because of that
  size_t borrowed_ = 0;                  ///< launches timed at another cluster's CPI
};

nlohmann::json TbPoint::summary() const {
  uint64_t total = 0;
  for (const auto& l : program_.launches) total += l.wave_insts();
  const double t = double(std::max<uint64_t>(total, 1));
  nlohmann::json reps = nlohmann::json::array();
  for (size_t r : clusters_.representative) reps.push_back(r);
  return {{"levels", levels_ == Levels::Both ? "inter+intra" : levels_ == Levels::Inter ? "inter" : "intra"},
          // A reused profile's file and collection time: its cost is outside the method's time.
          {"reused_profile", o_.profile ? nlohmann::json{{"file", o_.profile_path}, {"seconds", o_.profile->seconds}}
                                        : nlohmann::json()},
          {"launches", program_.launches.size()},
          {"clusters", clusters_.members.size()},
          {"representatives", reps},
          // The split of the savings: wave instructions not simulated in detail because their
          // launch was extrapolated from its cluster, and because their work-group was
          // fast-forwarded inside a simulated launch.
          {"skipped_instructions", {{"inter", inter_skipped_}, {"intra", intra_skipped_}}},
          // Launches after the run left the profiled sequence (timing-dependent workloads),
          // simulated in detail, and launches whose representative never ran as a result.
          {"unprofiled_launches", unprofiled_},
          {"diverged", diverged_ ? nlohmann::json{{"launch", diverged_at_}, {"reason", *diverged_}} : nlohmann::json()},
          {"launches_timed_from_another_cluster", borrowed_},
          {"skipped_shares", {{"inter", double(inter_skipped_) / t}, {"intra", double(intra_skipped_) / t}}},
          {"interval", no_interval("a prediction: one representative launch per cluster, and a region's IPC "
                                   "from the last of the warming units that agreed on it; a deterministic choice, "
                                   "not a random sample, so no variance gives an interval")}};
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
