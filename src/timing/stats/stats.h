// Statistics: plain integer counters owned by the components and registered by hierarchical
// name ("cu.3.busy.valu"). A snapshot copies every value; snapshots subtract, so the stats of
// a window are the difference of the snapshots taken at its ends.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace strobe::timing {

/// Values of every registered counter at one instant.
class StatsSnapshot {
 public:
  StatsSnapshot() = default;
  StatsSnapshot(std::shared_ptr<const std::vector<std::string>> names, std::vector<uint64_t> values)
      : names_(std::move(names)), values_(std::move(values)) {}

  /// Counter-wise difference (this - earlier). Both must come from the same registry.
  StatsSnapshot operator-(const StatsSnapshot& earlier) const;
  /// Value of the counter called `name` (0 if unknown).
  uint64_t get(std::string_view name) const;
  /// Sum over counters whose name is `prefix` + anything + `suffix` (e.g. "cu.", ".busy.valu").
  uint64_t sum(std::string_view prefix, std::string_view suffix) const;
  size_t size() const { return values_.size(); }
  const std::vector<uint64_t>& values() const { return values_; }
  const std::vector<std::string>& names() const;
  bool operator==(const StatsSnapshot& o) const { return values_ == o.values_ && names() == o.names(); }
  /// Nested object following the dotted names: {"cu": {"0": {"busy": {"valu": 12}}}}.
  nlohmann::json to_json() const;

 private:
  std::shared_ptr<const std::vector<std::string>> names_;
  std::vector<uint64_t> values_;
};

/// The name -> counter table. Components register their counters once at construction; the
/// hot path only ever increments the plain integers.
class StatsRegistry {
 public:
  /// Registers `*counter` as `name`. The counter must outlive the registry's snapshots' use.
  void add(std::string name, const uint64_t* counter);
  StatsSnapshot snapshot() const;
  size_t size() const { return ptrs_.size(); }

 private:
  std::shared_ptr<std::vector<std::string>> names_ = std::make_shared<std::vector<std::string>>();
  std::vector<const uint64_t*> ptrs_;
};

}  // namespace strobe::timing
