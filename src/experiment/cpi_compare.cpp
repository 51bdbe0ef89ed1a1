// CPI stacks side by side (see cpi_compare.h).
#include "experiment/cpi_compare.h"

#include <array>
#include <cmath>
#include <string>

#include <fmt/core.h>

#include "common/error.h"
#include "timing/cu/cpi_accountant.h"

namespace strobe::experiment {

namespace {

/// A GPUMech category (Table 9) and the detailed category it is compared with.
struct Pairing {
  const char* name;
  timing::CpiReason detailed;
};

constexpr Pairing kPairings[] = {
    {"BASE", timing::CpiReason::Issue}, {"DEP", timing::CpiReason::Dependency}, {"L1", timing::CpiReason::L1},
    {"L2", timing::CpiReason::L2},      {"DRAM", timing::CpiReason::Dram},      {"MSHR", timing::CpiReason::MshrQueue},
    {"QUEUE", timing::CpiReason::DramQueue},
};

/// What GPUMech does not model (§2.10): synchronisation, the front end, and the rest.
constexpr timing::CpiReason kUnmodelled[] = {timing::CpiReason::Barrier, timing::CpiReason::Fetch,
                                             timing::CpiReason::Other};

/// What the comparison reads of a detailed launch: its totals and its CPI stack in CU cycles.
struct DetailedLaunch {
  std::string kernel;
  double cycles = 0, wave_instructions = 0;
  std::array<double, size_t(timing::CpiReason::COUNT)> stack{};
};

/// Both stacks side by side over the SIMDs of `predicted`.
report::CpiComparison side_by_side(const nlohmann::json& predicted, const DetailedLaunch& full) {
  report::CpiComparison c;
  try {
    c.simds = predicted.at("simds").get<uint32_t>();
    c.predicted_cpi = predicted.at("cpi").get<double>();
    for (const Pairing& p : kPairings)
      c.categories.push_back({p.name, timing::cpi_name(p.detailed), true, predicted.at("stack").at(p.name).get<double>(), 0});
  } catch (const nlohmann::json::exception& e) {
    throw FaultError(fmt::format("launch of {}: the method's CPI record is incomplete: {}", full.kernel, e.what()));
  }
  c.detailed_cpi = full.wave_instructions > 0 ? full.cycles * c.simds / full.wave_instructions : 0;
  c.error_pct = c.detailed_cpi > 0 ? 100.0 * (c.predicted_cpi - c.detailed_cpi) / c.detailed_cpi : 0;
  double total = 0;
  for (double v : full.stack) total += v;
  const auto share = [&](timing::CpiReason r) { return total > 0 ? full.stack[size_t(r)] / total * c.detailed_cpi : 0; };
  for (size_t i = 0; i < std::size(kPairings); ++i) c.categories[i].detailed = share(kPairings[i].detailed);
  for (timing::CpiReason r : kUnmodelled) c.categories.push_back({timing::cpi_name(r), timing::cpi_name(r), false, 0, share(r)});
  return c;
}

}  // namespace

report::CpiComparison compare_cpi(const nlohmann::json& predicted, const timing::LaunchTiming& full) {
  DetailedLaunch d{full.kernel, double(full.cycles), double(full.wave_instructions), {}};
  for (size_t r = 0; r < d.stack.size(); ++r)
    d.stack[r] = double(full.stats.sum("cu.", std::string(".cpi.") + timing::cpi_name(timing::CpiReason(r))));
  return side_by_side(predicted, d);
}

report::CpiComparison compare_cpi(const nlohmann::json& predicted, const nlohmann::json& full_kernel) {
  DetailedLaunch d;
  try {
    d.kernel = full_kernel.at("name").get<std::string>();
    d.cycles = full_kernel.at("cycles").get<double>();
    d.wave_instructions = full_kernel.at("wave_instructions").get<double>();
    const nlohmann::json& stack = full_kernel.at("timing").at("cpi_stack");
    for (size_t r = 0; r < d.stack.size(); ++r)
      d.stack[r] = stack.at(timing::cpi_name(timing::CpiReason(r))).at("cycles").get<double>();
  } catch (const nlohmann::json::exception& e) {
    throw FaultError(fmt::format("the detailed run's report lacks a launch's CPI stack: {}", e.what()));
  }
  return side_by_side(predicted, d);
}

std::optional<double> mean_abs_cpi_error_pct(const std::vector<report::LaunchComparison>& launches) {
  double sum = 0;
  size_t n = 0;
  for (const auto& l : launches)
    if (l.cpi) {
      sum += std::abs(l.cpi->error_pct);
      ++n;
    }
  if (n == 0) return std::nullopt;
  return sum / double(n);
}

}  // namespace strobe::experiment
