// Synthetic graphs in CSR form for the irregular benchmarks (spmv, bfs, sssp, pagerank).
#pragma once

#include <cstdint>
#include <vector>

namespace strobe::workloads {

/// A directed graph (or sparse matrix pattern) in compressed sparse row form.
struct Csr {
  uint32_t rows = 0;
  std::vector<uint32_t> row_ptr;  ///< rows + 1 offsets into cols
  std::vector<uint32_t> cols;     ///< column (destination vertex) of each entry
  uint32_t nnz() const { return uint32_t(cols.size()); }
};

/// A graph with `rows` rows averaging `avg_degree` entries, seeded. With `power_law` the row
/// lengths follow a Zipf-like law (a few very long rows, many short ones: the irregularity GPU
/// graph codes struggle with); otherwise every row has avg_degree +- 50% entries. Columns are
/// uniform over [0, cols), sorted within a row, duplicates allowed.
Csr make_graph(uint32_t rows, uint32_t cols, uint32_t avg_degree, bool power_law, uint64_t seed);

/// The transpose (incoming edges of each vertex), keeping each row's entries in source order.
Csr transpose(const Csr& g, uint32_t cols);

}  // namespace strobe::workloads
