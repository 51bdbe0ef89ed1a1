// Lennard-Jones forces over a neighbour list (SHOC MD): an irregular gather of positions.
// The list is neighbour-major (entry k of atom i at k * n + i) so the index loads coalesce.
__kernel void md_lj(__global const float4* pos, __global const int* neigh, __global float4* force, uint n,
                    uint max_neigh, float cutsq, float lj1, float lj2) {
  uint i = get_global_id(0);
  if (i >= n) return;
  float4 p = pos[i];
  float fx = 0.0f, fy = 0.0f, fz = 0.0f;
  for (uint k = 0; k < max_neigh; ++k) {
    int j = neigh[k * n + i];
    if (j < 0) break;  // lists are padded with -1
    float4 q = pos[j];
    float dx = p.x - q.x, dy = p.y - q.y, dz = p.z - q.z;
    float r2 = dx * dx + dy * dy + dz * dz;
    if (r2 < cutsq) {
      float r2inv = 1.0f / r2;
      float r6inv = r2inv * r2inv * r2inv;
      float f = r2inv * r6inv * (lj1 * r6inv - lj2);
      fx += dx * f;
      fy += dy * f;
      fz += dz * f;
    }
  }
  force[i] = (float4)(fx, fy, fz, 0.0f);
}
