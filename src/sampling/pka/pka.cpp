// PKA, Principal Kernel Analysis (Baddouh et al., MICRO'21), as Photon describes and uses it.
//
// Pass 1 profiles every launch functionally (PKA profiles on hardware; strobe's profiler is its
// emulator) into per-kernel features, which are standardised, reduced by PCA and clustered by
// k-means. Pass 2 simulates the first launch of each cluster in detail until its IPC, measured
// from its first issued instruction, is stable (variance below s over the last 3000 cycles), then
// extrapolates the rest of it from that IPC (ipc_stability.h); every other launch takes its
// representative's lead and IPC.
#include <algorithm>
#include <cmath>

#include <Eigen/Dense>
#include <fmt/format.h>

#include "common/error.h"
#include "emu/executor.h"
#include "sampling/method.h"
#include "sampling/pka/ipc_stability.h"
#include "sampling/numeric/kmeans.h"
#include "sampling/numeric/pca.h"
#include "timing/gpu/gpu.h"

namespace strobe::sampling {

namespace {

using timing::InstInfo;
using timing::IssueType;

/// PKA-style per-kernel features measurable by emulation.
constexpr int kFeatures = 13;

struct Profile {
  std::string kernel;
  std::array<double, kFeatures> features{};
  emu::DispatchStats stats;
};

/// Emulates a dispatch one instruction at a time, classifying each, and returns its profile.
Profile profile_dispatch(const emu::Dispatch& d, emu::GlobalMemory& mem, const std::vector<InstInfo>& info,
                         uint32_t line_bits) {
  emu::Executor ex(d, mem, 1);
  emu::WorkGroup wg;
  emu::MemAccessInfo mi;
  Profile p;
  p.kernel = d.kernel_name;
  emu::DispatchStats& st = p.stats;
  uint64_t valu = 0, salu = 0, loads = 0, stores = 0, lds = 0, smem = 0, branch = 0, lines = 0;
  uint64_t addr[64];
  for (uint64_t g = 0; g < ex.workgroup_count(); ++g) {
    ex.init_workgroup(wg, g, 0);
    do {
      for (emu::Wave& w : wg.waves) {
        while (!w.halted && !w.at_barrier) {
          const uint32_t pc = w.pc;
          const InstInfo* in = pc < info.size() ? &info[pc] : nullptr;
          const bool vmem = in && in->type == IssueType::Vmem;
          if (vmem) mi.lane_mask = 0;
          wg.ctx.mem_info = vmem ? &mi : nullptr;
          ex.step(w, wg, st);
          if (!in) continue;
          switch (in->type) {
            case IssueType::Valu: ++valu; break;
            case IssueType::Scalar: ++(in->is_scalar_mem ? smem : salu); break;
            case IssueType::Lds: ++lds; break;
            case IssueType::Branch: ++branch; break;
            case IssueType::Vmem: {
              ++(in->is_store ? stores : loads);
              int n = 0;
              for (uint64_t m = mi.lane_mask; m; m &= m - 1) addr[n++] = mi.lane_addr[std::countr_zero(m)] >> line_bits;
              std::sort(addr, addr + n);
              lines += uint64_t(std::unique(addr, addr + n) - addr);
              break;
            }
            default: break;
          }
        }
      }
    } while (emu::Executor::try_release_barrier(wg));
    st.wavefronts += wg.waves.size();
    ++st.workgroups;
  }
  const double insts = double(std::max<uint64_t>(st.wave_instructions, 1));
  const uint64_t vm = loads + stores;
  p.features = {std::log1p(double(st.wave_instructions)),
                std::log1p(double(st.thread_instructions)),
                double(st.thread_instructions) / (insts * 64.0),
                double(valu) / insts,
                double(salu) / insts,
                double(loads) / insts,
                double(stores) / insts,
                double(lds) / insts,
                double(smem) / insts,
                double(branch) / insts,
                vm ? double(lines) / double(vm) : 0.0,
                std::log1p(double(st.workgroups)),
                st.workgroups ? double(st.wavefronts) / double(st.workgroups) : 0.0};
  return p;
}

class Pka final : public SamplingMethod {
 public:
  explicit Pka(const MethodOptions& o) : o_(o), profile_(*this), sampled_(*this) {}
  int passes() const override { return 2; }
  runtime::DispatchRunner& runner(int pass) override {
    if (pass == 0) return profile_;
    return sampled_;
  }
  void end_pass(int pass) override {
    if (pass == 0) cluster();
  }
  nlohmann::json summary() const override {
    return {{"launches", profiles_.size()}, {"clusters", k_}, {"pca_components", components_},
            {"representatives", representatives_}};
  }

