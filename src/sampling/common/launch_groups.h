// Launches grouped by a key (a kernel name, or a kernel and its geometry), as the launch-level
// methods group them before they stratify or cluster: Sieve's strata and STEM's clusters.
#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace strobe::sampling {

/// One group: its key and its launches' indices in program order.
using LaunchGroup = std::pair<std::string, std::vector<size_t>>;

/// The indices 0..rows.size()-1 grouped by `key(rows[i])`, groups in order of their first launch.
template <class Rows, class Key>
std::vector<LaunchGroup> groups_by_first_launch(const Rows& rows, Key key) {
  std::vector<LaunchGroup> out;
  std::map<std::string, size_t> at;
  for (size_t i = 0; i < rows.size(); ++i) {
    auto [it, fresh] = at.try_emplace(key(rows[i]), out.size());
    if (fresh) out.push_back({it->first, {}});
    out[it->second].second.push_back(i);
  }
  return out;
}

}  // namespace strobe::sampling
