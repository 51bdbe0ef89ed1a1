// aes: AES-256 ECB encryption, one block per work-item, byte-oriented with an S-box table.
#include <array>
#include <cstring>
#include <vector>

#include "workloads/benchmark.h"
#include "workloads/context.h"
#include "workloads/rng.h"
#include "workloads/verify.h"

namespace strobe::workloads {
namespace {

/// aes's parameters, bound to their declarations in STROBE_BENCHMARK below.
struct AesParams {
  int64_t blocks = 0;
};

using Sbox = std::array<uint8_t, 256>;

uint8_t xtime(uint8_t x) { return uint8_t((x << 1) ^ ((x & 0x80) ? 0x1b : 0)); }
uint8_t rotl8(uint8_t x, int s) { return uint8_t((x << s) | (x >> (8 - s))); }

/// The AES S-box computed from its definition (inverse in GF(2^8), then the affine map).
Sbox make_sbox() {
  Sbox s{};
  uint8_t p = 1, q = 1;
  do {
    p = uint8_t(p ^ (p << 1) ^ ((p & 0x80) ? 0x1b : 0));  // p *= 3
    q ^= uint8_t(q << 1), q ^= uint8_t(q << 2), q ^= uint8_t(q << 4);  // q /= 3
    if (q & 0x80) q ^= 0x09;
    s[p] = uint8_t(q ^ rotl8(q, 1) ^ rotl8(q, 2) ^ rotl8(q, 3) ^ rotl8(q, 4) ^ 0x63);
  } while (p != 1);
  s[0] = 0x63;
  return s;
}

/// The 15 round keys (240 bytes) of AES-256 (FIPS-197 §5.2).
std::vector<uint8_t> expand_key(const uint8_t key[32], const Sbox& sb) {
  std::vector<uint8_t> w(240);
  std::memcpy(w.data(), key, 32);
  uint8_t rcon = 1;
  for (int i = 8; i < 60; ++i) {
    uint8_t t[4];
    std::memcpy(t, &w[4 * (i - 1)], 4);
    if (i % 8 == 0) {
      uint8_t t0 = t[0];
      t[0] = uint8_t(sb[t[1]] ^ rcon), t[1] = sb[t[2]], t[2] = sb[t[3]], t[3] = sb[t0];
      rcon = xtime(rcon);
    } else if (i % 8 == 4) {
      for (auto& b : t) b = sb[b];
    }
    for (int k = 0; k < 4; ++k) w[4 * i + k] = uint8_t(w[4 * (i - 8) + k] ^ t[k]);
  }
  return w;
}

/// Encrypts one block on the CPU exactly as the kernel does.
void encrypt_block(const uint8_t* in, uint8_t* out, const std::vector<uint8_t>& rk, const Sbox& sb) {
  uint8_t s[16], t[16];
  for (int i = 0; i < 16; ++i) s[i] = in[i] ^ rk[i];
  for (int round = 1; round <= 14; ++round) {
    for (int c = 0; c < 4; ++c)
      for (int r = 0; r < 4; ++r) t[c * 4 + r] = sb[s[((c + r) & 3) * 4 + r]];
    if (round != 14)
      for (int c = 0; c < 4; ++c) {
        uint8_t a0 = t[c * 4], a1 = t[c * 4 + 1], a2 = t[c * 4 + 2], a3 = t[c * 4 + 3], u = a0 ^ a1 ^ a2 ^ a3;
        t[c * 4] = a0 ^ u ^ xtime(a0 ^ a1), t[c * 4 + 1] = a1 ^ u ^ xtime(a1 ^ a2);
        t[c * 4 + 2] = a2 ^ u ^ xtime(a2 ^ a3), t[c * 4 + 3] = a3 ^ u ^ xtime(a3 ^ a0);
      }
    for (int i = 0; i < 16; ++i) s[i] = t[i] ^ rk[round * 16 + i];
  }
  std::memcpy(out, s, 16);
}

/// AES-256: integer/byte-heavy, table lookups with data-dependent addresses.
class Aes : public Benchmark {
 public:
  explicit Aes(const AesParams& p) : blocks_(uint32_t(p.blocks)) {}

  void setup(Context& ctx) override {
    // FIPS-197 appendix C.3 key and plaintext as block 0, so the reference is itself checked.
    uint8_t key[32];
    for (int i = 0; i < 32; ++i) key[i] = uint8_t(i);
    sbox_ = make_sbox();
    rk_ = expand_key(key, sbox_);
    Rng rng(14);
    in_.resize(size_t(blocks_) * 16);
    for (auto& b : in_) b = uint8_t(rng.u32());
    for (int i = 0; i < 16; ++i) in_[i] = uint8_t(i * 0x11);
    din_ = ctx.upload(in_), dout_ = ctx.alloc<uint8_t>(in_.size());
    dsbox_ = ctx.upload(std::vector<uint8_t>(sbox_.begin(), sbox_.end())), drk_ = ctx.upload(rk_);
    k_ = ctx.kernel("aes", "aes256");
    ctx.expect_launches(1);
  }

  void run(Context& ctx) override {
    ctx.launch(k_, {round_up(blocks_, 256), 1, 1}, {256, 1, 1},
               {buf(din_), buf(dout_), buf(dsbox_), buf(drk_), val(blocks_)});
  }

  void verify(Context& ctx) override {
    std::vector<uint8_t> ref(in_.size());
    for (uint32_t b = 0; b < blocks_; ++b) encrypt_block(&in_[16 * b], &ref[16 * b], rk_, sbox_);
    static const uint8_t kFips[16] = {0x8e, 0xa2, 0xb7, 0xca, 0x51, 0x67, 0x45, 0xbf,
                                      0xea, 0xfc, 0x49, 0x90, 0x4b, 0x49, 0x60, 0x89};
    if (std::memcmp(ref.data(), kFips, 16) != 0) throw VerificationError("aes: CPU reference fails FIPS-197 C.3");
    expect_equal("ciphertext", ctx.download<uint8_t>(dout_, ref.size()), ref);
  }

 private:
  uint32_t blocks_;
  Sbox sbox_{};
  std::vector<uint8_t> rk_, in_;
  uint64_t din_ = 0, dout_ = 0, dsbox_ = 0, drk_ = 0;
  Kernel k_;
};

}  // namespace

STROBE_BENCHMARK(Aes, "aes", "AES-256 ECB encryption, byte-oriented with an S-box table (FIPS-197 checked)",
                 {int_param(STROBE_FIELD(AesParams, blocks), 1 << 16, 1, 1 << 24, "16-byte blocks (one per work-item)").with_small(300)});

}  // namespace strobe::workloads
