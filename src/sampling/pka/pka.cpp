// PKA, Principal Kernel Analysis (Baddouh et al., MICRO'21), as Photon describes and uses it.
//
// Pass 1 profiles every launch functionally (PKA profiles on hardware; strobe's profiler is its
// emulator) into per-kernel features, which are standardised, reduced by PCA and clustered by
// k-means. Pass 2 simulates the first launch of each cluster in detail until its IPC, measured
// from its first issued instruction, is stable (variance below s over the last 3000 cycles), then
// extrapolates the rest of it from that IPC (observer.h); every other launch takes its
// representative's lead and IPC. strobe's extensions: the window opens only after the first
// generation of work-groups (and, with `open_after_l2_fill`, those that fill the L2) has retired,
// keeping the head before it as measured; and a cluster's representative is its launch nearest
// the centroid (`centroid_representative`). On a host program each pass is a run of its own: the
// profiles cross between them in a pass state file (pass_state.h).
#include <algorithm>
#include <cmath>
#include <optional>
#include <string>

#include <Eigen/Dense>
#include <fmt/format.h>

#include "common/error.h"
#include "emu/executor.h"
#include "sampling/common/ipc_stability.h"
#include "sampling/common/parallelism.h"
#include "sampling/common/program_tables.h"
#include "sampling/common/runners.h"
#include "sampling/common/steady_state.h"
#include "sampling/method.h"
#include "sampling/numeric/kmeans.h"
#include "sampling/numeric/pca.h"
#include "sampling/pka/features.h"
#include "sampling/pka/params.h"
#include "sampling/pka/pass_state.h"
#include "sampling/profile/functional_profile.h"
#include "timing/gpu/gpu.h"

namespace strobe::sampling {

namespace {

class Pka final : public SamplingMethod {
 public:
  explicit Pka(const MethodOptions& o)
      : o_(o),
        p_(PkaParams::from(o)),
        tables_(o.gpu),
        profile_([this](const emu::Dispatch& d, emu::GlobalMemory& mem, timing::Gpu& gpu) { return run_profile(d, mem, gpu.host_threads()); }),
        sampled_([this](const emu::Dispatch& d, emu::GlobalMemory& mem, timing::Gpu& gpu) {
          return run_sampled(d, mem, gpu);
        }) {
    if (o_.profile) from_profile_ = take_profile(*o_.profile);
  }
  /// Two passes, unless the counts came with a functional profile (a capture's).
  int passes() const override { return from_profile_ ? 1 : 2; }
  runtime::DispatchRunner& runner(int pass) override {
    if (pass == 0 && passes() == 2) return profile_;
    return sampled_;
  }
  void end_pass(int pass) override {
    if (pass == 0 && passes() == 2) cluster();
    if (pass == passes() - 1) complete_left_over();
  }
  bool carries_passes() const override { return true; }
  void save_passes(int pass, const std::string& path, const profile::WorkloadIdentity& w) const override {
    if (pass != 0) throw FaultError(fmt::format("pka: pass {} has no state to save; only the profiling pass does", pass));
    pka::PassState s;
    s.workload = w;
    s.line_bytes = uint32_t(o_.gpu.line_bytes);
    for (size_t i = 0; i < profiles_.size(); ++i) s.launches.push_back({ids_[i], profiles_[i]});
    pka::save(path, s);
  }
  void restore_passes(int pass, const std::string& path, const profile::WorkloadIdentity& w) override {
    if (pass != 1) throw FaultError(fmt::format("pka: cannot start at pass {}; only the sampled pass follows a state", pass));
    pka::PassState s = pka::load(path);
    if (auto d = profile::workload_difference(s.workload, w))
      throw InputError(fmt::format("pass state {} does not match the workload: {}", path, *d));
    // The features count vector memory lines: another line size is another profile.
    if (s.line_bytes != uint32_t(o_.gpu.line_bytes))
      throw InputError(fmt::format("pass state {} does not match the workload: its lines are {} bytes, this run's {}",
                                   path, s.line_bytes, o_.gpu.line_bytes));
    profiles_.clear();
    ids_.clear();
    for (auto& l : s.launches) {
      ids_.push_back(l.id);
      profiles_.push_back(std::move(l.profile));
    }
    state_file_ = path;
    kernargs_comparable_ = profile::kernargs_comparable(s.workload);
    // Clustering is deterministic (seeded k-means), so the sampled pass clusters as it would
    // have in the profiling pass's process.
    cluster();
  }
  nlohmann::json summary() const override {
    return {{"launches", profiles_.size()}, {"clusters", k_}, {"pca_components", components_},
            {"representatives", representatives_}, {"unprofiled_launches", unprofiled_.launches()},
            {"clusters_timed_from_another", borrowed_}, {"clusters_timed_from_unprofiled_launches", from_unprofiled_},
            {"interval", no_interval("a prediction: one representative launch per cluster, its IPC extrapolated "
                                     "from a stable window; one measurement per cluster gives no variance")}};
  }

