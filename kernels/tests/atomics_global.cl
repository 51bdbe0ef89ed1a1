// Global atomics with return values: every work-item records what its atomic returned.
kernel void atomics_global(global int* counters, global int* ret, global uint* bits, uint n) {
  size_t i = get_global_id(0);
  if (i >= n) return;
  int v = (int)(i * 37 % 101) - 50;
  ret[i] = atomic_add(&counters[0], 1);             // returns a unique ticket
  atomic_min(&counters[1], v);
  atomic_max(&counters[2], v);
  atomic_or((global uint*)&bits[i % 4], 1u << (i % 32));
  atomic_xor((global uint*)&bits[4 + i % 4], (uint)i * 2654435761u);
  atomic_cmpxchg(&counters[3], 0, (int)i + 1);      // exactly one work-item wins
  atomic_sub(&counters[4], 2);
}
