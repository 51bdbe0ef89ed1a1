// GPUMech's parameters and model switches [D §4.4-4.6, METHODS.md §2.4-2.9]. Defaults are the
// dissertation's baseline (Table 7) with the GCN3 issue mapping of METHODS.md §2.9.1; the
// integration fills the memory system and occupancy from the simulated GPU's configuration.
#pragma once

#include <cstdint>

namespace strobe::sampling::gpumech {

/// How far up the Table 8 ablation chain the prediction goes.
enum class Level : uint8_t {
  NaiveInterval,  ///< Eq. 10: single-wave IPC times waves ("optimistic overlap"), no contention
  MT,             ///< multithreading with the scheduler's non-overlapped instructions (Eqs. 16-25)
  MtMshr,         ///< MT plus MSHR queueing (Eqs. 27-29)
  MtMshrBand,     ///< MT plus MSHR plus M/D/1 DRAM bandwidth queueing (Eqs. 30-32): GPUMech
};

/// Wave scheduling policy the multithreading model assumes (strobe's oldest-first is not modelled).
enum class Policy : uint8_t { RoundRobin, GreedyThenOldest };

/// Which requests load the per-CU MSHRs (§2.5, an interpretation).
enum class MshrDemand : uint8_t {
  L1MissingReads,  ///< expected L1-missing read requests: requests x P(L1 miss) of reads (default)
  AllRequests,     ///< literal Eq. 27: every coalesced request of every vector memory instruction
};

/// Which requests arrive at the DRAM queue (§2.5, an interpretation).
enum class DramDemand : uint8_t {
  DramRequests,  ///< expected L2-missing requests of every memory instruction, writes included (default)
  SameAsMshr,    ///< literal Eq. 32: the same core_reqs as the MSHR model
};

/// What Eq. 26 divides the representative's contention delays by (§2.5, an interpretation).
enum class RcNormalisation : uint8_t {
  AsWritten,  ///< Σ delays / Σ insts of one wave, as Eq. 26 is written (METHODS.md: implement it so, and flag it)
  PerW,       ///< Σ delays / (W x Σ insts), the normalisation Eq. 16 gives CPI_MT: the W waves of a SIMD share the delay
};

/// How the representative wave is chosen (§2.3; MAX and MIN are the paper's comparison points).
enum class RepresentativeChoice : uint8_t { Clustering, MaxPerf, MinPerf };

/// Every parameter of the analytical model.
struct ModelParams {
  Policy policy = Policy::RoundRobin;  ///< scheduling policy of the multithreading model
  double cycles_per_slot = 4;   ///< cycles per issue slot: a GCN3 SIMD issues once per 4 cycles (1 = the paper's per-core cycle)
  double issue_rate = 1;        ///< r: wave instructions issued per slot (Eqs. 14, 16, 25, 32)
  double waves_per_cu = 32;     ///< resident waves per CU (the paper's baseline is 32 warps per core)
  int simds_per_cu = 4;         ///< SIMDs per CU; the interval and multithreading models run per SIMD
  int cus = 16;                 ///< #cores of Eq. 32 (CUs)
  int mshrs_per_cu = 32;        ///< #MSHR of Eqs. 28-29, per CU
  double l1_latency = 25;       ///< cycles of an L1 hit
  double l2_latency = 120;      ///< cycles of an L2 hit (the network folded in)
  double dram_latency = 420;    ///< cycles of an L2 miss: L2 plus DRAM access (120 + 300)
  double core_ghz = 1.0;        ///< core clock (GHz) converting the DRAM line time to cycles (Eq. 31)
  double line_bytes = 128;      ///< L: bytes per DRAM request (cache line)
  double dram_gb_per_s = 192;   ///< B: DRAM bandwidth in GB/s
  MshrDemand mshr_demand = MshrDemand::L1MissingReads;  ///< requests counted by Eq. 27
  DramDemand dram_demand = DramDemand::DramRequests;    ///< requests counted by Eq. 32
  RcNormalisation rc_normalisation = RcNormalisation::AsWritten;  ///< Eq. 26's divisor
  bool include_drain = false;   ///< give the trailing interval the stall until its last result is done
  RepresentativeChoice representative = RepresentativeChoice::Clustering;  ///< representative wave rule
  uint64_t kmeans_seed = 1;     ///< seed of the first k-means++ restart
  int kmeans_restarts = 8;      ///< k-means restarts (seeds kmeans_seed, +1, ...); the lowest inertia wins

  /// W of Eqs. 16-25: waves sharing one SIMD's issue slots (an average when occupancy is uneven).
  [[nodiscard]] double waves_per_simd() const { return waves_per_cu / simds_per_cu; }
  /// DRAM service time of one request in slots: s = f_core x L / B (Eq. 31), over cycles_per_slot.
  [[nodiscard]] double dram_service_slots() const {
    return core_ghz * line_bytes / dram_gb_per_s / cycles_per_slot;
  }
};

}  // namespace strobe::sampling::gpumech
