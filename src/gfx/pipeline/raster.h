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

/// glViewport and glDepthRange; window y grows upwards, row 0 at the bottom, as in the GL.
struct Viewport {
  int x = 0, y = 0, width = 0, height = 0;
  float near = 0, far = 1;
};

/// Pixels a triangle may write: [x0, x1) x [y0, y1) (the viewport, scissor and target).
struct PixelRect {
  int x0 = 0, y0 = 0, x1 = 0, y1 = 0;
};

/// One covered pixel: its position, depth, and barycentrics i, j of the original triangle's
/// second and third vertices (the first has 1 - i - j), perspective-correct.
struct Fragment {
  int x = 0, y = 0;
  float z = 0;
  float i = 0, j = 0;
};

/// Face culling as glCullFace/glFrontFace set it.
struct CullState {
  bool enabled = false;
  bool cull_front = false, cull_back = true;
  bool front_ccw = true;
};

/// What rasterising one clipped triangle did.
struct RasterResult {
  bool culled = false;    ///< facing away (or degenerate): no fragments
  bool front = true;      ///< front-facing (for gl_FrontFacing)
};

/// Rasterises one clipped triangle: viewport transform, snapping to 1/256 pixel, culling, and
/// coverage of pixel centres by the top-left rule (a centre on an edge is covered only by the
/// triangle for which that edge is a top or left edge, so triangles sharing an edge cover each
/// pixel once). Appends its fragments to `out`.
RasterResult rasterize(const std::array<ClippedVertex, 3>& t, const Viewport& vp, const PixelRect& bounds,
                       const CullState& cull, std::vector<Fragment>& out);

}  // namespace strobe::gfx
