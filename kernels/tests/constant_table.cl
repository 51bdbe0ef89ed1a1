// A program-scope __constant table: reached PC-relatively (s_getpc + offset) in the loaded image.
constant uint table[8] = {3, 1, 4, 1, 5, 9, 2, 6};
kernel void constant_table(global uint* out, uint k) { size_t i = get_global_id(0); out[i] = table[(i + k) & 7]; }