 private:
  /// The profiling pass's results from a functional profile that carries PKA's counts for every
  /// launch (a capture's), and true; false, with nothing taken, for a profile without them
  /// (strobe profile's), which leaves PKA its own profiling pass.
  bool take_profile(const profile::ProfileFile& f) {
    for (const profile::LaunchRecord& l : f.launches)
      if (!l.blobs.contains(kPkaBlob)) return false;
    for (size_t i = 0; i < f.launches.size(); ++i) {
      const profile::LaunchRecord& l = f.launches[i];
      const auto it = l.blobs.find(kPkaBlob);
      const std::string what = fmt::format("profile {} launch {}", o_.profile_path, i);
      const PkaCounts c = decode_counts(it->second, what);
      emu::DispatchStats st;
      st.wave_instructions = l.workgroups.sum(profile::column::kWaveInsts);
      st.thread_instructions = l.workgroups.sum(profile::column::kThreadInsts);
      st.workgroups = l.workgroups.rows;
      st.wavefronts = l.waves.rows;
      ids_.push_back(l.id);
      profiles_.push_back(pka_profile(l.id.kernel, st, c));
    }
    state_file_ = o_.profile_path;
    kernargs_comparable_ = profile::kernargs_comparable(f.workload);
    cluster();
    return true;
  }

  /// Pass 0: every launch profiled functionally into its PKA features.
  runtime::LaunchResult run_profile(const emu::Dispatch& d, emu::GlobalMemory& mem, uint32_t threads) {
    ids_.push_back(profile::identify(d, mem));
    PkaProfile p = profile_pka_features(d, mem, tables_.get(*d.program).info, uint32_t(o_.gpu.line_bytes), threads);
    runtime::LaunchResult r;
    r.stats = p.stats;
    r.sampling = profile_record("pka", p.stats.wave_instructions);
    profiles_.push_back(std::move(p));
    return r;
  }

