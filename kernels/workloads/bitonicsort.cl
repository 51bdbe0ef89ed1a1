// One (stage, pass) step of a bitonic sorting network (AMD APP SDK BitonicSort), ascending.
__kernel void bitonic_step(__global uint* keys, uint stage, uint pass) {
  uint tid = get_global_id(0);
  uint dist = 1u << (stage - pass);
  uint left = (tid % dist) + (tid / dist) * 2 * dist;
  uint right = left + dist;
  bool ascending = ((tid >> stage) & 1u) == 0;  // direction alternates every 2^stage pairs
  uint a = keys[left], b = keys[right];
  if ((a > b) == ascending) {
    keys[left] = b;
    keys[right] = a;
  }
}
