// The transformer's CPU reference, in double precision: the same operators as the device's
// launches (transformer.h), so that a benchmark's verification can replay the model on the host.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace strobe::workloads::dnn::reference {

/// Rows of width c.
using Rows = std::vector<double>;

/// Layer norm of each row (eps 1e-5, population variance).
Rows layernorm(const Rows& x, uint32_t c, const std::vector<float>& g, const std::vector<float>& b);
/// x (m x k) w (k x n, input-major) + b.
Rows linear(const Rows& x, uint32_t k, const std::vector<float>& w, const std::vector<float>& b, uint32_t n);
/// GELU of every value: tanh form, or erf form with `exact`.
void gelu(Rows& x, bool exact);
/// a += b.
void add(Rows& a, const Rows& b);

/// Multi-head attention of `queries` query rows over `keys` key and value rows (one sequence):
/// q, k and v rows are `stride` apart starting at their offsets; causal masks key j > pos0 + t.
/// Returns queries rows of width heads·hd.
Rows attention(const Rows& q, size_t q_off, const Rows& k, size_t k_off, const Rows& v, size_t v_off, uint32_t stride_q,
               uint32_t stride_kv, uint32_t queries, uint32_t keys, uint32_t heads, uint32_t hd, uint32_t pos0,
               bool causal);

}  // namespace strobe::workloads::dnn::reference