  void cluster() {
    const size_t n = profiles_.size();
    labels_.assign(n, 0);
    if (n == 0) return;
    Eigen::MatrixXd x(Eigen::Index(n), kPkaFeatures);
    for (size_t i = 0; i < n; ++i)
      for (int f = 0; f < kPkaFeatures; ++f) x(Eigen::Index(i), f) = profiles_[i].features[size_t(f)];
    const PcaResult pc = pca(x, p_.pca_variance);
    components_ = pc.components;
    const KMeansResult km =
        kmeans_choose_k(pc.projected, p_.max_clusters, p_.cluster_explained, 0x504B41);
    k_ = km.k;
    for (size_t i = 0; i < n; ++i) labels_[i] = km.labels.empty() ? 0 : km.labels[i];
    rep_of_.assign(size_t(std::max(k_, 1)), -1);
    rep_.assign(rep_of_.size(), IpcProjection{});
    pending_.assign(rep_of_.size(), {});
    ran_.assign(rep_of_.size(), false);
    rep_at_once_.assign(rep_of_.size(), 0);
    centroids_ = km.centroids;
    // PKA takes each cluster's first launch. strobe's extension takes the launch nearest the
    // centroid: from a capture, or with warming, any launch starts warm, and the first of an
    // iterative workload's launches is the one that does not (hotspot 37%, pathfinder 36%).
    std::vector<double> best(rep_of_.size(), 0);
    std::vector<std::vector<size_t>> tied(rep_of_.size());
    for (size_t i = 0; i < n; ++i) {
      const size_t c = size_t(labels_[i]);
      const double dist = p_.centroid_representative && km.centroids.rows() > Eigen::Index(c)
                              ? (pc.projected.row(Eigen::Index(i)) - km.centroids.row(Eigen::Index(c))).squaredNorm()
                              : 0.0;
      if (tied[c].empty() || dist < best[c] * (1 - 1e-12)) best[c] = dist, tied[c] = {i};
      else if (dist <= best[c] * (1 + 1e-12)) tied[c].push_back(i);
    }
    // Identical launches tie; the middle one starts warm when something warms the caches, and
    // without that every representative starts cold, so the first is as good and runs earliest.
    const bool warm = o_.from_capture || o_.warming == Warming::Caches;
    for (size_t c = 0; c < tied.size(); ++c)
      if (!tied[c].empty())
        rep_of_[c] = int(p_.centroid_representative && warm ? tied[c][tied[c].size() / 2] : tied[c].front());
    std::vector<int> reps(rep_of_);
    std::sort(reps.begin(), reps.end());
    representatives_ = nlohmann::json::array();
    for (int r : reps)
      if (r >= 0) representatives_.push_back(r);
  }

