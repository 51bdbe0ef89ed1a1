// Clipping, culling and rasterisation: exact coverage by the top-left rule, perspective-correct
// barycentrics of the original triangle, and depth.
#include "gfx/pipeline/raster.h"

#include <cmath>
#include <map>

#include <gtest/gtest.h>

namespace strobe::gfx {
namespace {

// A clip-space vertex at window position (wx, wy) of an NxN viewport, with depth z and w.
ClipVertex at(float wx, float wy, int n, float z = 0, float w = 1) {
  return {(wx / float(n) * 2 - 1) * w, (wy / float(n) * 2 - 1) * w, z * w, w};
}

std::array<ClippedVertex, 3> unclipped(const std::array<ClipVertex, 3>& v) {
  auto parts = clip_triangle(v);
  EXPECT_EQ(parts.size(), 1u);
  return parts.at(0);
}

TEST(Raster, TrianglesSharingEdgesCoverEveryPixelExactlyOnce) {
  // A fan of 8 triangles around an off-grid centre, spanning a 16x16 viewport; the edges pass
  // exactly through pixel centres on the diagonals and the middle row and column.
  constexpr int n = 16;
  const float cx = 8.5f, cy = 8.5f;
  const float ring[9][2] = {{0, 0}, {8.5f, 0}, {16, 0}, {16, 8.5f}, {16, 16}, {8.5f, 16}, {0, 16}, {0, 8.5f}, {0, 0}};
  std::map<std::pair<int, int>, int> hits;
  std::vector<Fragment> frags;
  for (int k = 0; k < 8; ++k) {
    frags.clear();
    auto t = unclipped({at(cx, cy, n), at(ring[k][0], ring[k][1], n), at(ring[k + 1][0], ring[k + 1][1], n)});
    auto r = rasterize(t, Viewport{0, 0, n, n}, PixelRect{0, 0, n, n}, CullState{}, frags);
    EXPECT_FALSE(r.culled);
    for (const auto& f : frags) ++hits[{f.x, f.y}];
  }
  EXPECT_EQ(hits.size(), size_t(n * n)) << "no gaps";
  for (const auto& [p, count] : hits) EXPECT_EQ(count, 1) << "pixel " << p.first << "," << p.second;
}

TEST(Raster, APixelCentreOnAHorizontalEdgeBelongsToTheTriangleBelowIt) {
  // Two triangles split at y = 4.5, exactly on the centres of row 4: the top-left rule gives
  // that row to the triangle whose top edge it is (the lower one).
  constexpr int n = 8;
  std::vector<Fragment> lower, upper;
  rasterize(unclipped({at(0, 0, n), at(8, 0, n), at(8, 4.5f, n)}), Viewport{0, 0, n, n}, PixelRect{0, 0, n, n}, CullState{}, lower);
  rasterize(unclipped({at(0, 0, n), at(8, 4.5f, n), at(0, 4.5f, n)}), Viewport{0, 0, n, n}, PixelRect{0, 0, n, n}, CullState{}, lower);
  rasterize(unclipped({at(0, 4.5f, n), at(8, 4.5f, n), at(8, 8, n)}), Viewport{0, 0, n, n}, PixelRect{0, 0, n, n}, CullState{}, upper);
  rasterize(unclipped({at(0, 4.5f, n), at(8, 8, n), at(0, 8, n)}), Viewport{0, 0, n, n}, PixelRect{0, 0, n, n}, CullState{}, upper);
  int row4_lower = 0, row4_upper = 0;
  for (const auto& f : lower) row4_lower += f.y == 4;
  for (const auto& f : upper) row4_upper += f.y == 4;
  EXPECT_EQ(lower.size() + upper.size(), 64u);
  EXPECT_EQ(row4_lower + row4_upper, 8);
  EXPECT_TRUE(row4_lower == 8 || row4_upper == 8) << "the whole row goes to one side";
}

TEST(Raster, BackFacesAreCulledByWindingAndFrontFace) {
  constexpr int n = 8;
  std::vector<Fragment> f;
  auto ccw = unclipped({at(1, 1, n), at(7, 1, n), at(4, 7, n)});
  auto cw = unclipped({at(1, 1, n), at(4, 7, n), at(7, 1, n)});
  CullState back{true, false, true, true};
  EXPECT_FALSE(rasterize(ccw, Viewport{0, 0, n, n}, PixelRect{0, 0, n, n}, back, f).culled);
  EXPECT_TRUE(rasterize(cw, Viewport{0, 0, n, n}, PixelRect{0, 0, n, n}, back, f).culled);
  CullState cw_front = back;
  cw_front.front_ccw = false;
  EXPECT_TRUE(rasterize(ccw, Viewport{0, 0, n, n}, PixelRect{0, 0, n, n}, cw_front, f).culled);
  auto r = rasterize(cw, Viewport{0, 0, n, n}, PixelRect{0, 0, n, n}, CullState{}, f);
  EXPECT_FALSE(r.culled);
  EXPECT_FALSE(r.front) << "clockwise is a back face when front faces are counter-clockwise";
}

TEST(Raster, BarycentricsArePerspectiveCorrectAndDepthIsInTheDepthRange) {
  constexpr int n = 32;
  // Vertices at different depths w: the weights must follow 1/w, not screen space.
  const std::array<ClipVertex, 3> v = {at(2, 2, n, -0.5f, 1.0f), at(30, 4, n, 0.2f, 4.0f), at(10, 30, n, 0.9f, 2.0f)};
  std::vector<Fragment> frags;
  rasterize(unclipped(v), Viewport{0, 0, n, n, 0.25f, 0.75f}, PixelRect{0, 0, n, n}, CullState{}, frags);
  ASSERT_GT(frags.size(), 100u);
  // Window positions of the vertices, and the plain float reference for each pixel centre.
  float wx[3], wy[3];
  for (int k = 0; k < 3; ++k) {
    wx[k] = (v[size_t(k)].x / v[size_t(k)].w + 1) * 0.5f * n;
    wy[k] = (v[size_t(k)].y / v[size_t(k)].w + 1) * 0.5f * n;
  }
  const float area = (wx[1] - wx[0]) * (wy[2] - wy[0]) - (wy[1] - wy[0]) * (wx[2] - wx[0]);
  for (const auto& f : frags) {
    const float px = float(f.x) + 0.5f, py = float(f.y) + 0.5f;
    float l[3];
    for (int k = 0; k < 3; ++k) {
      const int a = (k + 1) % 3, b = (k + 2) % 3;
      l[k] = ((wx[b] - wx[a]) * (py - wy[a]) - (wy[b] - wy[a]) * (px - wx[a])) / area;
    }
    float q[3], sum = 0;
    for (int k = 0; k < 3; ++k) sum += q[k] = l[k] / v[size_t(k)].w;
    // Snapping to 1/256 pixel moves the weights by up to about 1/256 of a pixel's share.
    EXPECT_NEAR(f.i, q[1] / sum, 2e-3f) << f.x << "," << f.y;
    EXPECT_NEAR(f.j, q[2] / sum, 2e-3f) << f.x << "," << f.y;
    const float z_ref = 0.25f + 0.5f * (l[0] * (v[0].z / v[0].w + 1) + l[1] * (v[1].z / v[1].w + 1) + l[2] * (v[2].z / v[2].w + 1)) * 0.5f;
    EXPECT_NEAR(f.z, z_ref, 2e-3f);
    EXPECT_GE(f.z, 0.25f - 1e-6f);
    EXPECT_LE(f.z, 0.75f + 1e-6f);
  }
}

TEST(Raster, ClippingAtTheDepthPlanesKeepsWeightsOfTheOriginalTriangle) {
  // One vertex behind the near plane (z < -w), one beyond the far plane: a pentagon, 3 triangles.
  const std::array<ClipVertex, 3> v = {ClipVertex{0, 0, -2, 1}, ClipVertex{1, 0, 0.5f, 1}, ClipVertex{0, 1, 3, 1}};
  auto parts = clip_triangle(v);
  EXPECT_EQ(parts.size(), 3u);
  for (const auto& t : parts)
    for (const auto& cv : t) {
      float x = 0, z = 0, sum = 0;
      for (int k = 0; k < 3; ++k) {
        x += cv.weight[size_t(k)] * v[size_t(k)].x;
        z += cv.weight[size_t(k)] * v[size_t(k)].z;
        sum += cv.weight[size_t(k)];
      }
      EXPECT_NEAR(sum, 1.0f, 1e-6f);
      EXPECT_NEAR(x, cv.pos.x, 1e-6f);
      EXPECT_NEAR(z, cv.pos.z, 1e-6f);
      EXPECT_GE(cv.pos.z, -cv.pos.w - 1e-6f);
      EXPECT_LE(cv.pos.z, cv.pos.w + 1e-6f);
    }
  EXPECT_TRUE(clip_triangle({ClipVertex{0, 0, -3, 1}, ClipVertex{1, 0, -2, 1}, ClipVertex{0, 1, -5, 1}}).empty());
}

TEST(Raster, PolygonOffsetMovesDepthBySlopeAndUnits) {
  // Window depth runs from 0 to 1 over 32 pixels in x: a slope of 1/32 per pixel.
  const int n = 16;
  const auto t = unclipped({ClipVertex{-1, -1, -1, 1}, ClipVertex{3, -1, 1, 1}, ClipVertex{-1, 3, -1, 1}});
  std::vector<Fragment> plain, offset;
  rasterize(t, Viewport{0, 0, n, n}, PixelRect{0, 0, n, n}, CullState{}, plain);
  CullState polygon_offset;
  polygon_offset.offset_factor = -1;  // OpenArena's decals: glPolygonOffset(-1, -2)
  polygon_offset.offset_units = -2;
  rasterize(t, Viewport{0, 0, n, n}, PixelRect{0, 0, n, n}, polygon_offset, offset);
  ASSERT_EQ(plain.size(), offset.size());
  for (size_t k = 0; k < plain.size(); ++k) {
    if (plain[k].z < 0.05f) continue;  // the clamp to [0, 1] holds offsets below 0 at 0
    EXPECT_NEAR(offset[k].z, plain[k].z - 1.0f / 32 - 2.0f / (1 << 24), 1e-6f) << k;
  }
}

TEST(Raster, FragmentsStayInsideTheBounds) {
  constexpr int n = 16;
  std::vector<Fragment> frags;
  rasterize(unclipped({at(-40, -40, n), at(80, -40, n), at(-40, 80, n)}), Viewport{0, 0, n, n}, PixelRect{2, 3, 10, 12},
            CullState{}, frags);
  EXPECT_EQ(frags.size(), size_t(8 * 9));
  for (const auto& f : frags) {
    EXPECT_GE(f.x, 2);
    EXPECT_LT(f.x, 10);
    EXPECT_GE(f.y, 3);
    EXPECT_LT(f.y, 12);
  }
}

}  // namespace
}  // namespace strobe::gfx
