// The fixed-function front of the pipeline, exact and independent of timing: clipping against
// the depth planes, the viewport transform, face culling, and rasterisation of triangles at
// pixel centres with the top-left rule on an 8-bit sub-pixel grid, as GCN's scan converter
// snaps vertices. Fragments carry the perspective-correct barycentrics the pixel shader's
// v_interp instructions take, relative to the original (unclipped) triangle.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

namespace strobe::gfx {

/// A vertex's clip-space position, as the vertex shader exported it (pos0).
struct ClipVertex {
  float x = 0, y = 0, z = 0, w = 1;
};

/// A vertex of a clipped polygon: its position and its weights over the original triangle's
/// three vertices (linear in clip space, so perspective-correct interpolation stays exact).
struct ClippedVertex {
  ClipVertex pos;
  std::array<float, 3> weight{};
};

/// Clips triangle `v` against -w <= z <= w (and w > 0) and returns the parts as triangles,
/// empty when nothing remains. x and y are not clipped: the rasteriser's bounds do that.
std::vector<std::array<ClippedVertex, 3>> clip_triangle(const std::array<ClipVertex, 3>& v);
/// The same for a triangle whose vertices already carry weights (a line's rectangle).
std::vector<std::array<ClippedVertex, 3>> clip_triangle(const std::array<ClippedVertex, 3>& t);

/// glViewport and glDepthRange; window y grows upwards, row 0 at the bottom, as in the GL.
struct Viewport {
  int x = 0, y = 0, width = 0, height = 0;
  float near = 0, far = 1;
};

/// Pixels a triangle may write: [x0, x1) x [y0, y1) (the viewport, scissor and target).
struct PixelRect {
  int x0 = 0, y0 = 0, x1 = 0, y1 = 0;
};

/// The pixels in both rectangles (an empty rectangle when they do not overlap).
PixelRect intersect(PixelRect a, const PixelRect& b);

/// One covered pixel: its position, depth, and barycentrics i, j of the original triangle's
/// second and third vertices (the first has 1 - i - j), perspective-correct.
struct Fragment {
  int x = 0, y = 0;
  float z = 0;
  float i = 0, j = 0;
};

/// Face culling as glCullFace/glFrontFace set it, and the polygon offset of filled triangles.
struct CullState {
  bool enabled = false;
  bool cull_front = false, cull_back = true;
  bool front_ccw = true;
  /// glPolygonOffset when GL_POLYGON_OFFSET_FILL is on: depth moves by factor * the triangle's
  /// largest depth slope + units * the smallest resolvable difference (that of a 24-bit buffer).
  float offset_factor = 0, offset_units = 0;
};

/// What rasterising one clipped triangle did.
struct RasterResult {
  bool culled = false;    ///< facing away (or degenerate): no fragments
  bool front = true;      ///< front-facing (for gl_FrontFacing)
};

/// A 2x2 block of pixels a triangle touches, as the scan converter hands them to pixel shading:
/// pixel k is (x + (k & 1), y + (k >> 1)), x and y even. Every pixel carries its depth and
/// barycentrics whether covered or not, so the uncovered (helper) pixels of a quad still give
/// the covered ones their derivatives.
struct Quad {
  int x = 0, y = 0;
  uint8_t mask = 0;  ///< bit k: pixel k is covered
  std::array<float, 4> z{}, i{}, j{};
  std::array<float, 4> inv_w{};  ///< 1/w of the clip-space position (gl_FragCoord.w)
};

/// Rasterises one clipped triangle: viewport transform, snapping to 1/256 pixel, culling, and
/// coverage of pixel centres by the top-left rule (a centre on an edge is covered only by the
/// triangle for which that edge is a top or left edge, so triangles sharing an edge cover each
/// pixel once). Appends the quads it covers (at least one pixel each) to `out`, in rows of quads
/// from the bottom.
RasterResult rasterize_quads(const std::array<ClippedVertex, 3>& t, const Viewport& vp, const PixelRect& bounds,
                             const CullState& cull, std::vector<Quad>& out);

/// A line segment as the two triangles of a `width`-pixel-wide rectangle centred on it in window
/// space, as GCN's scan converter draws lines (not the GL's diamond-exit rule). Vertices near `a`
/// weigh (1, 0, 0) and near `b` (0, 1, 0), so a line's attributes interpolate from a to b with
/// the triangle machinery. A zero-length segment gives zero-area triangles.
std::array<std::array<ClippedVertex, 3>, 2> expand_line(const ClipVertex& a, const ClipVertex& b, const Viewport& vp,
                                                        float width);

/// The same, as the covered pixels alone.
RasterResult rasterize(const std::array<ClippedVertex, 3>& t, const Viewport& vp, const PixelRect& bounds,
                       const CullState& cull, std::vector<Fragment>& out);

}  // namespace strobe::gfx
