// The cfd mesh generator: Kuhn tetrahedra of a jittered cube grid, matched face to face.
#include "workloads/cfd/mesh.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <numeric>
#include <utility>

#include "workloads/rng.h"

namespace strobe::workloads::cfd {
namespace {

using Vec = std::array<double, 3>;

/// The six Kuhn tetrahedra of a cube: each walks from corner (0,0,0) to (1,1,1) by unit steps
/// along the axes in one of the six orders, so neighbouring cubes' faces match exactly.
constexpr int kAxisOrder[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
/// Vertex jitter in cube widths: enough to make every cell's shape different, small enough that
/// no tetrahedron comes near inverting (each keeps over a third of its undisturbed volume).
constexpr double kJitter = 0.15;
constexpr uint32_t kWindow = 256;  ///< cells are renumbered at random within windows of this many

/// The cube grid: g cubes a side. From g = 8 on, a row of cubes across the middle of the span,
/// a quarter of the way downstream, is the wing: a bar thin and short enough that the shock it
/// raises in the Mach 1.2 stream stays well inside the far field (larger bodies in so small a
/// domain drive Rodinia's central far-field flux unstable within a few hundred steps).
struct Grid {
  uint32_t g;
  bool wing(uint32_t x, uint32_t y, uint32_t z) const {
    return g >= 8 && x == g / 4 && y >= g / 4 && y < 3 * g / 4 && z == g / 2;
  }
  uint64_t fluid_cubes() const {
    uint64_t n = 0;
    for (uint32_t z = 0; z < g; ++z)
      for (uint32_t y = 0; y < g; ++y)
        for (uint32_t x = 0; x < g; ++x) n += !wing(x, y, z);
    return n;
  }
  uint32_t vertex(uint32_t x, uint32_t y, uint32_t z) const { return (z * (g + 1) + y) * (g + 1) + x; }
};

Vec sub(const Vec& a, const Vec& b) { return {a[0] - b[0], a[1] - b[1], a[2] - b[2]}; }
Vec cross(const Vec& a, const Vec& b) {
  return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}
double dot(const Vec& a, const Vec& b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

/// What occupies a tetrahedron of the grid.
enum class Kind : uint8_t { Cell, Wing, Dropped };

/// The grid's tetrahedra, cube by cube (x fastest), six per cube: their vertices, what they are,
/// and each cell's number in that order.
struct Tets {
  std::vector<std::array<uint32_t, 4>> vertex;
  std::vector<Kind> kind;
  std::vector<uint32_t> cell;
};

/// The first `elements` tetrahedra outside the wing become cells; the rest are cut off (their
/// faces become far field).
Tets make_tets(const Grid& grid, uint32_t elements) {
  const uint32_t g = grid.g;
  Tets t;
  t.vertex.resize(6ull * g * g * g), t.kind.resize(t.vertex.size()), t.cell.assign(t.vertex.size(), 0);
  uint32_t cells = 0;
  for (uint32_t z = 0; z < g; ++z)
    for (uint32_t y = 0; y < g; ++y)
      for (uint32_t x = 0; x < g; ++x)
        for (int p = 0; p < 6; ++p) {
          const uint64_t k = 6ull * ((uint64_t(z) * g + y) * g + x) + p;
          uint32_t c[3] = {x, y, z};
          t.vertex[k][0] = grid.vertex(c[0], c[1], c[2]);
          for (int s = 0; s < 3; ++s) ++c[kAxisOrder[p][s]], t.vertex[k][s + 1] = grid.vertex(c[0], c[1], c[2]);
          t.kind[k] = grid.wing(x, y, z) ? Kind::Wing : cells < elements ? Kind::Cell : Kind::Dropped;
          if (t.kind[k] == Kind::Cell) t.cell[k] = cells++;
        }
  return t;
}

/// For face f of tetrahedron t, at [4 t + f], the (4 t' + f') of the same face of the other
/// tetrahedron sharing it, or UINT64_MAX on the grid's outer boundary. Faces are matched by
/// sorting their sorted vertex triples.
std::vector<uint64_t> match_faces(const Tets& t, uint64_t nv) {
  std::vector<std::pair<uint64_t, uint64_t>> faces;
  faces.reserve(4 * t.vertex.size());
  for (uint64_t k = 0; k < t.vertex.size(); ++k)
    for (int f = 0; f < 4; ++f) {
      std::array<uint64_t, 3> v;
      for (int c = 0, n = 0; c < 4; ++c)
        if (c != f) v[n++] = t.vertex[k][c];
      std::sort(v.begin(), v.end());
      faces.push_back({(v[0] * nv + v[1]) * nv + v[2], 4 * k + f});
    }
  std::sort(faces.begin(), faces.end());
  std::vector<uint64_t> across(faces.size(), UINT64_MAX);
  for (size_t k = 0; k + 1 < faces.size(); ++k)
    if (faces[k].first == faces[k + 1].first) {
      across[faces[k].second] = faces[k + 1].second;
      across[faces[k + 1].second] = faces[k].second;
    }
  return across;
}

}  // namespace

Mesh make_mesh(uint32_t elements, uint32_t block, uint64_t seed) {
  Grid grid{1};
  while (6 * grid.fluid_cubes() < elements) ++grid.g;
  const uint32_t g = grid.g, nv = (g + 1) * (g + 1) * (g + 1);
  Rng rng(seed);
  std::vector<Vec> vert(nv);
  for (uint32_t z = 0; z <= g; ++z)
    for (uint32_t y = 0; y <= g; ++y)
      for (uint32_t x = 0; x <= g; ++x) {
        Vec j{rng.unit(), rng.unit(), rng.unit()};
        vert[grid.vertex(x, y, z)] = {x + kJitter * (2 * j[0] - 1), y + kJitter * (2 * j[1] - 1),
                                      z + kJitter * (2 * j[2] - 1)};
      }
  const Tets t = make_tets(grid, elements);
  const std::vector<uint64_t> across = match_faces(t, nv);

  // Renumber the cells at random within windows; list each cell's faces in a random order.
  std::vector<uint32_t> perm(elements);
  std::iota(perm.begin(), perm.end(), 0u);
  for (uint32_t w = 0; w < elements; w += kWindow)
    for (uint32_t k = std::min(elements, w + kWindow) - 1; k > w; --k)
      std::swap(perm[k], perm[w + rng.below(k - w + 1)]);
  Mesh m;
  const size_t n = m.nelr = round_up(elements, block);
  m.areas.assign(n, 0.0f), m.neighbours.assign(kNnb * n, 0), m.normals.assign(3 * kNnb * n, 0.0f);
  for (uint64_t k = 0; k < t.vertex.size(); ++k) {
    if (t.kind[k] != Kind::Cell) continue;
    const uint32_t i = perm[t.cell[k]];
    const Vec& a = vert[t.vertex[k][0]];
    const Vec e1 = sub(vert[t.vertex[k][1]], a), e2 = sub(vert[t.vertex[k][2]], a), e3 = sub(vert[t.vertex[k][3]], a);
    m.areas[i] = float(std::fabs(dot(e1, cross(e2, e3))) / 6);
    int order[kNnb] = {0, 1, 2, 3};
    for (int c = kNnb - 1; c > 0; --c) std::swap(order[c], order[rng.below(c + 1)]);
    for (int j = 0; j < kNnb; ++j) {
      const int f = order[j];  // the face opposite vertex f
      const uint64_t o = across[4 * k + f];
      const Kind other = o == UINT64_MAX ? Kind::Dropped : t.kind[o / 4];
      m.neighbours[i + j * n] =
          other == Kind::Cell ? int32_t(perm[t.cell[o / 4]]) : other == Kind::Wing ? kWall : kFarField;
      Vec p[3];
      for (int c = 0, q = 0; c < 4; ++c)
        if (c != f) p[q++] = vert[t.vertex[k][c]];
      Vec nrm = cross(sub(p[1], p[0]), sub(p[2], p[0]));  // twice the face's area; halve it, pointing inward
      const double s = dot(nrm, sub(vert[t.vertex[k][f]], p[0])) > 0 ? 0.5 : -0.5;
      for (int d = 0; d < 3; ++d) m.normals[i + (j + d * kNnb) * n] = float(s * nrm[d]);
    }
  }
  for (size_t i = elements; i < n; ++i) {  // padding repeats the last cell, as Rodinia does
    const size_t last = elements - 1;
    m.areas[i] = m.areas[last];
    for (int j = 0; j < kNnb; ++j) m.neighbours[i + j * n] = m.neighbours[last + j * n];
    for (int c = 0; c < 3 * kNnb; ++c) m.normals[i + c * n] = m.normals[last + c * n];
  }
  return m;
}

}  // namespace strobe::workloads::cfd
