// Cache replacement: the plug-in point that picks which way of a full set to evict. A policy
// keeps its own state for every set of one cache and is one file under mem/policies/ defining a
// class and registering its factory with STROBE_REPLACEMENT_POLICY.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "timing/config/registry.h"

namespace strobe::timing {

/// The eviction choice of one cache: told every use, asked for a victim when a set is full.
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

/// The replacement plug-in point: factories and optional geometry checks.
struct ReplacementPolicies {
  using Factory = std::unique_ptr<ReplacementPolicy> (*)(const ReplacementGeometry&);
  /// Why a policy cannot serve `ways` ways ("" if it can).
  using Check = std::string (*)(uint32_t ways);
  static constexpr const char* kWhat = "replacement policy";
};

/// Creates the policy registered as `name`; throws InputError listing the known names, or if
/// the policy cannot handle the geometry.
std::unique_ptr<ReplacementPolicy> make_replacement_policy(std::string_view name, const ReplacementGeometry& g);
/// Names of every registered policy, sorted.
std::vector<std::string> replacement_policy_names();
/// Why policy `name` cannot serve a cache of `ways` ways, or "" if it can (or is unknown: the
/// schema rejects unknown names). The one place each policy's geometry rule is evaluated.
std::string replacement_geometry_error(std::string_view name, uint32_t ways);

}  // namespace strobe::timing

/// Registers a replacement policy: NAME, its factory and optionally a geometry check.
#define STROBE_REPLACEMENT_POLICY(NAME, ...) STROBE_REGISTER(::strobe::timing::ReplacementPolicies, NAME, __VA_ARGS__)
