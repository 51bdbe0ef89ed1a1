// One all-pairs n-body step (AMD APP SDK NBody): bodies staged through LDS a tile at a time.
// pos.w is the mass; velocities are updated with a softened inverse-square law.
__kernel void nbody(__global const float4* pos, __global const float4* vel, __global float4* new_pos,
                    __global float4* new_vel, __local float4* tile, uint n, float dt, float eps2) {
  uint i = get_global_id(0), lid = get_local_id(0), wg = get_local_size(0);
  float4 p = pos[i];
  float ax = 0.0f, ay = 0.0f, az = 0.0f;
  for (uint t = 0; t < n; t += wg) {
    tile[lid] = pos[t + lid];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint j = 0; j < wg; ++j) {
      float4 q = tile[j];
      float dx = q.x - p.x, dy = q.y - p.y, dz = q.z - p.z;
      float d2 = dx * dx + dy * dy + dz * dz + eps2;
      float inv = rsqrt(d2);
      float s = q.w * inv * inv * inv;
      ax += s * dx;
      ay += s * dy;
      az += s * dz;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  float4 v = vel[i];
  v.x += ax * dt;
  v.y += ay * dt;
  v.z += az * dt;
  p.x += v.x * dt;
  p.y += v.y * dt;
  p.z += v.z * dt;
  new_pos[i] = p;
  new_vel[i] = v;
}
