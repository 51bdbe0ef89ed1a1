// radixsort: LSD radix sort of 32-bit keys carrying values, 4 bits per pass (SHOC sort / AMD APP SDK RadixSort).
#include <algorithm>
#include <numeric>
#include <vector>

#include <fmt/core.h>

#include "workloads/benchmark.h"
#include "workloads/context.h"
#include "workloads/rng.h"
#include "workloads/verify.h"

namespace strobe::workloads {
namespace {

/// radixsort's parameters, bound to their declarations in STROBE_BENCHMARK below.
struct RadixSortParams {
  int64_t n = 0, groups = 0;
};

/// Eight passes of three launches each: digit histograms, one scan of them into offsets, and a
/// stable LDS-ranked scatter. Keys and values ping-pong between two buffer pairs.
class RadixSort : public Benchmark {
 public:
  explicit RadixSort(const RadixSortParams& p) : n_(uint32_t(p.n)) {
    // Each group owns a contiguous range of whole tiles; trailing groups that would get no keys
    // are dropped, so `groups` is an upper bound.
    uint32_t tiles = (n_ + kTile - 1) / kTile;
    per_group_ = (tiles + uint32_t(p.groups) - 1) / uint32_t(p.groups) * kTile;
    groups_ = (n_ + per_group_ - 1) / per_group_;
  }

  void setup(Context& ctx) override {
    // Half the keys come from a pool of 1000 values, so equal keys are common and the sort's
    // stability shows in the values; the rest span all 32 bits.
    Rng rng(43);
    std::vector<uint32_t> pool(1000);
    for (auto& v : pool) v = rng.u32();
    keys_.resize(n_), vals_.resize(n_);
    for (uint32_t i = 0; i < n_; ++i) keys_[i] = (rng.u32() & 1) ? pool[rng.below(1000)] : rng.u32();
    std::iota(vals_.begin(), vals_.end(), 0u);
    dkeys_[0] = ctx.upload(keys_), dvals_[0] = ctx.upload(vals_);
    dkeys_[1] = ctx.alloc<uint32_t>(n_), dvals_[1] = ctx.alloc<uint32_t>(n_);
    dcounts_ = ctx.alloc<uint32_t>(size_t(kRadix) * groups_);
    khist_ = ctx.kernel("radixsort", "radix_histogram");
    kscan_ = ctx.kernel("radixsort", "radix_scan");
    kscatter_ = ctx.kernel("radixsort", "radix_scatter");
    ctx.expect_launches(3 * kPasses);
  }

  void run(Context& ctx) override {
    const uint32_t m = kRadix * groups_;
    for (uint32_t pass = 0; pass < kPasses; ++pass) {
      uint32_t shift = 4 * pass, src = pass & 1, dst = src ^ 1;
      ctx.launch(khist_, {groups_ * kWg, 1, 1}, {kWg, 1, 1},
                 {buf(dkeys_[src]), buf(dcounts_), val(n_), val(shift), val(per_group_)});
      ctx.launch(kscan_, {kWg, 1, 1}, {kWg, 1, 1}, {buf(dcounts_), val(m)});
      ctx.launch(kscatter_, {groups_ * kWg, 1, 1}, {kWg, 1, 1},
                 {buf(dkeys_[src]), buf(dvals_[src]), buf(dkeys_[dst]), buf(dvals_[dst]), buf(dcounts_), val(n_),
                  val(shift), val(per_group_)});
    }
  }

  void verify(Context& ctx) override {
    // A stable sort by key is unique, so keys and values must match exactly.
    std::vector<uint32_t> order(n_);
    std::iota(order.begin(), order.end(), 0u);
    std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return keys_[a] < keys_[b]; });
    std::vector<uint32_t> keys(n_), vals(n_);
    for (uint32_t i = 0; i < n_; ++i) keys[i] = keys_[order[i]], vals[i] = vals_[order[i]];
    // An even number of passes leaves the result in the first buffer pair.
    expect_equal("keys", ctx.download<uint32_t>(dkeys_[0], n_), keys);
    expect_equal("values", ctx.download<uint32_t>(dvals_[0], n_), vals);
  }

 private:
  static constexpr uint32_t kWg = 256, kTile = kWg * 4, kRadix = 16, kPasses = 8;  // as in radixsort.cl
  uint32_t n_, per_group_, groups_;
  std::vector<uint32_t> keys_, vals_;
  uint64_t dkeys_[2] = {0, 0}, dvals_[2] = {0, 0}, dcounts_ = 0;
  Kernel khist_, kscan_, kscatter_;
};

}  // namespace

STROBE_BENCHMARK(RadixSort, "radixsort",
                 "LSD radix sort of 32-bit keys with values: per pass a digit histogram, scan and stable LDS scatter",
                 {int_param(STROBE_FIELD(RadixSortParams, n), 1 << 21, 1, 1 << 26, "keys").with_small(20000),
                  int_param(STROBE_FIELD(RadixSortParams, groups), 256, 1, 4096,
                            "most work-groups per launch (each sorts a contiguous range of 1024-key tiles)")
                      .with_small(8)});

}  // namespace strobe::workloads
