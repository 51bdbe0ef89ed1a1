// Photon (Liu, Sun, Carlson, MICRO'23): online kernel, warp and basic-block sampling.
//
// Per launch: emulate a sample of warps (online analysis); if an earlier kernel has a GPU BBV
// within the threshold, predict this one from its IPC (kernel sampling). Otherwise simulate in
// detail while two detectors watch: once the basic-block types holding more than 95% of the
// sampled instructions are stable, later work-groups are emulated functionally and timed by
// their basic blocks; once the dominant warp type is stable, later work-groups take the mean
// warp time (only the dispatcher is simulated). Resident work-groups finish in detail.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <map>
#include <memory>

#include <fmt/format.h>

#include "emu/executor.h"
#include "sampling/block_run.h"
#include "sampling/method.h"
#include "sampling/photon/kernel_match.h"
#include "sampling/photon/online_analysis.h"
#include "sampling/numeric/least_squares.h"
#include "timing/gpu/gpu.h"

namespace strobe::sampling {

namespace {

using timing::InstInfo;
using timing::IssueType;

struct PhotonParams {
  double sample_fraction, delta, bb_share, warp_share, kernel_distance, kernel_size_ratio, max_imbalance;
  uint32_t bb_window, warp_window, dims;
  bool kernel_level, warp_level, bb_level;
  explicit PhotonParams(const MethodOptions& o)
      : sample_fraction(o.param("sample_fraction")), delta(o.param("delta")), bb_share(o.param("bb_stable_share")),
        warp_share(o.param("dominant_warp_share")), kernel_distance(o.param("kernel_distance")),
        kernel_size_ratio(o.param("kernel_size_ratio")), max_imbalance(o.param("max_warp_imbalance")),
        bb_window(uint32_t(o.param("bb_window"))), warp_window(uint32_t(o.param("warp_window"))),
        dims(uint32_t(o.param("bbv_dims"))), kernel_level(o.param("kernel_level") != 0),
        warp_level(o.param("warp_level") != 0), bb_level(o.param("bb_level") != 0) {}
};

/// What Photon precomputes once per kernel program.
struct ProgramTables {
  std::vector<uint8_t> ends;
  std::vector<InstInfo> info;
};

enum class Mode : uint8_t { Detailed, BasicBlock, Warp };
const char* mode_name(Mode m) {
  return m == Mode::Detailed ? "detailed" : m == Mode::BasicBlock ? "basic-block" : "warp";
}

/// Watches one detailed launch and switches it to basic-block or warp sampling.
class PhotonLaunch final : public timing::LaunchObserver {
 public:
  PhotonLaunch(const PhotonParams& p, const MethodOptions& o, const OnlineAnalysis& a, const ProgramTables& t)
      : p_(p), skip_(o.skip_functional), a_(a), t_(t), warp_(p.warp_window, p.delta),
        group_window_(std::max<uint64_t>(2, p.warp_window * a.workgroups / std::max<uint64_t>(a.warps, 1))) {
    const size_t waves = size_t(o.gpu.num_cus * o.gpu.simds_per_cu * o.gpu.wave_slots_per_simd);
    begin_.assign(waves, 0);
    first_issue_.assign(waves, UINT64_MAX);
    key_.assign(waves, 0);
    detectors_.resize(t.ends.size());
    stable_.assign(t.ends.size(), 0);
    bb_time_.assign(t.ends.size(), -1.0);
    dominant_ = a.types.empty() ? 0 : a.types[0].key;
    // Block and warp times are measured on the resident population. A warp much longer than the
    // mean outlives that population and runs its tail on an emptier GPU, where its blocks take
    // a fraction of the measured time (spmv's power-law rows), so such kernels stay detailed.
    balanced_ = a.warp_imbalance() <= p.max_imbalance;
    bb_eligible_ = p.bb_level && balanced_;
    warp_eligible_ = p.warp_level && balanced_ && a.dominant_share() > p.warp_share;
    l1_latency_ = double(o.gpu.l1v_latency);
    l2_latency_ = double(o.gpu.l2_latency);
  }

