// A deep call chain in which every level keeps many values live across its call (callee-saved
// registers spilled to the stack in scratch), and a recursion whose depth depends on the data.
#define CALLS_LIVE(v, seed) \
  uint v##0 = seed * 3u + 1u, v##1 = seed ^ 0x55u, v##2 = seed * 7u, v##3 = seed + 11u, v##4 = seed * seed, \
       v##5 = seed >> 3, v##6 = seed * 13u + 5u, v##7 = ~seed, v##8 = seed * 17u, v##9 = seed ^ 0xA5A5u,     \
       v##10 = seed + 0x1000u, v##11 = seed * 29u, v##12 = seed << 2, v##13 = seed * 31u + 7u,               \
       v##14 = seed ^ 0x0F0Fu, v##15 = seed * 37u
#define CALLS_SUM(v)                                                                                        \
  (v##0 ^ v##1 * 3u ^ v##2 * 5u ^ v##3 * 7u ^ v##4 * 9u ^ v##5 * 11u ^ v##6 * 13u ^ v##7 * 15u ^ v##8 * 17u ^ \
   v##9 * 19u ^ v##10 * 21u ^ v##11 * 23u ^ v##12 * 25u ^ v##13 * 27u ^ v##14 * 29u ^ v##15 * 31u)

__attribute__((noinline)) uint calls_leaf(uint s) { return s * 0x01000193u ^ (s >> 11); }

__attribute__((noinline)) uint calls_level3(uint s) {
  CALLS_LIVE(a, s);
  uint r = calls_leaf(s + 3u);
  return r + CALLS_SUM(a);
}

__attribute__((noinline)) uint calls_level2(uint s) {
  CALLS_LIVE(b, s);
  uint r = calls_level3(s * 5u + 2u);
  return r ^ CALLS_SUM(b);
}

__attribute__((noinline)) uint calls_level1(uint s) {
  CALLS_LIVE(c, s);
  uint r = calls_level2(s ^ 0x3Cu);
  return r * 3u + CALLS_SUM(c);
}

// Two recursive calls per level: not a tail call, so every level has a stack frame.
__attribute__((noinline)) uint calls_tree(uint x, uint depth) {
  if (depth == 0) return x & 0xFFu;
  uint left = calls_tree(x * 1103515245u + 12345u, depth - 1);
  uint right = calls_tree(x ^ (x >> 7), depth - 1);
  return left * 31u + right + depth;
}

kernel void calls_deep(global const uint* in, global uint* chain, global uint* tree, uint n) {
  size_t i = get_global_id(0);
  if (i >= n) return;
  uint s = in[i];
  CALLS_LIVE(k, s);
  uint r = calls_level1(s);
  chain[i] = r + CALLS_SUM(k);
  tree[i] = calls_tree(s, s % 6u);
}
