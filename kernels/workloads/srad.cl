// Rodinia SRAD (speckle reducing anisotropic diffusion, v2): per iteration, srad_coeff computes
// the four directional derivatives and the diffusion coefficient of every pixel, then srad_update
// diffuses the image. Neighbours outside the image are clamped to the edge.
__kernel void srad_coeff(__global const float* j, __global float* dn, __global float* ds, __global float* dw,
                         __global float* de, __global float* c, uint rows, uint cols, float q0sqr) {
  uint x = get_global_id(0), y = get_global_id(1);
  if (x >= cols || y >= rows) return;
  uint i = y * cols + x;
  float jc = j[i];
  float n = j[(y ? y - 1 : 0) * cols + x] - jc, s = j[(y + 1 < rows ? y + 1 : y) * cols + x] - jc;
  float w = j[y * cols + (x ? x - 1 : 0)] - jc, e = j[y * cols + (x + 1 < cols ? x + 1 : x)] - jc;
  float g2 = (n * n + s * s + w * w + e * e) / (jc * jc);
  float l = (n + s + w + e) / jc;
  float num = 0.5f * g2 - 0.0625f * (l * l);
  float den = 1.0f + 0.25f * l;
  float qsqr = num / (den * den);
  den = (qsqr - q0sqr) / (q0sqr * (1.0f + q0sqr));
  float coeff = 1.0f / (1.0f + den);
  c[i] = clamp(coeff, 0.0f, 1.0f);
  dn[i] = n, ds[i] = s, dw[i] = w, de[i] = e;
}

__kernel void srad_update(__global float* j, __global const float* dn, __global const float* ds,
                          __global const float* dw, __global const float* de, __global const float* c, uint rows,
                          uint cols, float lambda) {
  uint x = get_global_id(0), y = get_global_id(1);
  if (x >= cols || y >= rows) return;
  uint i = y * cols + x;
  float cs = c[(y + 1 < rows ? y + 1 : y) * cols + x], ce = c[y * cols + (x + 1 < cols ? x + 1 : x)];
  float d = c[i] * dn[i] + cs * ds[i] + c[i] * dw[i] + ce * de[i];
  j[i] = j[i] + 0.25f * lambda * d;
}