  void wave_begin(timing::WaveKey w, uint64_t cycle) override {
    begin_[w] = cycle;
    first_issue_[w] = UINT64_MAX;
    key_[w] = 0;
  }

  void basic_block(timing::WaveKey w, uint32_t start, uint32_t insts, uint64_t issue, uint64_t end) override {
    key_[w] += block_key(start, a_.entry_pc);
    if (first_issue_[w] == UINT64_MAX) first_issue_[w] = issue;
    if (mode_ != Mode::Detailed || !bb_eligible_) return;
    auto& det = detectors_[start];
    if (!det) det = std::make_unique<StabilityDetector>(p_.bb_window, p_.delta);
    det->add(double(issue), double(end));
    const bool st = det->stable();
    if (st != bool(stable_[start])) {
      stable_[start] = st;
      stable_share_ += st ? a_.bb_share[start] : -a_.bb_share[start];
    }
    if (stable_share_ > p_.bb_share) switch_to(Mode::BasicBlock, end);
  }

  void wave_end(timing::WaveKey w, uint64_t cycle) override {
    if (first_issue_[w] != UINT64_MAX) {
      overhead_sum_ += double(first_issue_[w] - begin_[w]);
      ++overhead_n_;
    }
    if (!warp_eligible_ || mode_ == Mode::Warp || key_[w] != dominant_) return;
    warp_.add(double(begin_[w]), double(cycle));
    // A work-group holds its resources until its slowest warp retires, so the predicted unit
    // is the group: its residency must be stable too, and its mean is what predicted groups take.
    if (warp_.stable() && groups_ && groups_->stable()) switch_to(Mode::Warp, cycle);
  }

  void workgroup_end(uint64_t id, uint64_t dispatched, uint64_t cycle) override {
    if (!warp_eligible_ || mode_ == Mode::Warp) return;
    // Groups are fed in dispatch order, each once every earlier group has retired: fed in
    // retirement order, a window closes on the groups that happened to finish quickly.
    // The window spans at least one generation of resident groups, so a generation that
    // happens to run quickly after the initial fill drains is not mistaken for the steady state.
    // Every group dispatched before the first retirement is one generation.
    if (!groups_) groups_.emplace(std::max<uint64_t>(group_window_, detailed_dispatched_), p_.delta);
    pending_[id] = {dispatched, cycle};
    for (auto it = pending_.begin(); it != pending_.end() && it->first == next_group_; it = pending_.erase(it)) {
      groups_->add(double(it->second.first), double(it->second.second));
      ++next_group_;
    }
  }

  std::optional<uint64_t> predict_workgroup(const emu::Executor& ex, emu::WorkGroup& wg, emu::DispatchStats& stats,
                                            uint64_t) override {
    if (mode_ == Mode::Detailed) {
      if (!groups_) ++detailed_dispatched_;
      return std::nullopt;
    }
    const uint64_t before = stats.wave_instructions;
    double cycles = 0;
    if (mode_ == Mode::Warp) {
      if (!skip_) ex.run_workgroup(wg, stats);
      cycles = warp_time_;
    } else if (skip_) {
      cycles = overhead();
      for (size_t pc = 0; pc < a_.mean_bb_count.size(); ++pc)
        if (a_.mean_bb_count[pc] > 0) cycles += a_.mean_bb_count[pc] * bb_time(uint32_t(pc), a_.bb_length[pc]);
    } else {
      wave_cycles_.assign(wg.waves.size(), overhead());
      run_workgroup_blocks(ex, wg, stats, t_.ends,
                           [&](uint32_t w, uint32_t start, uint32_t len) { wave_cycles_[w] += bb_time(start, len); });
      cycles = *std::max_element(wave_cycles_.begin(), wave_cycles_.end());
    }
    predicted_ += skip_ ? uint64_t(std::llround(a_.instructions_per_warp() * double(wg.waves.size())))
                        : stats.wave_instructions - before;
    ++predicted_groups_;
    return uint64_t(std::max(1.0, std::round(cycles)));
  }

