// The benchmark registry.
#include "workloads/benchmark.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>

namespace strobe::workloads {

Registry& Registry::instance() {
  static Registry r;  // function-local: safe to use from other translation units' static initialisers
  return r;
}

bool Registry::add(BenchmarkInfo info) {
  if (find(info.name)) {
    std::fprintf(stderr, "strobe: benchmark '%s' registered twice\n", info.name.c_str());
    std::abort();
  }
  entries_.push_back(std::make_unique<BenchmarkInfo>(std::move(info)));
  return true;
}

const BenchmarkInfo* Registry::find(const std::string& name) const {
  for (const auto& e : entries_)
    if (e->name == name) return e.get();
  return nullptr;
}

std::vector<const BenchmarkInfo*> Registry::all() const {
  std::vector<const BenchmarkInfo*> v;
  for (const auto& e : entries_) v.push_back(e.get());
  std::sort(v.begin(), v.end(), [](auto* a, auto* b) { return a->name < b->name; });
  return v;
}

}  // namespace strobe::workloads
