// A small transformer library on the run context, shared by the GPT-2-style decoder and the
// BERT-style encoder: seeded weights kept on the host (for the CPU reference) and on the
// device, and one launch per operator (layer norm, the QKV projection, attention's scores,
// softmax and weighted sum, the output projection, residual adds, the MLP with GELU), as a
// framework issues them. Activations are row-major, one row per token.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "workloads/context.h"
#include "workloads/rng.h"

namespace strobe::workloads::dnn {

/// The shape of a transformer.
struct TransformerShape {
  uint32_t layers = 0, width = 0, heads = 0, vocab = 0;
  uint32_t positions = 0;  ///< rows of the position embedding: the longest sequence
  /// Width of one head.
  uint32_t head_dim() const { return width / heads; }
};

/// Checks the rules between a transformer's parameters (heads divide the width, sizes positive)
/// and throws InputError naming `benchmark` and the parameter.
void check_shape(const std::string& benchmark, const TransformerShape& s);

/// A host vector and its device copy.
struct Param {
  std::vector<float> host;
  uint64_t dev = 0;
};

/// One block's weights. Matrices are input-major ([in][out]) as the linear kernel reads them.
struct BlockWeights {
  Param ln1_g, ln1_b;  ///< the layer norm before attention (GPT-2) or after it (BERT)
  Param w_qkv, b_qkv;  ///< C x 3C: queries, keys and values side by side
  Param w_o, b_o;      ///< C x C: attention's output projection
  Param ln2_g, ln2_b;  ///< the layer norm before the MLP (GPT-2) or after it (BERT)
  Param w_fc1, b_fc1;  ///< C x 4C
  Param w_fc2, b_fc2;  ///< 4C x C
};

/// A whole model's weights.
struct TransformerWeights {
  Param wte;                  ///< vocab x C token embedding (GPT-2 also uses it for the logits)
  Param wpe;                  ///< positions x C position embedding
  Param lnf_g, lnf_b;         ///< the final (GPT-2) or embedding (BERT) layer norm
  std::vector<BlockWeights> blocks;
};

/// Seeded weights for `s`, uploaded: matrices uniform with GPT-2's standard deviation 0.02,
/// biases and layer-norm shifts small and non-zero (so a dropped bias fails verification),
/// layer-norm scales around 1.
TransformerWeights make_weights(Context& ctx, const TransformerShape& s, Rng& rng);

/// The transformer kernels, each launch one operator.
class TransformerOps {
 public:
  explicit TransformerOps(Context& ctx);

  /// x[r] = wte[tok[tok_off + r]] + wpe[pos0 + r % seq] for `rows` rows of width c.
  void embed(uint64_t tok, const TransformerWeights& w, uint64_t x, uint32_t rows, uint32_t c, uint32_t tok_off,
             uint32_t pos0, uint32_t seq);
  /// y = layer norm of each of `rows` rows of x (width c); y may be x.
  void layernorm(uint64_t x, uint64_t y, const Param& g, const Param& b, uint32_t rows, uint32_t c);
  /// y (m x n) = x (m x k) w + b: a tiled GEMM, or a GEMV for one row (as a framework picks).
  void linear(uint64_t x, const Param& w, const Param& b, uint64_t y, uint32_t m, uint32_t n, uint32_t k);
  /// GELU of n values in place: tanh form, or erf form with `exact`.
  void gelu(uint64_t x, uint32_t n, bool exact);
  /// y = a + b over n values (the residual add; y may be a).
  void add(uint64_t a, uint64_t b, uint64_t y, uint32_t n);
  /// Keys and values of `rows` qkv rows into the caches at pos0.
  void kv_store(uint64_t qkv, uint64_t kc, uint64_t vc, uint32_t rows, uint32_t c, uint32_t pos0);

  /// One attention operand: rows `row` floats apart, sequences `seq` floats apart.
  struct Operand {
    uint64_t addr = 0;
    uint32_t row = 0, seq = 0;
  };
  /// Scores, softmax and weighted sum over `batch` sequences of `queries` queries and `keys`
  /// keys each, `heads` heads of width hd; causal masks key j > pos0 + t. `scores` holds
  /// batch x heads x queries x keys floats.
  void attention(Operand q, Operand k, Operand v, Operand out, uint64_t scores, uint32_t batch, uint32_t queries,
                 uint32_t keys, uint32_t heads, uint32_t hd, uint32_t pos0, bool causal);
  /// out[r] = x . wte[r] for each of `vocab` rows.
  void logits(uint64_t x, const Param& wte, uint64_t out, uint32_t c, uint32_t vocab);
  /// tok[pos] = argmax of n values (lowest index on a tie).
  void argmax(uint64_t x, uint32_t n, uint64_t tok, uint32_t pos);

 private:
  Context& ctx_;
  Kernel embed_, layernorm_, linear_, gemv_, gelu_, add_, kv_store_, scores_, softmax_, apply_, logits_, argmax_;
};

/// Launches one transformer block makes: GPT-2's (with the cache store) or BERT's.
inline constexpr uint32_t kDecoderBlockLaunches = 13, kEncoderBlockLaunches = 12;

}  // namespace strobe::workloads::dnn
