// A private array indexed with runtime values lives in scratch (MUBUF with the private buffer).
kernel void scratch_spill(global const uint* idx, global uint* out, uint n) {
  size_t i = get_global_id(0);
  if (i >= n) return;
  uint priv[48];
  for (uint k = 0; k < 48; ++k) priv[k] = (uint)i * 31u + k * k;
  uint acc = 0;
  for (uint k = 0; k < 16; ++k) {
    uint j = (idx[i] + k * 5u) % 48u;
    priv[j] ^= acc;
    acc += priv[(j * 7u) % 48u];
  }
  out[i] = acc;
}
