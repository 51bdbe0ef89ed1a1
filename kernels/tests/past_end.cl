// Reads past the end of its input the way a real merge-sort pass does: a 16-byte vector load of
// the last, partial group of four, whose extra elements are never used.
kernel void sum_tail(global const int* in, global int* out, uint n) {
  const uint i = get_group_id(0) * get_local_size(0) + get_local_id(0);
  const uint base = i * 4;
  if (base >= n) return;
  const int4 v = *(global const int4*)(in + base);  // may run past `n`
  int s = v.x;
  if (base + 1 < n) s += v.y;
  if (base + 2 < n) s += v.z;
  if (base + 3 < n) s += v.w;
  out[i] = s;
}
