#include "timing/stats/stats.h"

#include <nlohmann/json.hpp>

#include "common/error.h"

namespace strobe::timing {

namespace {
const std::vector<std::string> kNoNames;
}

const std::vector<std::string>& StatsSnapshot::names() const { return names_ ? *names_ : kNoNames; }

StatsSnapshot StatsSnapshot::operator-(const StatsSnapshot& earlier) const {
  if (earlier.values_.empty()) return *this;
  if (earlier.values_.size() != values_.size())
    throw Error(ExitCode::Failure, "stats snapshots from different registries cannot be subtracted");
  std::vector<uint64_t> d(values_.size());
  for (size_t i = 0; i < d.size(); ++i) d[i] = values_[i] - earlier.values_[i];
  return StatsSnapshot(names_, std::move(d));
}

uint64_t StatsSnapshot::get(std::string_view name) const {
  const auto& n = names();
  for (size_t i = 0; i < n.size(); ++i)
    if (n[i] == name) return values_[i];
  return 0;
}

uint64_t StatsSnapshot::sum(std::string_view prefix, std::string_view suffix) const {
  const auto& n = names();
  uint64_t s = 0;
  for (size_t i = 0; i < n.size(); ++i)
    if (n[i].size() >= prefix.size() + suffix.size() && std::string_view(n[i]).starts_with(prefix) &&
        std::string_view(n[i]).ends_with(suffix))
      s += values_[i];
  return s;
}

nlohmann::json StatsSnapshot::to_json() const {
  nlohmann::json j = nlohmann::json::object();
  const auto& n = names();
  for (size_t i = 0; i < n.size(); ++i) {
    nlohmann::json* node = &j;
    std::string_view key = n[i];
    size_t dot;
    while ((dot = key.find('.')) != std::string_view::npos) {
      node = &(*node)[std::string(key.substr(0, dot))];
      key.remove_prefix(dot + 1);
    }
    (*node)[std::string(key)] = values_[i];
  }
  return j;
}

void StatsRegistry::add(std::string name, const uint64_t* counter) {
  names_->push_back(std::move(name));
  ptrs_.push_back(counter);
}

StatsSnapshot StatsRegistry::snapshot() const {
  std::vector<uint64_t> v(ptrs_.size());
  for (size_t i = 0; i < v.size(); ++i) v[i] = *ptrs_[i];
  return StatsSnapshot(names_, std::move(v));
}

}  // namespace strobe::timing
