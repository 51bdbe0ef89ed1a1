// AES-256 encryption in ECB mode, one 16-byte block per work-item, byte-oriented with an S-box
// table in global memory (the table lookups and byte shuffles are the point of this workload).
static uchar xtime(uchar x) { return (uchar)((x << 1) ^ ((x & 0x80) ? 0x1b : 0x00)); }

__kernel void aes256(__global const uchar* in, __global uchar* out, __global const uchar* sbox,
                     __global const uchar* round_keys, uint nblocks) {
  uint b = get_global_id(0);
  if (b >= nblocks) return;
  uchar s[16], t[16];
  for (int i = 0; i < 16; ++i) s[i] = in[b * 16 + i] ^ round_keys[i];
  for (int round = 1; round <= 14; ++round) {
    // SubBytes and ShiftRows together; the state is column-major (byte c*4+r is row r, column c).
    for (int c = 0; c < 4; ++c)
      for (int r = 0; r < 4; ++r) t[c * 4 + r] = sbox[s[((c + r) & 3) * 4 + r]];
    if (round != 14) {
      for (int c = 0; c < 4; ++c) {  // MixColumns
        uchar a0 = t[c * 4], a1 = t[c * 4 + 1], a2 = t[c * 4 + 2], a3 = t[c * 4 + 3];
        uchar u = a0 ^ a1 ^ a2 ^ a3;
        t[c * 4 + 0] = a0 ^ u ^ xtime(a0 ^ a1);
        t[c * 4 + 1] = a1 ^ u ^ xtime(a1 ^ a2);
        t[c * 4 + 2] = a2 ^ u ^ xtime(a2 ^ a3);
        t[c * 4 + 3] = a3 ^ u ^ xtime(a3 ^ a0);
      }
    }
    for (int i = 0; i < 16; ++i) s[i] = t[i] ^ round_keys[round * 16 + i];
  }
  for (int i = 0; i < 16; ++i) out[b * 16 + i] = s[i];
}
