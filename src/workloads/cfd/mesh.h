// cfd's synthetic unstructured mesh: a jittered grid of cubes cut into tetrahedra, flowing around
// a bar-shaped wing, stored in the layout Rodinia's euler3d reads from its mesh files.
#pragma once

#include <cstdint>
#include <vector>

namespace strobe::workloads::cfd {

inline constexpr int kNnb = 4;        ///< faces (neighbours) per cell
inline constexpr int kWall = -1;      ///< neighbour index of a face on the wing
inline constexpr int kFarField = -2;  ///< neighbour index of a face on the far-field boundary

/// A tetrahedral mesh of `nelr` cells (the real ones followed by padding): the volume of cell i
/// ("areas" in Rodinia) at [i], the neighbour across face j at [i + j * nelr] and component d of
/// that face's inward, area-scaled normal at [i + (j + d * kNnb) * nelr].
struct Mesh {
  uint32_t nelr = 0;
  std::vector<float> areas;
  std::vector<int32_t> neighbours;
  std::vector<float> normals;
};

/// A deterministic mesh of `elements` cells, padded to a multiple of `block` by repeating the last
/// cell as Rodinia does. Cells are numbered cube by cube, then shuffled within windows of 256 so
/// neighbours are near in memory but not regularly spaced.
Mesh make_mesh(uint32_t elements, uint32_t block, uint64_t seed);

}  // namespace strobe::workloads::cfd
