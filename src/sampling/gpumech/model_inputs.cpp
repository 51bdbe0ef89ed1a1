#include "sampling/gpumech/model_inputs.h"

#include <algorithm>
#include <cmath>

#include "sampling/gpumech/latency.h"
#include "timing/cu/cu_params.h"

namespace strobe::sampling::gpumech {

std::optional<Policy> policy_of(std::string_view scheduler) {
  if (scheduler == "rr") return Policy::RoundRobin;
  if (scheduler == "gto") return Policy::GreedyThenOldest;
  return std::nullopt;
}

MemoryLatencies memory_latencies(const timing::GpuConfig& cfg) {
  MemoryLatencies m;
  m.l1 = double(cfg.l1v_latency);
  m.store = double(2 * cfg.noc_latency + cfg.l2_latency);
  m.l2 = m.l1 + m.store;
  const double dram_cycle = cfg.clock_mhz / cfg.dram_clock_mhz;  // core cycles per DRAM cycle
  const double bytes_per_cycle = cfg.dram_bandwidth_gbs * 1000.0 / (double(cfg.dram_channels) * cfg.clock_mhz);
  m.dram = m.l2 + double(cfg.dram_controller_cycles) + double(cfg.dram_trcd + cfg.dram_tcl) * dram_cycle +
           double(cfg.line_bytes) / bytes_per_cycle;
  m.atomic = double(cfg.l2_atomic_cycles);
  m.scalar = double(cfg.scache_latency);
  m.lds = double(cfg.lds_latency) + std::ceil(64.0 / double(cfg.lds_lanes_per_cycle));
  return m;
}

ModelParams model_params(const timing::GpuConfig& cfg, const timing::Occupancy& occ, uint64_t workgroups,
                         uint64_t waves, Policy policy) {
  ModelParams p;
  p.policy = policy;
  p.simds_per_cu = int(cfg.simds_per_cu);
  p.cycles_per_slot = double(cfg.simds_per_cu);  // the arbiter visits each SIMD once every `simds` cycles
  p.issue_rate = 1;
  p.cus = int(std::clamp<uint64_t>(workgroups, 1, uint64_t(cfg.num_cus)));
  p.waves_per_cu = std::min(double(std::max(1u, occ.waves_per_cu)), std::max(1.0, double(waves) / p.cus));
  p.mshrs_per_cu = int(cfg.l1v_mshrs);
  const MemoryLatencies m = memory_latencies(cfg);
  p.l1_latency = m.l1;
  p.l2_latency = m.l2;
  p.dram_latency = m.dram;
  p.core_ghz = cfg.clock_mhz / 1000.0;
  p.line_bytes = double(cfg.line_bytes);
  p.dram_gb_per_s = cfg.dram_bandwidth_gbs;
  return p;
}

PcLatencies pc_latencies(const isa::Program& program, const std::vector<StaticInst>& statics,
                         const CacheSimResult& sim, const timing::GpuConfig& cfg, const ModelParams& params) {
  const std::vector<timing::InstInfo> info = timing::build_inst_info(program, timing::inst_timing_params(cfg));
  const MemoryLatencies m = memory_latencies(cfg);
  PcLatencies out;
  out.latency.assign(statics.size(), 0);
  out.miss.assign(statics.size(), MissEvents{});
  for (size_t pc = 0; pc < statics.size(); ++pc) {
    const StaticInst& s = statics[pc];
    double& lat = out.latency[pc];
    switch (s.cls) {
      case InstClass::Compute:
        // The detailed model makes an ALU result readable after the unit's cycles; the next
        // issue slot of the wave already waits one slot.
        lat = info[pc].type == timing::IssueType::Internal
                  ? 0
                  : std::max(0.0, double(info[pc].latency) - params.cycles_per_slot);
        break;
      case InstClass::Waitcnt: lat = 0; break;
      case InstClass::Lds: lat = m.lds; break;
      case InstClass::ScalarMemory: lat = m.scalar; break;
      case InstClass::VectorMemory: {
        const PcEvents& e = sim.per_pc[pc];
        if (e.total() == 0) {  // never touched a line (no active lane, LDS aperture, cache control)
          lat = double(cfg.vmem_issue_cycles);
          break;
        }
        out.miss[pc] = e.distribution();
        if (s.access == MemAccess::Write) lat = m.store;
        else lat = amat(out.miss[pc], params) + (s.access == MemAccess::Atomic ? m.atomic : 0);
        break;
      }
    }
  }
  return out;
}

double TraceWaves::miss_latency(const ModelParams& params) const {
  std::vector<uint64_t> count(statics_.size(), 0);
  for (const CollectedWave& w : trace_.waves)
    for (const uint32_t pc : w.pc) ++count[pc];
  // The same weights as MissLatency::add, summed per PC.
  double weighted = 0, weight = 0;
  for (size_t pc = 0; pc < statics_.size(); ++pc) {
    if (statics_[pc].cls != InstClass::VectorMemory || count[pc] == 0) continue;
    const MissEvents& m = pcs_.miss[pc];
    weighted += double(count[pc]) * (m.l2_hit * params.l2_latency + m.l2_miss * params.dram_latency);
    weight += double(count[pc]) * m.l1_miss();
  }
  return weight > 0 ? weighted / weight : 0;
}

void TraceWaves::load(size_t w, WaveTrace& wave) const {
  const CollectedWave& cw = trace_.waves[w];
  std::vector<TraceInst>& out = wave.insts;
  out.resize(cw.size());  // a reused wave keeps its instructions' producer vectors' storage
  LineStream::Reader reader(cw.lines);
  size_t p = 0;
  for (size_t k = 0; k < cw.size(); ++k) {
    const uint32_t pc = cw.pc[k];
    const StaticInst& s = statics_[pc];
    TraceInst& t = out[k];
    t.pc = pc;
    t.cls = s.cls;
    t.access = s.access;
    t.wait = s.wait;
    t.latency = pcs_.latency[pc];
    t.miss = pcs_.miss[pc];
    t.requests = 0;
    if (s.cls == InstClass::VectorMemory) {
      reader.next(lines_);
      if (s.access != MemAccess::None) t.requests = uint32_t(lines_.size());
    }
    t.producers.assign(cw.producers.begin() + ptrdiff_t(p), cw.producers.begin() + ptrdiff_t(p + cw.nproducers[k]));
    p += cw.nproducers[k];
  }
}

}  // namespace strobe::sampling::gpumech