  runtime::LaunchResult run_sampled(const emu::Dispatch& d, emu::GlobalMemory& mem, timing::Gpu& gpu) {
    const size_t i = launch_++;
    // A profile from another process may be of another build or input of the program: any
    // difference in code, geometry or (where comparable) arguments makes its features wrong. A
    // capture's counts are of its own launches, which its replay restores (departure()).
    if (!state_file_.empty() && !o_.from_capture) {
      std::optional<std::string> diff;
      if (i >= ids_.size()) diff = fmt::format("launch {} ({}) is past its {} launches", i, d.kernel_name, ids_.size());
      else diff = profile::launch_difference(i, ids_[i], profile::identify(d, mem), kernargs_comparable_);
      if (diff) throw InputError(fmt::format("pass state {} does not match the workload: {}", state_file_, *diff));
    }
    // In this process the profiling pass ran the same input, so a launch that leaves its sequence
    // does so because the workload's launches depend on timing (sssp's iteration count follows
    // the order its atomics land in). From there on the profile says nothing about the launches:
    // they are simulated in full detail, as TBPoint does.
    if (!diverged_) diverged_ = departure(o_, i, d, mem, ids_, kernargs_comparable_, "the profiling pass");
    if (diverged_) return unprofiled_.run("pka", *diverged_, d, mem, gpu);
    const size_t c = size_t(labels_[i]);
    const uint64_t insts = profiles_[i].stats.wave_instructions;
    const double at_once = launch_parallelism(profiles_[i].stats.workgroups, system_occupancy(gpu, d),
                                              uint32_t(gpu.config().num_cus), p_.group_exponent);
    const bool skip = skips_predicted(o_, d);
    auto rec = std::make_shared<runtime::SampledLaunch>();
    rec->method = "pka";
    rec->emulated = !skip;
    rec->detail = {{"cluster", c}, {"representative", rep_of_[c]}};
    runtime::LaunchResult r;
    std::shared_ptr<timing::LaunchTiming> lt;
    if (rep_of_[c] == int(i)) {
      const uint64_t fill = p_.open_after_l2_fill
                                ? l2_fill_groups(profiles_[i].lines, profiles_[i].stats.workgroups, l2_lines(o_.gpu))
                                : 0;
      IpcStabilityObserver obs(p_.ipc_interval, p_.ipc_window, p_.ipc_variance, p_.open_generations, fill, skip);
      obs.set_warming(warmer_for(gpu, o_.warming));
      lt = std::make_shared<timing::LaunchTiming>(gpu.run(d, mem, &obs));
      rec->detailed_instructions = lt->detailed_wave_instructions;
      rec->predicted_instructions = insts - std::min(insts, lt->detailed_wave_instructions);
      // The lead (launch overhead and first dispatch) is a fixed cost of a launch, measured here;
      // only the time after the first issue scales with the instructions.
      const uint64_t lead = std::min(obs.lead_cycles(), lt->cycles);
      if (obs.projects()) {
        rec->level = "ipc-projection";
        lt->cycles = obs.projected_cycles(insts);
        rec->detail["stop_cycle"] = obs.stop_cycles();
        rec->detail["stop_ipc"] = obs.stop_ipc();
        if (obs.projection().head_cycles > 0) rec->detail["head_cycles"] = obs.projection().head_cycles;
        rep_[c] = obs.projection();
      } else {
        rec->level = "detailed";
        rep_[c] = {lead, 0, 0, lt->cycles > lead ? double(insts) / double(lt->cycles - lead) : 0.0};
        if (obs.stopped()) rec->detail["stopped_after_last_dispatch"] = obs.stop_cycles();  // measured cycles kept
      }
      rec->detail["lead_cycles"] = lead;
      rep_at_once_[c] = at_once;
      if (p_.parallelism) rec->detail["parallelism"] = at_once;
      ran_[c] = true;
      r.stats = lt->functional;
      lt->set_totals(lt->cycles, insts, profiles_[i].stats.thread_instructions, gpu.config().clock_mhz);
    } else {
      if (!skip) r.stats = run_functional_launch(d, mem, gpu, o_.warming);
      const uint64_t cycles = project(c, insts, at_once);
      lt = std::make_shared<timing::LaunchTiming>(timing::predicted_launch_timing(
          d.kernel_name, cycles, insts, profiles_[i].stats.thread_instructions, r.stats, gpu.config().clock_mhz));
      rec->level = "cluster";
      rec->predicted_instructions = insts;
      if (p_.parallelism) rec->detail["parallelism"] = at_once;
      // Its representative comes later: the record is completed in place when it has run.
      if (!ran_[c]) pending_[c].push_back({insts, at_once, lt, rec});
    }
    rec->estimated_cycles = lt->cycles;
    r.timing = lt;
    r.sampling = rec;
    if (rep_of_[c] == int(i)) complete(c, c);
    return r;
  }

  /// A member's cycles from cluster `c`'s representative: its lead, plus the rest at the
  /// representative's IPC (PKA). With `parallelism` (strobe's extension) the rest also scales by
  /// the representative's parallelism over the member's `at_once` (common/parallelism.h): a
  /// launch smaller than one generation runs its groups side by side, so its time does not
  /// shrink with its instructions as a many-generation launch's does.
  uint64_t project(size_t c, uint64_t insts, double at_once) const {
    const IpcProjection& rep = rep_[c];
    const uint64_t cycles = rep.cycles(insts);
    if (!p_.parallelism || cycles <= rep.lead) return cycles;
    return rep.lead + uint64_t(std::llround(scale_by_parallelism(double(cycles - rep.lead), rep_at_once_[c], at_once)));
  }

  /// A member that ran before its cluster's representative.
  struct Pending {
    uint64_t insts = 0;
    double at_once = 0;  ///< its parallelism on this configuration
    std::shared_ptr<timing::LaunchTiming> timing;
    std::shared_ptr<runtime::SampledLaunch> record;
  };