 private:
  struct ProfileRunner final : runtime::DispatchRunner {
    explicit ProfileRunner(Pka& m) : m(m) {}
    runtime::LaunchResult run(const emu::Dispatch& d, emu::GlobalMemory& mem, timing::Gpu& gpu) override {
      Profile p = profile_dispatch(d, mem, m.info(*d.program), uint32_t(std::countr_zero(uint64_t(m.o_.gpu.line_bytes))));
      runtime::LaunchResult r;
      r.stats = p.stats;
      auto rec = std::make_shared<runtime::SampledLaunch>();
      rec->method = "pka";
      rec->level = "profile";
      rec->functional_instructions = p.stats.wave_instructions;
      r.sampling = rec;
      m.profiles_.push_back(std::move(p));
      return r;
    }
    Pka& m;
  };
  struct SampledRunner final : runtime::DispatchRunner {
    explicit SampledRunner(Pka& m) : m(m) {}
    runtime::LaunchResult run(const emu::Dispatch& d, emu::GlobalMemory& mem, timing::Gpu& gpu) override {
      return m.run_sampled(d, mem, gpu);
    }
    Pka& m;
  };

  const std::vector<InstInfo>& info(const isa::Program& p) {
    auto& v = info_[&p];
    if (v.empty()) v = timing::build_inst_info(p, timing::inst_timing_params(o_.gpu));
    return v;
  }

  void cluster() {
    const size_t n = profiles_.size();
    labels_.assign(n, 0);
    if (n == 0) return;
    Eigen::MatrixXd x(Eigen::Index(n), kFeatures);
    for (size_t i = 0; i < n; ++i)
      for (int f = 0; f < kFeatures; ++f) x(Eigen::Index(i), f) = profiles_[i].features[size_t(f)];
    const PcaResult pc = pca(x, o_.param("pca_variance"));
    components_ = pc.components;
    const KMeansResult km =
        kmeans_choose_k(pc.projected, int(o_.param("max_clusters")), o_.param("cluster_explained"), 0x504B41);
    k_ = km.k;
    for (size_t i = 0; i < n; ++i) labels_[i] = km.labels.empty() ? 0 : km.labels[i];
    rep_of_.assign(size_t(std::max(k_, 1)), -1);
    rep_ipc_.assign(rep_of_.size(), 0.0);
    rep_lead_.assign(rep_of_.size(), 0);
    representatives_ = nlohmann::json::array();
    for (size_t i = 0; i < n; ++i)
      if (rep_of_[size_t(labels_[i])] < 0) {
        rep_of_[size_t(labels_[i])] = int(i);
        representatives_.push_back(i);
      }
  }

