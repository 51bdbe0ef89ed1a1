// gpt2: GPT-2-style decoding with a KV cache. A prefill of `prompt` tokens, then `decode` steps of
// one token each; every step embeds its tokens, runs each block (layer norm, the QKV projection,
// the cache store, attention's scores, softmax and weighted sum over the whole cache, the output
// projection and residual, layer norm, the MLP with GELU and the residual), then the final layer
// norm, the logits of the last token against the tied embedding, and greedy sampling on the
// device, whose token the next step reads. Attention's work grows with the cache. Verified by a
// double-precision replay on the host with the device's own tokens: each step's token must be a
// largest logit (within rounding), and the final caches and logits must match.
#include <algorithm>
#include <cmath>
#include <memory>
#include <string>

#include <fmt/core.h>

#include "common/error.h"
#include "workloads/benchmark.h"
#include "workloads/dnn/transformer.h"
#include "workloads/dnn/transformer_reference.h"
#include "workloads/verify.h"

namespace strobe::workloads {
namespace {

namespace ref = dnn::reference;

struct Gpt2Params {
  int64_t layers = 0, width = 0, heads = 0, vocab = 0, prompt = 0, decode = 0;
};

class Gpt2 : public Benchmark {
 public:
  explicit Gpt2(const Gpt2Params& p)
      : shape_{uint32_t(p.layers), uint32_t(p.width), uint32_t(p.heads), uint32_t(p.vocab),
               uint32_t(p.prompt + p.decode)},
        prompt_(uint32_t(p.prompt)),
        decode_(uint32_t(p.decode)) {
    dnn::check_shape("gpt2", shape_);
  }

