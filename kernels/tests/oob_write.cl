// Writes past the end of its buffer when `skew` is large: the emulator must report a fault.
kernel void oob_write(global uint* out, uint skew) {
  size_t i = get_global_id(0);
  out[i + skew] = (uint)i;
}