  runtime::LaunchResult run_sampled(const emu::Dispatch& d, emu::GlobalMemory& mem, timing::Gpu& gpu) {
    const size_t i = launch_++;
    if (i >= profiles_.size() || profiles_[i].kernel != d.kernel_name)
      throw FaultError(fmt::format("pka: launch {} ({}) differs from the profiling pass; the workload must launch the "
                                   "same kernels in the same order every run",
                                   i, d.kernel_name));
    const size_t c = size_t(labels_[i]);
    const uint64_t insts = profiles_[i].stats.wave_instructions;
    auto rec = std::make_shared<runtime::SampledLaunch>();
    rec->method = "pka";
    rec->emulated = !o_.skip_functional;
    rec->detail = {{"cluster", c}, {"representative", rep_of_[c]}};
    runtime::LaunchResult r;
    std::shared_ptr<timing::LaunchTiming> lt;
    if (rep_of_[c] == int(i)) {
      IpcStabilityObserver obs(uint64_t(o_.param("ipc_interval")), uint64_t(o_.param("ipc_window")),
                               o_.param("ipc_variance"), o_.skip_functional);
      lt = std::make_shared<timing::LaunchTiming>(gpu.run(d, mem, &obs));
      rec->detailed_instructions = lt->detailed_wave_instructions;
      rec->predicted_instructions = insts - std::min(insts, lt->detailed_wave_instructions);
      // The lead (launch overhead and first dispatch) is a fixed cost of a launch, measured here;
      // only the time after the first issue scales with the instructions.
      const uint64_t lead = std::min(obs.lead_cycles(), lt->cycles);
      if (obs.stopped()) {
        rec->level = "ipc-projection";
        lt->cycles = obs.projected_cycles(insts);
        rec->detail["stop_cycle"] = obs.stop_cycles();
        rec->detail["stop_ipc"] = obs.stop_ipc();
        rep_ipc_[c] = obs.stop_ipc();
      } else {
        rec->level = "detailed";
        rep_ipc_[c] = lt->cycles > lead ? double(insts) / double(lt->cycles - lead) : 0.0;
      }
      rec->detail["lead_cycles"] = lead;
      rep_lead_[c] = lead;
      r.stats = lt->functional;
    } else {
      if (!o_.skip_functional) r.stats = emu::run_dispatch(d, mem);
      lt = std::make_shared<timing::LaunchTiming>();
      lt->kernel = d.kernel_name;
      lt->cycles = rep_ipc_[c] > 0 ? rep_lead_[c] + uint64_t(std::llround(double(insts) / rep_ipc_[c])) : 0;
      lt->functional = r.stats;
      rec->level = "cluster";
      rec->predicted_instructions = insts;
    }
    lt->wave_instructions = insts;
    lt->thread_instructions = profiles_[i].stats.thread_instructions;
    lt->ipc = lt->cycles ? double(insts) / double(lt->cycles) : 0.0;
    lt->sim_seconds = double(lt->cycles) / (gpu.config().clock_mhz * 1e6);
    rec->estimated_cycles = lt->cycles;
    r.timing = lt;
    r.sampling = rec;
    return r;
  }

  MethodOptions o_;
  ProfileRunner profile_;
  SampledRunner sampled_;
  std::map<const isa::Program*, std::vector<InstInfo>> info_;
  std::vector<Profile> profiles_;
  std::vector<int> labels_, rep_of_;
  std::vector<double> rep_ipc_;   ///< each cluster's representative's IPC after its first issue
  std::vector<uint64_t> rep_lead_;  ///< each representative's cycles from launch to first issue
  int k_ = 0, components_ = 0;
  size_t launch_ = 0;
  nlohmann::json representatives_ = nlohmann::json::array();
};

std::unique_ptr<SamplingMethod> make_pka(const MethodOptions& o) { return std::make_unique<Pka>(o); }

}  // namespace

STROBE_SAMPLING_METHOD(
    kPkaRegistered, "pka",
    "PKA (MICRO'21): kernel clustering on profiled features, IPC-stability projection within a kernel",
    {{"ipc_variance", 0.25, 0.0, 1e9, "s: IPC variance threshold over the window"},
     {"ipc_window", 3000, 1, 1e9, "cycles of IPC history the variance is taken over"},
     {"ipc_interval", 100, 1, 1e6, "cycles between IPC samples"},
     {"pca_variance", 0.95, 0.01, 1.0, "share of feature variance the kept principal components explain"},
     {"max_clusters", 20, 1, 1000, "largest k tried"},
     {"cluster_explained", 0.95, 0.0, 1.0, "smallest k whose clustering explains this share of the variance"}},
    make_pka);

}  // namespace strobe::sampling
