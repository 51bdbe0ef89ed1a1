// The glue between a traced launch and GPUMech's model: ModelParams from the simulated GPU's
// configuration and the launch's occupancy, and ModelInputs from the traces, the cache-only
// simulation and the configured latencies (docs/gpumech.md, "Inputs from a launch").
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "isa/program.h"
#include "sampling/gpumech/cache_sim.h"
#include "sampling/gpumech/launch_trace.h"
#include "sampling/gpumech/model_params.h"
#include "sampling/gpumech/predict.h"
#include "sampling/gpumech/static_inst.h"
#include "timing/config/gpu_config.h"
#include "timing/cu/occupancy.h"

namespace strobe::sampling::gpumech {

/// The multithreading policy that models strobe's issue policy `scheduler` (cu.scheduler):
/// "rr" and "gto"; nullopt for "oldest", which GPUMech does not model.
std::optional<Policy> policy_of(std::string_view scheduler);

/// Cycles from issue to the result for the memory levels of `cfg`, as the detailed model's
/// request paths add them up (docs/timing-model.md, "Latencies").
struct MemoryLatencies {
  double l1 = 0;      ///< L1V hit: l1v.latency
  double l2 = 0;      ///< L2 hit: l1v + 2 noc + l2
  double dram = 0;    ///< L2 miss: the L2 hit plus controller, row miss (tRCD + tCL) and one line's burst
  double store = 0;   ///< a write's acknowledgement from the L2: 2 noc + l2
  double atomic = 0;  ///< extra cycles of an atomic performed at the L2
  double scalar = 0;  ///< scalar load: scache.latency (a scalar-cache hit; no scalar cache is simulated)
  double lds = 0;     ///< LDS without bank conflicts: lds.latency + the lane groups' cycles
};

/// The latencies of `cfg`.
MemoryLatencies memory_latencies(const timing::GpuConfig& cfg);

/// ModelParams for a launch of `workgroups` groups and `waves` waves with occupancy `occ` on
/// `cfg`, under `policy`: CUs the launch occupies, resident waves per CU (the occupancy, or the
/// launch's average when it cannot fill every CU), SIMDs and issue slots from the CU, L1V MSHRs,
/// the memory latencies and the DRAM's clock, line and bandwidth.
ModelParams model_params(const timing::GpuConfig& cfg, const timing::Occupancy& occ, uint64_t workgroups,
                         uint64_t waves, Policy policy);

/// Per static instruction of `program`: its latency in cycles (Eq. 13's latency(PC)) and miss
/// distribution. Compute instructions take their unit's configured cycles less the one issue
/// slot the cadence hides; memory instructions the AMAT of their cache-simulation distribution.
struct PcLatencies {
  std::vector<double> latency;
  std::vector<MissEvents> miss;
};

/// The per-PC latencies of a program that `statics` describes.
PcLatencies pc_latencies(const isa::Program& program, const std::vector<StaticInst>& statics,
                         const CacheSimResult& sim, const timing::GpuConfig& cfg, const ModelParams& params);

/// Every traced wave as the model reads it (in the trace's order), with its PCs' latencies and
/// miss distributions and each dynamic memory instruction's request count, decoded from the
/// compact trace one wave at a time. Holds references: the trace, statics and latencies must
/// outlive it.
class TraceWaves final : public WaveSource {
 public:
  /// The waves of `trace`, described by `statics` and `pcs`.
  TraceWaves(const LaunchTrace& trace, const std::vector<StaticInst>& statics, const PcLatencies& pcs)
      : trace_(trace), statics_(statics), pcs_(pcs) {}
  [[nodiscard]] size_t size() const override { return trace_.waves.size(); }
  void load(size_t w, WaveTrace& out) const override;
  /// Eq. 28's avg_miss_latency over every wave, from per-PC execution counts: what
  /// survey_waves() gathers, without decoding a wave (§2.7's re-run needs only this of them).
  [[nodiscard]] double miss_latency(const ModelParams& params) const;

 private:
  const LaunchTrace& trace_;
  const std::vector<StaticInst>& statics_;
  const PcLatencies& pcs_;
  mutable std::vector<uint64_t> lines_;  ///< one instruction's lines, decoded only to count them
};

}  // namespace strobe::sampling::gpumech
