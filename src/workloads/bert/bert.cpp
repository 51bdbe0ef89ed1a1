// bert: a BERT-style encoder over `batch` sequences of `seq` tokens: token and position
// embeddings with a layer norm, then per block the QKV projection, bidirectional attention
// (scores, softmax, weighted sum), the output projection, the residual and a layer norm, the MLP
// with the erf GELU, the residual and a layer norm (post-norm, as BERT). Verified against a
// double-precision replay of the whole encoder on the host.
#include <algorithm>
#include <cmath>
#include <memory>

#include <fmt/core.h>

#include "common/error.h"
#include "workloads/benchmark.h"
#include "workloads/dnn/transformer.h"
#include "workloads/dnn/transformer_reference.h"
#include "workloads/verify.h"

namespace strobe::workloads {
namespace {

namespace ref = dnn::reference;

struct BertParams {
  int64_t layers = 0, width = 0, heads = 0, vocab = 0, seq = 0, batch = 0;
};

class Bert : public Benchmark {
 public:
  explicit Bert(const BertParams& p)
      : shape_{uint32_t(p.layers), uint32_t(p.width), uint32_t(p.heads), uint32_t(p.vocab), uint32_t(p.seq)},
        batch_(uint32_t(p.batch)) {
    dnn::check_shape("bert", shape_);
    if (uint64_t(batch_) * shape_.positions * 4 * shape_.width > 0xffffff00ull ||
        uint64_t(batch_) * shape_.heads * shape_.positions * shape_.positions > 0xffffff00ull)
      throw InputError(fmt::format("bert: batch={} is too large for seq={} and width={}", batch_, shape_.positions,
                                   shape_.width));
  }

  void setup(Context& ctx) override {
    Rng rng(0x6265'7274);
    ops_ = std::make_unique<dnn::TransformerOps>(ctx);
    w_ = dnn::make_weights(ctx, shape_, rng);
    const size_t rows = size_t(batch_) * shape_.positions, c = shape_.width;
    tokens_.resize(rows);
    for (int& t : tokens_) t = int(rng.below(shape_.vocab));
    tok_ = ctx.upload(tokens_);
    x_ = ctx.alloc<float>(rows * c);
    qkv_ = ctx.alloc<float>(rows * 3 * c);
    att_ = ctx.alloc<float>(rows * c);
    proj_ = ctx.alloc<float>(rows * c);
    fc_ = ctx.alloc<float>(rows * 4 * c);
    scores_ = ctx.alloc<float>(size_t(batch_) * shape_.heads * shape_.positions * shape_.positions);
    ctx.expect_launches(2 + size_t(dnn::kEncoderBlockLaunches) * shape_.layers);
  }

  void run(Context&) override {
    const uint32_t c = shape_.width, s = shape_.positions, rows = batch_ * s, hd = shape_.head_dim();
    dnn::TransformerOps& o = *ops_;
    o.embed(tok_, w_, x_, rows, c, 0, 0, s);
    o.layernorm(x_, x_, w_.lnf_g, w_.lnf_b, rows, c);
    const uint64_t f = sizeof(float);
    for (const dnn::BlockWeights& b : w_.blocks) {
      o.linear(x_, b.w_qkv, b.b_qkv, qkv_, rows, 3 * c, c);
      o.attention({qkv_, 3 * c, s * 3 * c}, {qkv_ + c * f, 3 * c, s * 3 * c}, {qkv_ + 2 * c * f, 3 * c, s * 3 * c},
                  {att_, c, s * c}, scores_, batch_, s, s, shape_.heads, hd, 0, false);
      o.linear(att_, b.w_o, b.b_o, proj_, rows, c, c);
      o.add(x_, proj_, x_, rows * c);
      o.layernorm(x_, x_, b.ln1_g, b.ln1_b, rows, c);
      o.linear(x_, b.w_fc1, b.b_fc1, fc_, rows, 4 * c, c);
      o.gelu(fc_, rows * 4 * c, true);
      o.linear(fc_, b.w_fc2, b.b_fc2, proj_, rows, c, 4 * c);
      o.add(x_, proj_, x_, rows * c);
      o.layernorm(x_, x_, b.ln2_g, b.ln2_b, rows, c);
    }
  }

  void verify(Context& ctx) override {
    const uint32_t c = shape_.width, s = shape_.positions, hd = shape_.head_dim();
    const size_t rows = size_t(batch_) * s;
    ref::Rows x(rows * c);
    for (size_t r = 0; r < rows; ++r)
      for (uint32_t i = 0; i < c; ++i)
        x[r * c + i] = double(w_.wte.host[size_t(tokens_[r]) * c + i]) + w_.wpe.host[(r % s) * c + i];
    x = ref::layernorm(x, c, w_.lnf_g.host, w_.lnf_b.host);
    for (const dnn::BlockWeights& b : w_.blocks) {
      const ref::Rows qkv = ref::linear(x, c, b.w_qkv.host, b.b_qkv.host, 3 * c);
      ref::Rows att;
      for (uint32_t seq = 0; seq < batch_; ++seq) {
        const size_t base = size_t(seq) * s * 3 * c;
        const ref::Rows a = ref::attention(qkv, base, qkv, base + c, qkv, base + 2 * c, 3 * c, 3 * c, s, s,
                                           shape_.heads, hd, 0, false);
        att.insert(att.end(), a.begin(), a.end());
      }
      ref::add(x, ref::linear(att, c, b.w_o.host, b.b_o.host, c));
      x = ref::layernorm(x, c, b.ln1_g.host, b.ln1_b.host);
      ref::Rows f = ref::linear(x, c, b.w_fc1.host, b.b_fc1.host, 4 * c);
      ref::gelu(f, true);
      ref::add(x, ref::linear(f, 4 * c, b.w_fc2.host, b.b_fc2.host, c));
      x = ref::layernorm(x, c, b.ln2_g.host, b.ln2_b.host);
    }
    // Layer-normed outputs are O(1): float rounding through the blocks stays far below 1e-3.
    expect_close("encoder.output", ctx.download<float>(x_, rows * c), std::vector<float>(x.begin(), x.end()), 1e-3,
                 1e-3);
  }

 private:
  dnn::TransformerShape shape_;
  uint32_t batch_;
  std::unique_ptr<dnn::TransformerOps> ops_;
  dnn::TransformerWeights w_;
  std::vector<int> tokens_;
  uint64_t tok_ = 0, x_ = 0, qkv_ = 0, att_ = 0, proj_ = 0, fc_ = 0, scores_ = 0;
};

}  // namespace

STROBE_BENCHMARK(Bert, "bert",
                 "BERT-style encoder: embeddings, post-norm blocks of QKV, bidirectional attention, MLP with GELU",
                 {int_param(STROBE_FIELD(BertParams, layers), 12, 1, 96, "transformer blocks").with_small(2),
                  int_param(STROBE_FIELD(BertParams, width), 768, 1, 8192, "model width").with_small(64),
                  int_param(STROBE_FIELD(BertParams, heads), 12, 1, 128, "attention heads (must divide width)").with_small(2),
                  int_param(STROBE_FIELD(BertParams, vocab), 30522, 2, 1 << 20, "vocabulary").with_small(512),
                  int_param(STROBE_FIELD(BertParams, seq), 128, 1, 4096, "tokens per sequence").with_small(16),
                  int_param(STROBE_FIELD(BertParams, batch), 1, 1, 1024, "sequences").with_small(2)});

}  // namespace strobe::workloads
