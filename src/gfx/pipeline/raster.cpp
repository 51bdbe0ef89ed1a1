// Edge functions are evaluated in 64-bit integers on vertices snapped to 1/256 pixel, so a
// pixel centre lying exactly on an edge is decided exactly and shared edges never double-cover
// or leave gaps. Barycentrics then come from the same integers, and perspective correction uses
// each vertex's 1/w.
#include "gfx/pipeline/raster.h"

#include <algorithm>
#include <cmath>

namespace strobe::gfx {
namespace {

constexpr int kSubpixelBits = 8;
constexpr int64_t kSubpixel = int64_t{1} << kSubpixelBits;

// Signed distance of `v` from the plane -w <= z (which = 0) or z <= w (which = 1); >= 0 inside.
float plane_distance(const ClipVertex& v, int which) { return which == 0 ? v.z + v.w : v.w - v.z; }

ClippedVertex lerp(const ClippedVertex& a, const ClippedVertex& b, float t) {
  ClippedVertex r;
  r.pos = {a.pos.x + t * (b.pos.x - a.pos.x), a.pos.y + t * (b.pos.y - a.pos.y), a.pos.z + t * (b.pos.z - a.pos.z),
           a.pos.w + t * (b.pos.w - a.pos.w)};
  for (int k = 0; k < 3; ++k) r.weight[size_t(k)] = a.weight[size_t(k)] + t * (b.weight[size_t(k)] - a.weight[size_t(k)]);
  return r;
}

// Edge function of a -> b at p, all in sub-pixel units; positive on the left of a -> b.
int64_t edge(int64_t ax, int64_t ay, int64_t bx, int64_t by, int64_t px, int64_t py) {
  return (bx - ax) * (py - ay) - (by - ay) * (px - ax);
}

// With counter-clockwise winding in y-up window coordinates, a left edge runs downwards and a
// top edge runs leftwards along a horizontal.
bool top_left(int64_t ax, int64_t ay, int64_t bx, int64_t by) { return by < ay || (by == ay && bx < ax); }

}  // namespace

PixelRect intersect(PixelRect a, const PixelRect& b) {
  a.x0 = std::max(a.x0, b.x0), a.y0 = std::max(a.y0, b.y0);
  a.x1 = std::min(a.x1, b.x1), a.y1 = std::min(a.y1, b.y1);
  if (a.x1 < a.x0) a.x1 = a.x0;
  if (a.y1 < a.y0) a.y1 = a.y0;
  return a;
}

std::vector<std::array<ClippedVertex, 3>> clip_triangle(const std::array<ClipVertex, 3>& v) {
  std::array<ClippedVertex, 3> t;
  for (int k = 0; k < 3; ++k) {
    t[size_t(k)].pos = v[size_t(k)];
    t[size_t(k)].weight[size_t(k)] = 1;
  }
  return clip_triangle(t);
}

std::vector<std::array<ClippedVertex, 3>> clip_triangle(const std::array<ClippedVertex, 3>& t) {
  std::vector<ClippedVertex> poly(t.begin(), t.end());
  for (int plane = 0; plane < 2 && !poly.empty(); ++plane) {
    std::vector<ClippedVertex> next;
    for (size_t k = 0; k < poly.size(); ++k) {
      const ClippedVertex& a = poly[k];
      const ClippedVertex& b = poly[(k + 1) % poly.size()];
      const float da = plane_distance(a.pos, plane), db = plane_distance(b.pos, plane);
      if (da >= 0) next.push_back(a);
      if ((da >= 0) != (db >= 0)) next.push_back(lerp(a, b, da / (da - db)));
    }
    poly = std::move(next);
  }
  std::vector<std::array<ClippedVertex, 3>> out;
  // Behind the eye (w <= 0) after depth clipping means a degenerate remainder.
  for (const auto& p : poly)
    if (!(p.pos.w > 0)) return out;
  for (size_t k = 2; k < poly.size(); ++k) out.push_back({poly[0], poly[k - 1], poly[k]});
  return out;
}

RasterResult rasterize_quads(const std::array<ClippedVertex, 3>& t, const Viewport& vp, const PixelRect& bounds,
                             const CullState& cull, std::vector<Quad>& out) {
  RasterResult r;
  int64_t sx[3], sy[3];
  float zw[3], inv_w[3];
  for (int k = 0; k < 3; ++k) {
    const ClipVertex& p = t[size_t(k)].pos;
    inv_w[k] = 1.0f / p.w;
    const float wx = (p.x * inv_w[k] + 1.0f) * 0.5f * float(vp.width) + float(vp.x);
    const float wy = (p.y * inv_w[k] + 1.0f) * 0.5f * float(vp.height) + float(vp.y);
    zw[k] = (p.z * inv_w[k] + 1.0f) * 0.5f * (vp.far - vp.near) + vp.near;
    sx[k] = std::llround(double(wx) * double(kSubpixel));
    sy[k] = std::llround(double(wy) * double(kSubpixel));
  }
  int64_t area = edge(sx[0], sy[0], sx[1], sy[1], sx[2], sy[2]);
  if (area == 0) {
    r.culled = true;
    return r;
  }
  r.front = (area > 0) == cull.front_ccw;
  if (cull.enabled && ((r.front && cull.cull_front) || (!r.front && cull.cull_back))) {
    r.culled = true;
    return r;
  }
  // Polygon offset: the depth plane's largest slope in window pixels, from the snapped vertices.
  float offset = 0;
  if (cull.offset_factor != 0 || cull.offset_units != 0) {
    const double x1 = double(sx[1] - sx[0]) / kSubpixel, y1 = double(sy[1] - sy[0]) / kSubpixel;
    const double x2 = double(sx[2] - sx[0]) / kSubpixel, y2 = double(sy[2] - sy[0]) / kSubpixel;
    const double z1 = double(zw[1]) - zw[0], z2 = double(zw[2]) - zw[0], det = x1 * y2 - x2 * y1;
    const double dzdx = (z1 * y2 - z2 * y1) / det, dzdy = (x1 * z2 - x2 * z1) / det;
    offset = float(cull.offset_factor * std::max(std::fabs(dzdx), std::fabs(dzdy)) + cull.offset_units * 0x1p-24);
  }
  // Make the winding counter-clockwise for the edge tests; keep which vertex is which.
  int order[3] = {0, 1, 2};
  if (area < 0) {
    std::swap(order[1], order[2]);
    area = -area;
  }
  const int64_t x[3] = {sx[order[0]], sx[order[1]], sx[order[2]]};
  const int64_t y[3] = {sy[order[0]], sy[order[1]], sy[order[2]]};
  const int64_t lo_x = std::min({x[0], x[1], x[2]}), hi_x = std::max({x[0], x[1], x[2]});
  const int64_t lo_y = std::min({y[0], y[1], y[2]}), hi_y = std::max({y[0], y[1], y[2]});
  // Pixel centres (px + 1/2) inside the box and the bounds, widened to whole quads.
  const int px0 = std::max<int64_t>(bounds.x0, (lo_x - kSubpixel / 2 + kSubpixel - 1) >> kSubpixelBits);
  const int px1 = std::min<int64_t>(bounds.x1, ((hi_x - kSubpixel / 2) >> kSubpixelBits) + 1);
  const int py0 = std::max<int64_t>(bounds.y0, (lo_y - kSubpixel / 2 + kSubpixel - 1) >> kSubpixelBits);
  const int py1 = std::min<int64_t>(bounds.y1, ((hi_y - kSubpixel / 2) >> kSubpixelBits) + 1);
  if (px0 >= px1 || py0 >= py1) return r;
  // Edge k is opposite vertex k: it weighs vertex k.
  const bool tl[3] = {top_left(x[1], y[1], x[2], y[2]), top_left(x[2], y[2], x[0], y[0]), top_left(x[0], y[0], x[1], y[1])};
  // Values at pixel (px, py), inside the triangle or not (helpers extrapolate the plane).
  auto shade = [&](Quad& q, int k, const int64_t e[3]) {
    float l[3];
    for (int v = 0; v < 3; ++v) l[order[v]] = float(double(e[v]) / double(area));
    q.z[size_t(k)] = l[0] * zw[0] + l[1] * zw[1] + l[2] * zw[2];
    if (offset != 0) q.z[size_t(k)] = std::clamp(q.z[size_t(k)] + offset, 0.0f, 1.0f);
    // Perspective-correct weights of the clipped triangle's vertices, then of the original's.
    float w[3], sum = 0;
    for (int v = 0; v < 3; ++v) sum += w[v] = l[v] * inv_w[v];
    float b[3] = {0, 0, 0};
    for (int v = 0; v < 3; ++v)
      for (int o = 0; o < 3; ++o) b[o] += w[v] / sum * t[size_t(v)].weight[size_t(o)];
    q.inv_w[size_t(k)] = sum;
    q.i[size_t(k)] = b[1];
    q.j[size_t(k)] = b[2];
  };
  for (int qy = py0 & ~1; qy < py1; qy += 2) {
    for (int qx = px0 & ~1; qx < px1; qx += 2) {
      Quad q;
      q.x = qx;
      q.y = qy;
      int64_t e[4][3];
      for (int k = 0; k < 4; ++k) {
        const int px = qx + (k & 1), py = qy + (k >> 1);
        const int64_t cx = int64_t(px) * kSubpixel + kSubpixel / 2, cy = int64_t(py) * kSubpixel + kSubpixel / 2;
        e[k][0] = edge(x[1], y[1], x[2], y[2], cx, cy);
        e[k][1] = edge(x[2], y[2], x[0], y[0], cx, cy);
        e[k][2] = edge(x[0], y[0], x[1], y[1], cx, cy);
        bool in = px >= px0 && px < px1 && py >= py0 && py < py1;
        for (int v = 0; v < 3; ++v) in = in && (e[k][v] > 0 || (e[k][v] == 0 && tl[v]));
        if (in) q.mask = uint8_t(q.mask | 1u << k);
      }
      if (!q.mask) continue;
      for (int k = 0; k < 4; ++k) shade(q, k, e[k]);
      out.push_back(q);
    }
  }
  return r;
}

std::array<std::array<ClippedVertex, 3>, 2> expand_line(const ClipVertex& a, const ClipVertex& b, const Viewport& vp,
                                                        float width) {
  // The perpendicular in window pixels, half the width long, taken back to clip space at each end
  // (an NDC offset times w), so the rectangle stays the same width in pixels after the divide.
  const double dx = (double(b.x) / b.w - double(a.x) / a.w) * 0.5 * vp.width;
  const double dy = (double(b.y) / b.w - double(a.y) / a.w) * 0.5 * vp.height;
  const double len = std::sqrt(dx * dx + dy * dy);
  const double nx = len > 0 ? -dy / len * 0.5 * width : 0, ny = len > 0 ? dx / len * 0.5 * width : 0;
  const float ox = float(nx * 2.0 / vp.width), oy = float(ny * 2.0 / vp.height);  // in NDC
  auto at = [&](const ClipVertex& v, float side, int which) {
    ClippedVertex c;
    c.pos = {v.x + side * ox * v.w, v.y + side * oy * v.w, v.z, v.w};
    c.weight[size_t(which)] = 1;
    return c;
  };
  const ClippedVertex a0 = at(a, -1, 0), a1 = at(a, 1, 0), b0 = at(b, -1, 1), b1 = at(b, 1, 1);
  return {std::array{a0, b0, b1}, std::array{a0, b1, a1}};
}

RasterResult rasterize(const std::array<ClippedVertex, 3>& t, const Viewport& vp, const PixelRect& bounds,
                       const CullState& cull, std::vector<Fragment>& out) {
  std::vector<Quad> quads;
  const RasterResult r = rasterize_quads(t, vp, bounds, cull, quads);
  for (const Quad& q : quads)
    for (int k = 0; k < 4; ++k)
      if (q.mask >> k & 1) out.push_back(Fragment{q.x + (k & 1), q.y + (k >> 1), q.z[size_t(k)], q.i[size_t(k)], q.j[size_t(k)]});
  return r;
}

}  // namespace strobe::gfx
