// A private array indexed with run-time values forces scratch (private segment) accesses.
__kernel void private_array(__global const uint* idx, __global uint* out) {
  uint gid = get_global_id(0);
  volatile uint a[40];
  for (uint i = 0; i < 40; ++i) a[i] = gid * 100 + i;
  uint k = idx[gid] % 40;
  a[k] += 5;
  out[gid] = a[k] + a[(k + 7) % 40];
}
