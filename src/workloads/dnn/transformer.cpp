// Transformer weights and launch plans.
#include "workloads/dnn/transformer.h"

#include <cmath>

#include <fmt/core.h>

#include "common/error.h"

namespace strobe::workloads::dnn {

namespace {

/// `count` values uniform in [lo, hi), uploaded.
Param uniform(Context& ctx, Rng& rng, size_t count, float lo, float hi) {
  Param p;
  p.host.resize(count);
  for (float& v : p.host) v = rng.uniform(lo, hi);
  p.dev = ctx.upload(p.host);
  return p;
}

/// A matrix uniform with standard deviation `sd` (half-width sd·√3).
Param matrix(Context& ctx, Rng& rng, size_t count, float sd) {
  const float a = sd * std::sqrt(3.0f);
  return uniform(ctx, rng, count, -a, a);
}

Dim3 grid1(uint64_t total) {
  if (total > 0xffffff00ull) throw InputError("a transformer operator has more than 2^32 elements; use smaller sizes");
  return {round_up(total, 256), 1, 1};
}

}  // namespace

void check_shape(const std::string& benchmark, const TransformerShape& s) {
  auto positive = [&](uint32_t v, const char* name) {
    if (v == 0) throw InputError(fmt::format("{}: {} must be positive", benchmark, name));
  };
  positive(s.layers, "layers");
  positive(s.width, "width");
  positive(s.heads, "heads");
  positive(s.vocab, "vocab");
  if (s.width % s.heads)
    throw InputError(fmt::format("{}: heads={} must divide width={}", benchmark, s.heads, s.width));
  // 4C-wide MLP rows and 3C-wide QKV rows of every token must stay addressable in 32 bits.
  if (uint64_t(s.positions) * 4 * s.width > 0xffffff00ull || uint64_t(s.vocab) * s.width > 0xffffff00ull)
    throw InputError(fmt::format("{}: width={} is too large for the sequence or vocabulary", benchmark, s.width));
}

TransformerWeights make_weights(Context& ctx, const TransformerShape& s, Rng& rng) {
  const size_t c = s.width;
  TransformerWeights w;
  w.wte = matrix(ctx, rng, size_t(s.vocab) * c, 0.02f);
  w.wpe = matrix(ctx, rng, size_t(s.positions) * c, 0.01f);
  for (uint32_t l = 0; l < s.layers; ++l) {
    BlockWeights b;
    b.ln1_g = uniform(ctx, rng, c, 0.8f, 1.2f);
    b.ln1_b = uniform(ctx, rng, c, -0.1f, 0.1f);
    b.w_qkv = matrix(ctx, rng, c * 3 * c, 0.02f);
    b.b_qkv = uniform(ctx, rng, 3 * c, -0.02f, 0.02f);
    b.w_o = matrix(ctx, rng, c * c, 0.02f);
    b.b_o = uniform(ctx, rng, c, -0.02f, 0.02f);
    b.ln2_g = uniform(ctx, rng, c, 0.8f, 1.2f);
    b.ln2_b = uniform(ctx, rng, c, -0.1f, 0.1f);
    b.w_fc1 = matrix(ctx, rng, c * 4 * c, 0.02f);
    b.b_fc1 = uniform(ctx, rng, 4 * c, -0.02f, 0.02f);
    b.w_fc2 = matrix(ctx, rng, 4 * c * c, 0.02f);
    b.b_fc2 = uniform(ctx, rng, c, -0.02f, 0.02f);
    w.blocks.push_back(std::move(b));
  }
  w.lnf_g = uniform(ctx, rng, c, 0.8f, 1.2f);
  w.lnf_b = uniform(ctx, rng, c, -0.1f, 0.1f);
  return w;
}

TransformerOps::TransformerOps(Context& ctx)
    : ctx_(ctx),
      embed_(ctx.kernel("transformer", "embed")),
      layernorm_(ctx.kernel("transformer", "layernorm")),
      linear_(ctx.kernel("transformer", "linear")),
      gemv_(ctx.kernel("transformer", "gemv")),
      gelu_(ctx.kernel("transformer", "gelu")),
      add_(ctx.kernel("dnn", "add")),
      kv_store_(ctx.kernel("transformer", "kv_store")),
      scores_(ctx.kernel("transformer", "attn_scores")),
      softmax_(ctx.kernel("transformer", "softmax_rows")),
      apply_(ctx.kernel("transformer", "attn_apply")),
      logits_(ctx.kernel("transformer", "logits")),
      argmax_(ctx.kernel("transformer", "argmax")) {}

void TransformerOps::embed(uint64_t tok, const TransformerWeights& w, uint64_t x, uint32_t rows, uint32_t c,
                           uint32_t tok_off, uint32_t pos0, uint32_t seq) {
  ctx_.launch(embed_, {round_up(c, 64), rows, 1}, {64, 1, 1},
              {buf(tok), buf(w.wte.dev), buf(w.wpe.dev), buf(x), val(rows), val(c), val(tok_off), val(pos0), val(seq)});
}

void TransformerOps::layernorm(uint64_t x, uint64_t y, const Param& g, const Param& b, uint32_t rows, uint32_t c) {
  ctx_.launch(layernorm_, {256u * rows, 1, 1}, {256, 1, 1},
              {buf(x), buf(y), buf(g.dev), buf(b.dev), val(c), val(1e-5f)});
}

void TransformerOps::linear(uint64_t x, const Param& w, const Param& b, uint64_t y, uint32_t m, uint32_t n,
                            uint32_t k) {
  if (m == 1) {
    ctx_.launch(gemv_, grid1(n), {256, 1, 1}, {buf(x), buf(w.dev), buf(b.dev), buf(y), val(n), val(k)});
    return;
  }
  ctx_.launch(linear_, {round_up(n, 16), round_up(m, 16), 1}, {16, 16, 1},
              {buf(x), buf(w.dev), buf(b.dev), buf(y), val(m), val(n), val(k)});
}

void TransformerOps::gelu(uint64_t x, uint32_t n, bool exact) {
  ctx_.launch(gelu_, grid1(n), {256, 1, 1}, {buf(x), val(n), val(uint32_t(exact))});
}

void TransformerOps::add(uint64_t a, uint64_t b, uint64_t y, uint32_t n) {
  ctx_.launch(add_, grid1(n), {256, 1, 1}, {buf(a), buf(b), buf(y), val(n), val(0u)});
}

void TransformerOps::kv_store(uint64_t qkv, uint64_t kc, uint64_t vc, uint32_t rows, uint32_t c, uint32_t pos0) {
  ctx_.launch(kv_store_, {round_up(c, 64), rows, 1}, {64, 1, 1},
              {buf(qkv), buf(kc), buf(vc), val(rows), val(c), val(pos0)});
}

void TransformerOps::attention(Operand q, Operand k, Operand v, Operand out, uint64_t scores, uint32_t batch,
                               uint32_t queries, uint32_t keys, uint32_t heads, uint32_t hd, uint32_t pos0,
                               bool causal) {
  ctx_.launch(scores_, {round_up(keys, 64), queries, batch * heads}, {64, 1, 1},
              {buf(q.addr), val(q.row), val(q.seq), buf(k.addr), val(k.row), val(k.seq), buf(scores), val(queries),
               val(keys), val(heads), val(hd), val(pos0), val(uint32_t(causal))});
  ctx_.launch(softmax_, {256u * batch * heads * queries, 1, 1}, {256, 1, 1}, {buf(scores), val(keys)});
  ctx_.launch(apply_, {round_up(hd, 64), queries, batch * heads}, {64, 1, 1},
              {buf(scores), buf(v.addr), val(v.row), val(v.seq), buf(out.addr), val(out.row), val(out.seq),
               val(queries), val(keys), val(heads), val(hd)});
}

void TransformerOps::logits(uint64_t x, const Param& wte, uint64_t out, uint32_t c, uint32_t vocab) {
  ctx_.launch(logits_, {256u * ((vocab + 3) / 4), 1, 1}, {256, 1, 1},
              {buf(x), buf(wte.dev), buf(out), val(c), val(vocab)});
}

void TransformerOps::argmax(uint64_t x, uint32_t n, uint64_t tok, uint32_t pos) {
  ctx_.launch(argmax_, {256, 1, 1}, {256, 1, 1}, {buf(x), val(n), buf(tok), val(pos)});
}

}  // namespace strobe::workloads::dnn
