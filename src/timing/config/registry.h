// A named plug-in registry (Ramulator 2's one-macro-per-implementation pattern): each policy file
// registers its factory from a static initialiser with STROBE_REGISTER, so adding a policy is
// one file. The registry is header-only (construct-on-first-use) so that the policy files
// depend on nothing but it; the config schema reads the names from here, so params.def never
// repeats them.
#pragma once

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

namespace strobe::timing {

/// The implementations of one plug-in point. `Tag` names the point and supplies `Factory`
/// (a function pointer type) and `Check` (a geometry check type, or void* when there is none).
template <class Tag>
class Registry {
 public:
  using Factory = typename Tag::Factory;
  using Check = typename Tag::Check;

  /// One registered implementation.
  struct Entry {
    std::string_view name;
    Factory make;
    Check check;  ///< may be null: the implementation accepts any geometry
  };

  /// The entries, in registration order (which is link order: use names() for a stable order).
  static const std::vector<Entry>& entries() { return storage(); }

  /// The entry registered as `name`, or nullptr.
  static const Entry* find(std::string_view name) {
    for (const Entry& e : storage())
      if (e.name == name) return &e;
    return nullptr;
  }

  /// Every registered name, sorted (the order the schema and error messages show).
  static std::vector<std::string> names() {
    std::vector<std::string> v;
    for (const Entry& e : storage()) v.emplace_back(e.name);
    std::sort(v.begin(), v.end());
    return v;
  }

  /// The names joined with '|', as params.def's choice lists read.
  static std::string choices() {
    std::string s;
    for (const std::string& n : names()) s += (s.empty() ? "" : "|") + n;
    return s;
  }

  /// Registers an implementation; a duplicate name is a programming error and aborts.
  static bool add(std::string_view name, Factory make, Check check = nullptr) {
    if (find(name)) {
      std::fprintf(stderr, "strobe: %s '%.*s' registered twice\n", Tag::kWhat, int(name.size()), name.data());
      std::abort();
    }
    storage().push_back({name, make, check});
    return true;
  }

 private:
  static std::vector<Entry>& storage() {
    static std::vector<Entry> entries;
    return entries;
  }
};

}  // namespace strobe::timing

#define STROBE_REGISTRY_CONCAT2(a, b) a##b
#define STROBE_REGISTRY_CONCAT(a, b) STROBE_REGISTRY_CONCAT2(a, b)

/// Registers FACTORY (and optionally a geometry CHECK) as NAME in the registry of TAG, from a
/// static initialiser of the implementation's own file.
#define STROBE_REGISTER(TAG, NAME, ...)                                                         \
  [[maybe_unused]] static const bool STROBE_REGISTRY_CONCAT(strobe_registered_, __LINE__) = \
      ::strobe::timing::Registry<TAG>::add(NAME, __VA_ARGS__)
