#include "timing/mem/replacement.h"

#include <fmt/format.h>

#include "common/error.h"

namespace strobe::timing {

using Policies = Registry<ReplacementPolicies>;

std::unique_ptr<ReplacementPolicy> make_replacement_policy(std::string_view name, const ReplacementGeometry& g) {
  const Policies::Entry* e = Policies::find(name);
  if (!e)
    throw InputError(fmt::format("unknown replacement policy '{}' (known: {})", name,
                                 fmt::join(replacement_policy_names(), ", ")));
  if (std::string why = replacement_geometry_error(name, g.ways); !why.empty()) throw InputError(why);
  return e->make(g);
}

std::vector<std::string> replacement_policy_names() { return Policies::names(); }

std::string replacement_geometry_error(std::string_view name, uint32_t ways) {
  const Policies::Entry* e = Policies::find(name);
  return e && e->check ? e->check(ways) : std::string();
}

}  // namespace strobe::timing