  void intervals(const uint64_t* sum, const uint32_t* count) override { sum_ = sum, count_ = count; }

  Mode mode() const { return mode_; }
  uint64_t switch_cycle() const { return switch_cycle_; }
  uint64_t predicted_instructions() const { return predicted_; }
  uint64_t predicted_groups() const { return predicted_groups_; }
  double stable_share() const { return stable_share_; }
  /// False when warp imbalance ruled out basic-block and warp sampling for the launch.
  bool balanced() const { return balanced_; }
  double warp_time() const { return warp_time_; }

 private:
  void switch_to(Mode m, uint64_t cycle) {
    if (mode_ == Mode::Detailed) switch_cycle_ = cycle;
    mode_ = m;
    if (m == Mode::Warp) warp_time_ = groups_->mean_duration(groups_->window());
  }

  double overhead() const { return overhead_n_ ? overhead_sum_ / double(overhead_n_) : 0.0; }

  /// Predicted cycles of the block starting at `start` (frozen at first use): its mean over the
  /// detector's window when stable, otherwise the interval model.
  double bb_time(uint32_t start, uint32_t len) {
    double& t = bb_time_[start];
    if (t >= 0) return t;
    if (stable_[start] && detectors_[start]) return t = detectors_[start]->mean_duration(p_.bb_window);
    t = 0;
    for (uint32_t pc = start; pc < start + len && pc < t_.info.size(); ++pc) t += interval(pc);
    return t;
  }

  /// The interval model: the mean cycles from issuing instruction `pc` to the wave's next issue
  /// as measured in detail; for instructions never timed, the mean of their class, and for
  /// classes never timed, the configured latencies.
  double interval(uint32_t pc) {
    if (count_ && count_[pc]) return double(sum_[pc]) / double(count_[pc]);
    const InstInfo& in = t_.info[pc];
    const size_t cls = class_of(in);
    if (!class_ready_) {
      class_ready_ = true;
      for (size_t i = 0; count_ && i < t_.info.size(); ++i) {
        class_sum_[class_of(t_.info[i])] += double(sum_[i]);
        class_n_[class_of(t_.info[i])] += count_[i];
      }
    }
    if (class_n_[cls]) return class_sum_[cls] / double(class_n_[cls]);
    if (in.special == timing::Special::Waitcnt) return l1_latency_ + l2_latency_;
    if (in.type == IssueType::Vmem || in.type == IssueType::Lds || in.is_scalar_mem) return double(in.busy);
    return double(std::max<uint16_t>({in.busy, in.latency, 1}));
  }
  static size_t class_of(const InstInfo& in) {
    if (in.special == timing::Special::Waitcnt) return size_t(IssueType::COUNT);
    if (in.is_scalar_mem) return size_t(IssueType::COUNT) + 1;
    return size_t(in.type);
  }

