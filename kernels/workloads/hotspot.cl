// Rodinia hotspot: one explicit thermal-simulation step per launch over a chip's temperature
// grid; 16x16 tiles with a one-cell halo staged in LDS, out-of-chip neighbours read the cell itself.
#define B 16
__kernel void hotspot(__global const float* temp, __global const float* power, __global float* out, uint w, uint h,
                      float sdc, float rx1, float ry1, float rz1, float amb) {
  __local float t[B + 2][B + 2];
  int lx = get_local_id(0), ly = get_local_id(1);
  int x = get_global_id(0), y = get_global_id(1);
  int cx = min(x, (int)w - 1), cy = min(y, (int)h - 1);
  t[ly + 1][lx + 1] = temp[cy * w + cx];
  if (lx == 0) t[ly + 1][0] = temp[cy * w + max(cx - 1, 0)];
  if (lx == B - 1) t[ly + 1][B + 1] = temp[cy * w + min(cx + 1, (int)w - 1)];
  if (ly == 0) t[0][lx + 1] = temp[max(cy - 1, 0) * w + cx];
  if (ly == B - 1) t[B + 1][lx + 1] = temp[min(cy + 1, (int)h - 1) * w + cx];
  barrier(CLK_LOCAL_MEM_FENCE);
  if (x >= (int)w || y >= (int)h) return;
  // At the grid's right/bottom edge the next tile column/row holds the clamped cell itself.
  float c = t[ly + 1][lx + 1];
  float n = t[ly][lx + 1], s = t[ly + 2][lx + 1], e = t[ly + 1][lx + 2], wv = t[ly + 1][lx];
  if (x == (int)w - 1) e = c;
  if (y == (int)h - 1) s = c;
  out[y * w + x] = c + sdc * (power[y * w + x] + (s + n - 2.0f * c) * ry1 + (e + wv - 2.0f * c) * rx1 + (amb - c) * rz1);
}
