#include "timing/mem/replacement.h"

#include <fmt/format.h>

#include "common/error.h"

namespace strobe::timing {

namespace {
struct Entry {
  const char* name;
  ReplacementFactory make;
};
// The registry: one line per policy.
constexpr Entry kPolicies[] = {
    {"lru", make_lru},
    {"plru", make_tree_plru},
    {"random", make_random_replacement},
};
}  // namespace

std::unique_ptr<ReplacementPolicy> make_replacement_policy(std::string_view name, const ReplacementGeometry& g) {
  for (const Entry& e : kPolicies)
    if (name == e.name) return e.make(g);
  throw InputError(fmt::format("unknown replacement policy '{}' (known: {})", name,
                               fmt::join(replacement_policy_names(), ", ")));
}

std::vector<std::string> replacement_policy_names() {
  std::vector<std::string> v;
  for (const Entry& e : kPolicies) v.emplace_back(e.name);
  return v;
}

}  // namespace strobe::timing
