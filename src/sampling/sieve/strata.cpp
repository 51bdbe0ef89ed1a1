// Sieve's three tiers.
#include "sampling/sieve/strata.h"

#include <algorithm>
#include <map>

#include "sampling/common/launch_groups.h"
#include "sampling/numeric/kde.h"

namespace strobe::sampling::sieve {

namespace {

/// The instruction counts of `launches` (indices into `rows`), as doubles.
std::vector<double> counts_of(std::span<const LaunchRow> rows, std::span<const size_t> launches) {
  std::vector<double> c;
  c.reserve(launches.size());
  for (size_t i : launches) c.push_back(double(rows[i].instructions));
  return c;
}

/// Cuts `sorted` (launches in increasing count) into consecutive pieces at the density's
/// minima, the variant's way; empty pieces are dropped.
std::vector<std::vector<size_t>> cut(std::span<const LaunchRow> rows, const std::vector<size_t>& sorted,
                                     const Params& p) {
  const std::vector<double> c = counts_of(rows, sorted);
  std::vector<size_t> bounds{0};
  if (p.strata == Strata::Reimplementation) {
    // The density at the counts themselves; each minimum starts a new piece.
    const double h = p.bandwidth > 0 ? p.bandwidth : 1.0;
    for (size_t m : minima_at_points(gaussian_kde(c, h, c))) bounds.push_back(m);
  } else {
    // The density's valleys between the counts; a count below a valley lies before it.
    const double h = p.bandwidth > 0 ? p.bandwidth : scott_bandwidth(c);
    for (double v : density_valleys(c, h))
      bounds.push_back(size_t(std::lower_bound(c.begin(), c.end(), v) - c.begin()));
  }
  bounds.push_back(sorted.size());
  std::vector<std::vector<size_t>> pieces;
  for (size_t k = 0; k + 1 < bounds.size(); ++k)
    if (bounds[k + 1] > bounds[k]) pieces.emplace_back(sorted.begin() + long(bounds[k]), sorted.begin() + long(bounds[k + 1]));
  return pieces;
}

/// A tier-3 stratum of `piece` (launches in increasing count): the reimplementation represents
/// it by its first (smallest) launch, the paper by its first in program order.
Stratum tier3(const std::string& kernel, std::vector<size_t> piece, const Params& p) {
  Stratum s{kernel, 3, {}, piece.front()};
  std::sort(piece.begin(), piece.end());
  if (p.strata == Strata::Paper) s.representative = piece.front();
  s.launches = std::move(piece);
  return s;
}

/// With warm_representative, moves `s`'s representative off `first` (its kernel's first launch)
/// to the next launch of the stratum that the tier's rule would accept, if there is one.
void avoid_first(Stratum& s, size_t first, std::span<const LaunchRow> rows, const Params& p) {
  if (!p.warm_representative || s.representative != first) return;
  for (size_t l : s.launches) {
    if (l == first) continue;
    // Tier 2 keeps to the dominant thread count; tier 3 (the reimplementation's smallest-first
    // order aside) and tier 1 take the next launch in program order.
    if (s.tier == 2 && rows[l].threads != rows[first].threads) continue;
    s.representative = l;
    return;
  }
}

}  // namespace

std::vector<Stratum> stratify(std::span<const LaunchRow> launches, const Params& p) {
  const std::vector<LaunchGroup> kernels = groups_by_first_launch(launches, [](const LaunchRow& r) { return r.kernel; });
  std::vector<Stratum> out;
  for (const auto& [k, ls] : kernels) {
    const double cov = coefficient_of_variation(counts_of(launches, ls));
    if (cov == 0) {
      out.push_back({k, 1, ls, ls.front()});
    } else if (cov < p.tier2_cov) {
      // The most frequent thread count, ties to the one seen first; its first launch represents.
      std::vector<std::pair<uint64_t, size_t>> tally;  // (threads, launches) in order first seen
      for (size_t i : ls) {
        auto it = std::find_if(tally.begin(), tally.end(), [&](const auto& t) { return t.first == launches[i].threads; });
        if (it == tally.end()) tally.emplace_back(launches[i].threads, 1);
        else ++it->second;
      }
      auto dominant = tally.begin();
      for (auto it = tally.begin(); it != tally.end(); ++it)
        if (it->second > dominant->second) dominant = it;
      const size_t rep = *std::find_if(ls.begin(), ls.end(), [&](size_t i) { return launches[i].threads == dominant->first; });
      out.push_back({k, 2, ls, rep});
    } else {
      std::vector<size_t> sorted = ls;
      std::stable_sort(sorted.begin(), sorted.end(),
                       [&](size_t a, size_t b) { return launches[a].instructions < launches[b].instructions; });
      for (std::vector<size_t>& piece : cut(launches, sorted, p)) {
        if (coefficient_of_variation(counts_of(launches, piece)) > p.split_cov) {
          for (std::vector<size_t>& sub : cut(launches, piece, p)) out.push_back(tier3(k, std::move(sub), p));
        } else {
          out.push_back(tier3(k, std::move(piece), p));
        }
      }
    }
  }
  if (p.warm_representative) {
    std::map<std::string, size_t> first;  // each kernel's first launch
    for (const auto& [k, ls] : kernels) first.emplace(k, ls.front());
    for (Stratum& st : out) avoid_first(st, first.at(st.kernel), launches, p);
  }
  return out;
}

}  // namespace strobe::sampling::sieve
