// Needleman-Wunsch global alignment (Rodinia nw): the score matrix is processed in 16x16 blocks
// along anti-diagonals, one launch per block diagonal; inside a block the 16 work-items sweep
// the cells' anti-diagonals through LDS.
#define B 16
static int max3(int a, int b, int c) { return max(a, max(b, c)); }

__kernel void nw_diagonal(__global int* score, __global const int* ref, uint n, int penalty, uint diag,
                          uint first_row) {
  __local int t[B + 1][B + 1];
  __local int r[B][B];
  uint tx = get_local_id(0);
  uint br = first_row + get_group_id(0), bc = diag - br;
  uint w = n + 1;  // score is (n+1) x (n+1); row and column 0 hold the gap penalties
  uint row0 = br * B, col0 = bc * B;
  if (tx == 0) t[0][0] = score[row0 * w + col0];
  t[tx + 1][0] = score[(row0 + tx + 1) * w + col0];
  t[0][tx + 1] = score[row0 * w + col0 + tx + 1];
  for (uint y = 0; y < B; ++y) r[y][tx] = ref[(row0 + y) * n + col0 + tx];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint m = 0; m < B; ++m) {  // upper-left triangle of anti-diagonals
    if (tx <= m) {
      uint x = tx + 1, y = m - tx + 1;
      t[y][x] = max3(t[y - 1][x - 1] + r[y - 1][x - 1], t[y][x - 1] - penalty, t[y - 1][x] - penalty);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  for (int m = B - 2; m >= 0; --m) {  // lower-right triangle
    if (tx <= (uint)m) {
      uint x = tx + B - m, y = B - tx;
      t[y][x] = max3(t[y - 1][x - 1] + r[y - 1][x - 1], t[y][x - 1] - penalty, t[y - 1][x] - penalty);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  for (uint y = 0; y < B; ++y) score[(row0 + y + 1) * w + col0 + tx + 1] = t[y + 1][tx + 1];
}
