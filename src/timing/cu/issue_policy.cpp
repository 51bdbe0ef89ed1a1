#include "timing/cu/issue_policy.h"

#include <fmt/format.h>

#include "common/error.h"

namespace strobe::timing {

std::unique_ptr<IssuePolicy> make_issue_policy(std::string_view name) {
  if (const auto* e = Registry<IssuePolicies>::find(name)) return e->make();
  throw InputError(fmt::format("unknown issue policy '{}' (known: {})", name, fmt::join(issue_policy_names(), ", ")));
}

std::vector<std::string> issue_policy_names() { return Registry<IssuePolicies>::names(); }

}  // namespace strobe::timing
