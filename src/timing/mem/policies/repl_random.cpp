// Random replacement: the victim is drawn from a per-cache xorshift64* stream seeded from the
// configuration, so a run stays a pure function of its inputs.
#include "timing/mem/replacement.h"

namespace strobe::timing {
namespace {
class RandomReplacement final : public ReplacementPolicy {
 public:
  explicit RandomReplacement(const ReplacementGeometry& g) : ways_(g.ways), state_(mix(g.seed)) {}
  void touch(uint32_t, uint32_t) override {}
  uint32_t victim(uint32_t) override {
    state_ ^= state_ >> 12;
    state_ ^= state_ << 25;
    state_ ^= state_ >> 27;
    const uint64_t r = (state_ * 0x2545F4914F6CDD1Dull) >> 32;
    return uint32_t((r * ways_) >> 32);  // uniform over the ways without a division
  }

 private:
  /// splitmix64 finaliser: any seed (including 0) gives a well-mixed non-zero state.
  static uint64_t mix(uint64_t z) {
    z += 0x9E3779B97F4A7C15ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    return z ? z : 1;
  }
  uint32_t ways_;
  uint64_t state_;
};

std::unique_ptr<ReplacementPolicy> make_random_replacement(const ReplacementGeometry& g) {
  return std::make_unique<RandomReplacement>(g);
}
}  // namespace
}  // namespace strobe::timing

STROBE_REPLACEMENT_POLICY("random", strobe::timing::make_random_replacement);
