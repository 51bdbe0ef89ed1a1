// Cache replacement: the plug-in point that picks which way of a full set to evict. A policy
// keeps its own state for every set of one cache and is one file defining a class plus a
// registration line in replacement.cpp.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace strobe::timing {

class ReplacementPolicy {
 public:
  virtual ~ReplacementPolicy() = default;
  /// `way` of `set` was just used: a hit, a write to a present line, or a fill.
  virtual void touch(uint32_t set, uint32_t way) = 0;
  /// The way of the full `set` to evict.
  virtual uint32_t victim(uint32_t set) = 0;
};

/// What a policy is built for.
struct ReplacementGeometry {
  uint32_t sets = 1, ways = 1;
  uint64_t seed = 0;  ///< the cache's own seed (randomised policies)
};

using ReplacementFactory = std::unique_ptr<ReplacementPolicy> (*)(const ReplacementGeometry&);

/// Creates the policy registered as `name`; throws InputError listing the known names, or if
/// the policy cannot handle the geometry.
std::unique_ptr<ReplacementPolicy> make_replacement_policy(std::string_view name, const ReplacementGeometry& g);
/// Names of every registered policy.
std::vector<std::string> replacement_policy_names();

// Factories defined one per file.
std::unique_ptr<ReplacementPolicy> make_lru(const ReplacementGeometry& g);
std::unique_ptr<ReplacementPolicy> make_tree_plru(const ReplacementGeometry& g);
std::unique_ptr<ReplacementPolicy> make_random_replacement(const ReplacementGeometry& g);

}  // namespace strobe::timing