  /// Gives cluster `c`'s waiting members their time from cluster `from`'s representative.
  void complete(size_t c, size_t from) {
    for (Pending& p : pending_[c]) {
      const uint64_t cycles = project(from, p.insts, p.at_once);
      p.timing->set_totals(cycles, p.insts, p.timing->thread_instructions, o_.gpu.clock_mhz);
      p.record->estimated_cycles = cycles;
      if (from != c) p.record->detail["timed_from_cluster"] = from;
    }
    pending_[c].clear();
  }

  /// After the sampled pass, a cluster whose representative never ran (the run left the
  /// profiled sequence first) takes the nearest cluster's, by centroid, whose did.
  void complete_left_over() {
    for (size_t c = 0; c < pending_.size(); ++c) {
      if (pending_[c].empty()) continue;
      std::optional<size_t> from;
      double best = 0;
      for (size_t k = 0; k < ran_.size(); ++k) {
        if (!ran_[k] || centroids_.rows() <= Eigen::Index(std::max(c, k))) continue;
        const double d = (centroids_.row(Eigen::Index(c)) - centroids_.row(Eigen::Index(k))).squaredNorm();
        if (!from || d < best) from = k, best = d;
      }
      if (!from && unprofiled_.timed()) {
        // No cluster's representative ran before the departure: the launches simulated in
        // detail from there on are the only measured time, and their CPI times these.
        for (Pending& p : pending_[c]) unprofiled_.time(*p.timing, *p.record, p.insts, o_.gpu.clock_mhz);
        pending_[c].clear();
        ++from_unprofiled_;
        continue;
      }
      if (!from) throw FaultError(fmt::format("pka: no representative ran before the run left its profiled launches, so "
                                              "{} launches of cluster {} have no time", pending_[c].size(), c));
      complete(c, *from);
      ++borrowed_;
    }
  }


  MethodOptions o_;
  PkaParams p_;
  ProgramTableCache tables_;
  FunctionRunner profile_, sampled_;
  std::vector<PkaProfile> profiles_;
  std::vector<profile::LaunchIdentity> ids_;  ///< each profiled launch's identity, for pass states
  std::string state_file_;  ///< the pass state the profiles came from (empty: this process's pass 0)
  bool kernargs_comparable_ = true;  ///< whether its kernarg hashes are this run's to compare
  std::vector<int> labels_, rep_of_;
  std::vector<IpcProjection> rep_;  ///< each cluster's representative's lead, head and IPC
  std::vector<bool> ran_;           ///< whether each cluster's representative has run
  std::vector<double> rep_at_once_;  ///< each representative's parallelism
  std::vector<std::vector<Pending>> pending_;  ///< members waiting for their representative
  Eigen::MatrixXd centroids_;       ///< the clusters' centroids in the PCA space
  size_t borrowed_ = 0;             ///< clusters timed from another's representative
  int k_ = 0, components_ = 0;
  bool from_profile_ = false;  ///< the counts came with the functional profile: no profiling pass
  size_t launch_ = 0;
  std::optional<std::string> diverged_;  ///< how the run first left the profiled launch sequence
  UnprofiledRuns unprofiled_;  ///< launches simulated in detail because of that, and their time
  size_t from_unprofiled_ = 0;  ///< clusters timed from them: no representative ran before the departure
  nlohmann::json representatives_ = nlohmann::json::array();
};

std::unique_ptr<SamplingMethod> make_pka(const MethodOptions& o) { return std::make_unique<Pka>(o); }

}  // namespace

STROBE_SAMPLING_METHOD(kPkaRegistered, "pka",
                       "PKA (MICRO'21): kernel clustering on profiled features, IPC-stability projection within a kernel",
                       PkaParams::schema(), make_pka, /*reads_profile=*/true, profile::ProfileDetail::sums);

}  // namespace strobe::sampling
