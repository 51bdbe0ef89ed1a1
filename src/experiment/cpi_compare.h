// An analytical method's CPI stack beside the detailed model's for the same launch (METHODS.md
// §2.6): the arithmetic behind the report contract's CpiComparison, done once here so that the
// JSON and text writers only render it.
#pragma once

#include <optional>
#include <vector>

#include "report/comparison.h"
#include "runtime/device.h"
#include "timing/gpu/gpu.h"

namespace strobe::experiment {

/// An analytical method's `predicted` CPI (a launch record's `detail.cpi`: `cpi`, `simds` and the
/// seven-category `stack` by GPUMech's names) against the detailed launch `full`, both in cycles
/// per wave instruction per SIMD over the SIMDs the prediction is per: the detailed CPI is full.cycles x simds / wave
/// instructions, and each detailed category its share of the detailed stack (every CU cycle,
/// idle CUs' in `other`) times that CPI, so both stacks sum to their CPI. BASE faces issue, DEP
/// dependency, L1 l1, L2 l2, DRAM dram, MSHR mshr_queue, QUEUE dram_queue; barrier, fetch and
/// other have no GPUMech counterpart and are listed as unmodelled.
/// Throws FaultError when `predicted` lacks a field.
report::CpiComparison compare_cpi(const nlohmann::json& predicted, const timing::LaunchTiming& full);

/// The same against a detailed launch as a run report writes it (`kernels[i]` of a program's
/// report: `cycles`, `wave_instructions`, `timing.cpi_stack.NAME.cycles`); FaultError when a
/// field is missing.
report::CpiComparison compare_cpi(const nlohmann::json& predicted, const nlohmann::json& full_kernel);

/// Mean |CPI error| over the launches that carry a CPI comparison; none when no launch does.
std::optional<double> mean_abs_cpi_error_pct(const std::vector<report::LaunchComparison>& launches);

}  // namespace strobe::experiment