  const PhotonParams& p_;
  bool skip_;
  const OnlineAnalysis& a_;
  const ProgramTables& t_;
  Mode mode_ = Mode::Detailed;
  std::vector<uint64_t> begin_, first_issue_, key_;
  std::vector<std::unique_ptr<StabilityDetector>> detectors_;
  std::vector<uint8_t> stable_;
  std::vector<double> bb_time_, wave_cycles_;
  double stable_share_ = 0;
  StabilityDetector warp_;                    // dominant warps
  std::optional<StabilityDetector> groups_;   // work-groups in dispatch order (made at the first retirement)
  uint64_t group_window_, detailed_dispatched_ = 0;
  std::map<uint64_t, std::pair<uint64_t, uint64_t>> pending_;  // retired out of order: id -> (dispatch, retire)
  uint64_t next_group_ = 0;
  uint64_t dominant_ = 0;
  bool balanced_ = true, bb_eligible_ = false, warp_eligible_ = false;
  double warp_time_ = 0, overhead_sum_ = 0;
  uint64_t overhead_n_ = 0, switch_cycle_ = 0, predicted_ = 0, predicted_groups_ = 0;
  const uint64_t* sum_ = nullptr;
  const uint32_t* count_ = nullptr;
  bool class_ready_ = false;
  double class_sum_[size_t(IssueType::COUNT) + 2] = {};
  uint64_t class_n_[size_t(IssueType::COUNT) + 2] = {};
  double l1_latency_ = 0, l2_latency_ = 0;
};

class Photon final : public SamplingMethod, public runtime::DispatchRunner {
 public:
  explicit Photon(const MethodOptions& o) : o_(o), p_(o) {}
  runtime::DispatchRunner& runner(int) override { return *this; }
  nlohmann::json summary() const override {
    return {{"launches", launches_}, {"levels", levels_}, {"history", history_.size()}};
  }

  runtime::LaunchResult run(const emu::Dispatch& d, emu::GlobalMemory& mem, timing::Gpu& gpu) override {
    const ProgramTables& t = tables(*d.program);
    const uint32_t launch = launches_++;
    const OnlineAnalysis a = analyze_sample(d, mem, t.ends, p_.sample_fraction, p_.dims);
    auto rec = std::make_shared<runtime::SampledLaunch>();
    rec->method = "photon";
    rec->functional_instructions = a.sampled_instructions;
    rec->emulated = !o_.skip_functional;
    rec->detail = {{"sampled_workgroups", a.sampled_workgroups},
                   {"warp_types", a.types.size()},
                   {"dominant_warp_share", a.dominant_share()},
                   {"warp_imbalance", a.warp_imbalance()}};
    runtime::LaunchResult r;
    if (const KernelRecord* m = p_.kernel_level ? match(a) : nullptr) {
      predict_kernel(d, mem, gpu, a, *m, *rec, r);
    } else {
      PhotonLaunch obs(p_, o_, a, t);
      auto lt = std::make_shared<timing::LaunchTiming>(gpu.run(d, mem, &obs));
      rec->level = obs.mode() == Mode::Detailed ? "detailed" : mode_name(obs.mode());
      rec->detailed_instructions = lt->detailed_wave_instructions;
      if (!obs.balanced()) rec->detail["imbalance_fallback"] = true;
      rec->predicted_instructions = obs.predicted_instructions();
      rec->estimated_cycles = lt->cycles;
      if (obs.mode() != Mode::Detailed) {
        rec->detail["switch_cycle"] = obs.switch_cycle() - (gpu.now().value() - lt->cycles);
        rec->detail["predicted_workgroups"] = obs.predicted_groups();
        rec->detail["stable_bb_share"] = obs.stable_share();
        if (obs.mode() == Mode::Warp) rec->detail["warp_cycles"] = obs.warp_time();
      }
      const uint64_t insts = rec->detailed_instructions + rec->predicted_instructions;
      if (o_.skip_functional) lt->wave_instructions = insts;
      lt->ipc = lt->cycles ? double(insts) / double(lt->cycles) : 0.0;
      history_.push_back(KernelRecord{launch, d.kernel_name, a.gpu_bbv, a.warps, a.instructions_per_warp(), insts,
                                      lt->ipc});
      r.stats = lt->functional;
      r.timing = lt;
    }
    levels_[rec->level] = levels_.value(rec->level, 0) + 1;
    r.sampling = rec;
    return r;
  }

 private:
  const ProgramTables& tables(const isa::Program& prog) {
    auto& slot = tables_[&prog];
    if (!slot) {
      slot = std::make_unique<ProgramTables>();
      slot->ends = timing::basic_block_ends(prog);
      slot->info = timing::build_inst_info(prog, timing::inst_timing_params(o_.gpu));
    }
    return *slot;
  }