  void setup(Context& ctx) override {
    Rng rng(0x6770'7432);
    ops_ = std::make_unique<dnn::TransformerOps>(ctx);
    w_ = dnn::make_weights(ctx, shape_, rng);
    const uint32_t c = shape_.width, rows = prompt_, ctx_len = prompt_ + decode_;
    prompt_tokens_.resize(prompt_);
    for (int& t : prompt_tokens_) t = int(rng.below(shape_.vocab));
    std::vector<int> tok(ctx_len + 1, -1);
    std::copy(prompt_tokens_.begin(), prompt_tokens_.end(), tok.begin());
    tok_ = ctx.upload(tok);
    x_ = ctx.alloc<float>(size_t(rows) * c);
    h_ = ctx.alloc<float>(size_t(rows) * c);
    qkv_ = ctx.alloc<float>(size_t(rows) * 3 * c);
    att_ = ctx.alloc<float>(size_t(rows) * c);
    proj_ = ctx.alloc<float>(size_t(rows) * c);
    fc_ = ctx.alloc<float>(size_t(rows) * 4 * c);
    scores_ = ctx.alloc<float>(size_t(shape_.heads) * rows * ctx_len);
    logits_ = ctx.alloc<float>(shape_.vocab);
    for (uint32_t l = 0; l < shape_.layers; ++l) {
      kc_.push_back(ctx.alloc<float>(size_t(ctx_len) * c));
      vc_.push_back(ctx.alloc<float>(size_t(ctx_len) * c));
    }
    ctx.expect_launches(size_t(decode_ + 1) * (1 + dnn::kDecoderBlockLaunches * shape_.layers + 3));
  }

  void run(Context&) override {
    step(prompt_, 0);
    for (uint32_t k = 1; k <= decode_; ++k) step(1, prompt_ + k - 1);
  }

  void verify(Context& ctx) override;

 private:
  /// One forward step over `rows` new tokens at positions pos0.. (the prefill, or one decode step).
  void step(uint32_t rows, uint32_t pos0) {
    const uint32_t c = shape_.width, keys = pos0 + rows, hd = shape_.head_dim();
    dnn::TransformerOps& o = *ops_;
    o.embed(tok_, w_, x_, rows, c, pos0, pos0, rows);
    for (uint32_t l = 0; l < shape_.layers; ++l) {
      const dnn::BlockWeights& b = w_.blocks[l];
      o.layernorm(x_, h_, b.ln1_g, b.ln1_b, rows, c);
      o.linear(h_, b.w_qkv, b.b_qkv, qkv_, rows, 3 * c, c);
      o.kv_store(qkv_, kc_[l], vc_[l], rows, c, pos0);
      o.attention({qkv_, 3 * c, 0}, {kc_[l], c, 0}, {vc_[l], c, 0}, {att_, c, 0}, scores_, 1, rows, keys,
                  shape_.heads, hd, pos0, true);
      o.linear(att_, b.w_o, b.b_o, proj_, rows, c, c);
      o.add(x_, proj_, x_, rows * c);
      o.layernorm(x_, h_, b.ln2_g, b.ln2_b, rows, c);
      o.linear(h_, b.w_fc1, b.b_fc1, fc_, rows, 4 * c, c);
      o.gelu(fc_, rows * 4 * c, false);
      o.linear(fc_, b.w_fc2, b.b_fc2, proj_, rows, c, 4 * c);
      o.add(x_, proj_, x_, rows * c);
    }
    const uint64_t last = x_ + uint64_t(rows - 1) * c * sizeof(float);
    o.layernorm(last, h_, w_.lnf_g, w_.lnf_b, 1, c);
    o.logits(h_, w_.wte, logits_, c, shape_.vocab);
    o.argmax(logits_, shape_.vocab, tok_, pos0 + rows);
  }

  dnn::TransformerShape shape_;
  uint32_t prompt_, decode_;
  std::unique_ptr<dnn::TransformerOps> ops_;
  dnn::TransformerWeights w_;
  std::vector<int> prompt_tokens_;
  uint64_t tok_ = 0, x_ = 0, h_ = 0, qkv_ = 0, att_ = 0, proj_ = 0, fc_ = 0, scores_ = 0, logits_ = 0;
  std::vector<uint64_t> kc_, vc_;
};

/// The largest |v| of `v` (at least a tiny floor, so a tolerance scaled by it is never 0).
double max_abs(const std::vector<double>& v) {
  double m = 1e-30;
  for (double x : v) m = std::max(m, std::fabs(x));
  return m;
}

void Gpt2::verify(Context& ctx) {
  const uint32_t c = shape_.width, hd = shape_.head_dim(), ctx_len = prompt_ + decode_;
  const std::vector<int> tok = ctx.download<int>(tok_, ctx_len + 1);
  for (uint32_t i = 0; i < prompt_; ++i)
    if (tok[i] != prompt_tokens_[i])
      throw VerificationError(fmt::format("tokens[{}]: expected prompt token {}, got {}", i, prompt_tokens_[i], tok[i]));
  std::vector<ref::Rows> kc(shape_.layers), vc(shape_.layers);
  ref::Rows last_logits;
  // Float rounding through the layers moves a logit by far less than this share of the largest;
  // a token whose logit is within it of the maximum is a correct greedy choice.
  constexpr double kLogitTol = 1e-3;
  for (uint32_t s = 0; s <= decode_; ++s) {
    const uint32_t rows = s == 0 ? prompt_ : 1, pos0 = s == 0 ? 0 : prompt_ + s - 1;
    ref::Rows x(size_t(rows) * c);
    for (uint32_t r = 0; r < rows; ++r) {
      const int t = tok[pos0 + r];
      if (t < 0 || uint32_t(t) >= shape_.vocab)
        throw VerificationError(fmt::format("tokens[{}]: {} is not in the vocabulary", pos0 + r, t));
      for (uint32_t i = 0; i < c; ++i)
        x[size_t(r) * c + i] = double(w_.wte.host[size_t(t) * c + i]) + w_.wpe.host[size_t(pos0 + r) * c + i];
    }
    for (uint32_t l = 0; l < shape_.layers; ++l) {
      const dnn::BlockWeights& b = w_.blocks[l];
      ref::Rows h = ref::layernorm(x, c, b.ln1_g.host, b.ln1_b.host);
      const ref::Rows qkv = ref::linear(h, c, b.w_qkv.host, b.b_qkv.host, 3 * c);
      for (uint32_t r = 0; r < rows; ++r) {
        kc[l].insert(kc[l].end(), qkv.begin() + long(size_t(r) * 3 * c + c), qkv.begin() + long(size_t(r) * 3 * c + 2 * c));
        vc[l].insert(vc[l].end(), qkv.begin() + long(size_t(r) * 3 * c + 2 * c), qkv.begin() + long(size_t(r + 1) * 3 * c));
      }
      const ref::Rows att = ref::attention(qkv, 0, kc[l], 0, vc[l], 0, 3 * c, c, rows, pos0 + rows, shape_.heads, hd,
                                           pos0, true);
      ref::add(x, ref::linear(att, c, b.w_o.host, b.b_o.host, c));
      h = ref::layernorm(x, c, b.ln2_g.host, b.ln2_b.host);
      ref::Rows f = ref::linear(h, c, b.w_fc1.host, b.b_fc1.host, 4 * c);
      ref::gelu(f, false);
      ref::add(x, ref::linear(f, 4 * c, b.w_fc2.host, b.b_fc2.host, c));
    }
    const ref::Rows hl = ref::layernorm(ref::Rows(x.end() - c, x.end()), c, w_.lnf_g.host, w_.lnf_b.host);
    last_logits.assign(shape_.vocab, 0.0);
    for (uint32_t v = 0; v < shape_.vocab; ++v)
      for (uint32_t i = 0; i < c; ++i) last_logits[v] += hl[i] * w_.wte.host[size_t(v) * c + i];
    const double best = *std::max_element(last_logits.begin(), last_logits.end());
    const int chosen = tok[pos0 + rows];
    if (chosen < 0 || uint32_t(chosen) >= shape_.vocab ||
        last_logits[size_t(chosen)] < best - kLogitTol * max_abs(last_logits))
      throw VerificationError(fmt::format("tokens[{}]: step {} chose {}, whose logit is below the largest ({:.9g})",
                                          pos0 + rows, s, chosen, best));
  }
  // Keys and values of every position and layer: each is one row of a projection of that layer's
  // input, so together they check every block at every step.
  for (uint32_t l = 0; l < shape_.layers; ++l) {
    const double kt = 1e-3 * max_abs(kc[l]), vt = 1e-3 * max_abs(vc[l]);
    expect_close(fmt::format("layer{}.keys", l), ctx.download<float>(kc_[l], size_t(ctx_len) * c), std::vector<float>(kc[l].begin(), kc[l].end()), 1e-3, kt);
    expect_close(fmt::format("layer{}.values", l), ctx.download<float>(vc_[l], size_t(ctx_len) * c), std::vector<float>(vc[l].begin(), vc[l].end()), 1e-3, vt);
  }
  expect_close("logits", ctx.download<float>(logits_, shape_.vocab),
               std::vector<float>(last_logits.begin(), last_logits.end()), 1e-3, 1e-3 * max_abs(last_logits));
}

}  // namespace

STROBE_BENCHMARK(Gpt2, "gpt2",
                 "GPT-2-style decoding: a prefill, then one token per step with a KV cache; layer norm, QKV, "
                 "attention, MLP with GELU, logits and greedy sampling on the device",
                 {int_param(STROBE_FIELD(Gpt2Params, layers), 12, 1, 96, "transformer blocks").with_small(2),
                  int_param(STROBE_FIELD(Gpt2Params, width), 768, 1, 8192, "model width").with_small(64),
                  int_param(STROBE_FIELD(Gpt2Params, heads), 12, 1, 128, "attention heads (must divide width)").with_small(2),
                  int_param(STROBE_FIELD(Gpt2Params, vocab), 50257, 2, 1 << 20, "vocabulary").with_small(512),
                  int_param(STROBE_FIELD(Gpt2Params, prompt), 32, 1, 4096, "prompt tokens (the prefill)").with_small(4),
                  int_param(STROBE_FIELD(Gpt2Params, decode), 15, 1, 4096, "decode steps after the prefill").with_small(3)});

}  // namespace strobe::workloads
