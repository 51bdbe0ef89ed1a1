// GPUMech's method parameters, declared once (METHODS.md §2.4-2.5, §2.9.6, Table 8): the struct
// the method reads and the schema --sampling-set validates both come from this list. The model's
// machine parameters are not here: they are the simulated GPU's configuration (model_inputs.h).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sampling/gpumech/model_params.h"
#include "sampling/gpumech/trace_collector.h"
#include "sampling/method.h"

namespace strobe::sampling::gpumech {

/// Which multithreading policy the model assumes: the configured scheduler's, or one named.
enum class PolicyChoice : uint8_t { Config, RoundRobin, GreedyThenOldest };

/// Value names of the enumeration parameters, as --sampling-set spells them (value order).
inline std::vector<std::string> param_choices(Level) { return {"naive", "mt", "mt_mshr", "gpumech"}; }
/// `policy`: config (cu.scheduler where GPUMech models it), rr or gto.
inline std::vector<std::string> param_choices(PolicyChoice) { return {"config", "rr", "gto"}; }
/// `mshr_demand`: the default reading, or the literal Eq. 27.
inline std::vector<std::string> param_choices(MshrDemand) { return {"l1_missing_reads", "all_requests"}; }
/// `dram_demand`: the default reading, or the literal Eq. 32.
inline std::vector<std::string> param_choices(DramDemand) { return {"dram_requests", "same_as_mshr"}; }
/// `rc_normalisation`: Eq. 26 as written, or per W as Eq. 16.
inline std::vector<std::string> param_choices(RcNormalisation) { return {"as_written", "per_w"}; }


// X(type, name, default, lo, hi, doc).
//  - level: how far up the Table 8 ablation chain (naive, mt, mt_mshr, gpumech = MT_MSHR_BAND).
//  - policy: the multithreading model; `config` maps cu.scheduler (rr, gto) and refuses a
//    scheduler GPUMech has no model of (strobe's oldest) rather than mapping it silently (§2.9.6).
//  - mshr_demand, dram_demand: the two interpretations of §2.5 (defaults: METHODS.md's readings).
//  - rc_normalisation: Eq. 26 as written (what METHODS.md asks for), or divided by W as Eq. 16
//    divides CPI_MT, the default: its measured mean CPI error is 28.8% against 309% as written
//    (docs/gpumech.md).
//  - dram_bound, tail_bound: strobe's extensions. The balanced estimate spreads a launch's
//    instructions evenly over every SIMD at the modelled CPI, so it cannot be shorter than DRAM
//    moving the lines the caches miss, nor than its slowest wave running alone; each bound
//    makes it at least that (transpose -55% and spmv_csr -98.7% without them).
//  - max_trace_instructions: the trace cap; a launch past it stops the run (InputError).
#define STROBE_GPUMECH_PARAMS(X)                                                                                  \
  X(Level, level, Level::MtMshrBand, 0, 3, "ablation level: naive, mt, mt_mshr or gpumech (Table 8)")             \
  X(PolicyChoice, policy, PolicyChoice::Config, 0, 2,                                                            \
    "multithreading policy: config (cu.scheduler, rr or gto), rr or gto")                                        \
  X(MshrDemand, mshr_demand, MshrDemand::L1MissingReads, 0, 1,                                                   \
    "MSHR demand of Eq. 27: l1_missing_reads (expected L1-missing reads) or all_requests (literal)")             \
  X(DramDemand, dram_demand, DramDemand::DramRequests, 0, 1,                                                     \
    "DRAM demand of Eq. 32: dram_requests (L2-missing, writes included) or same_as_mshr (literal)")              \
  X(RcNormalisation, rc_normalisation, RcNormalisation::PerW, 0, 1,                                              \
    "Eq. 26's divisor: as_written (one wave's instructions) or per_w (W x instructions, as Eq. 16)")             \
  X(bool, dram_bound, 1, 0, 1, "1: at least DRAM's time for the lines the L2 misses (strobe's extension; paper: 0)") \
  X(bool, tail_bound, 1, 0, 1, "1: at least the slowest wave alone (strobe's extension; the paper: 0)")          \
  X(uint64_t, max_trace_instructions, kDefaultMaxInstructions, 1, 1e12,                                          \
    "wave instructions a launch's trace may hold; a longer launch stops the run")

/// Every tunable of GPUMech (names as --sampling-set spells them).
STROBE_METHOD_PARAMS(GpumechParams, STROBE_GPUMECH_PARAMS);

}  // namespace strobe::sampling::gpumech