  /// The earlier kernel this launch can take its IPC from, or nullptr.
  const KernelRecord* match(const OnlineAnalysis& a) {
    const auto m = match_kernel(history_, a.gpu_bbv, a.warps, a.instructions_per_warp(), o_.gpu.num_cus,
                                p_.kernel_distance, p_.dims, p_.kernel_size_ratio);
    if (!m) return nullptr;
    last_distance_ = m->distance;
    return &history_[m->index];
  }

  void predict_kernel(const emu::Dispatch& d, emu::GlobalMemory& mem, timing::Gpu& gpu, const OnlineAnalysis& a,
                      const KernelRecord& m, runtime::SampledLaunch& rec, runtime::LaunchResult& r) {
    uint64_t insts = 0;
    if (o_.skip_functional) {
      insts = predict_instructions(m, a.instructions_per_warp(), a.warps);
    } else {
      r.stats = emu::run_dispatch(d, mem);
      insts = r.stats.wave_instructions;
    }
    auto lt = std::make_shared<timing::LaunchTiming>();
    lt->kernel = d.kernel_name;
    lt->cycles = uint64_t(std::llround(double(insts) / m.ipc));
    lt->sim_seconds = double(lt->cycles) / (gpu.config().clock_mhz * 1e6);
    lt->wave_instructions = insts;
    lt->thread_instructions = r.stats.thread_instructions;
    lt->ipc = m.ipc;
    lt->functional = r.stats;
    rec.level = "kernel";
    rec.estimated_cycles = lt->cycles;
    rec.predicted_instructions = insts;
    rec.detail["matched_launch"] = m.launch;
    rec.detail["matched_kernel"] = m.kernel;
    rec.detail["matched_warps"] = m.warps;
    rec.detail["distance"] = last_distance_;
    r.timing = lt;
  }

  MethodOptions o_;
  PhotonParams p_;
  std::map<const isa::Program*, std::unique_ptr<ProgramTables>> tables_;
  std::vector<KernelRecord> history_;
  uint32_t launches_ = 0;
  double last_distance_ = 0;
  nlohmann::json levels_ = nlohmann::json::object();
};

std::unique_ptr<SamplingMethod> make_photon(const MethodOptions& o) { return std::make_unique<Photon>(o); }

}  // namespace

STROBE_SAMPLING_METHOD(
    kPhotonRegistered, "photon",
    "Photon (MICRO'23): online kernel, warp and basic-block sampling",
    {{"sample_fraction", 0.01, 1e-6, 1.0, "share of work-groups emulated for the online analysis (at least one)"},
     {"bb_window", 2048, 2, 1 << 20, "n: instances per basic-block type in the least-squares window"},
     {"warp_window", 1024, 2, 1 << 20, "n: warps of the dominant type in the least-squares window"},
     {"delta", 0.03, 1e-6, 1.0, "stability threshold on |1 - slope| and on the n vs 2n mean difference"},
     {"bb_stable_share", 0.95, 0.0, 1.0, "share of sampled instructions in stable block types that switches to basic-block sampling"},
     {"dominant_warp_share", 0.95, 0.0, 1.0, "share of warps the dominant type needs for warp sampling"},
     {"kernel_distance", 0.05, 0.0, 2.0, "GPU BBV distance (mean absolute per dimension) within which an earlier kernel matches"},
     {"kernel_size_ratio", 1.5, 1, 1e9, "largest ratio between a launch's and its match's warp counts, and between their sampled instructions per warp"},
     {"bbv_dims", 16, 1, 256, "dimensions of the random projection of a warp's BBV"},
     {"max_warp_imbalance", 8, 1, 1e9, "longest over mean sampled-warp instructions above which basic-block and warp sampling are not used"},
     {"kernel_level", 1, 0, 1, "1: enable kernel sampling"},
     {"warp_level", 1, 0, 1, "1: enable warp sampling"},
     {"bb_level", 1, 0, 1, "1: enable basic-block sampling"}},
    make_photon);

}  // namespace strobe::sampling
