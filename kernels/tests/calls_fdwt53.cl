// The pattern of Rodinia dwt2d's fdwt53Kernel: one row of an image per work-group in LDS, the
// CDF 5/3 lifting step (predict, then update) in an out-of-line function that writes its two
// results through pointers to private memory (a stack frame in scratch).
int calls_mirror(int i, int n) {
  if (i < 0) i = -i;
  if (i >= n) i = 2 * n - 2 - i;
  return i;
}

__attribute__((noinline)) void calls_lift53(local const int* row, int i, int n, int* lo, int* hi) {
  const int x0 = row[calls_mirror(2 * i, n)], x1 = row[calls_mirror(2 * i + 1, n)];
  const int x2 = row[calls_mirror(2 * i + 2, n)];
  const int xm1 = row[calls_mirror(2 * i - 1, n)], xm2 = row[calls_mirror(2 * i - 2, n)];
  const int d = x1 - ((x0 + x2) >> 1);
  const int dm = xm1 - ((xm2 + x0) >> 1);
  *hi = d;
  *lo = x0 + ((dm + d + 2) >> 2);
}

kernel void cl_fdwt53Kernel(global const int* in, global int* out, local int* row, int width) {
  const int y = (int)get_group_id(0), lid = (int)get_local_id(0), ls = (int)get_local_size(0);
  for (int x = lid; x < width; x += ls) row[x] = in[y * width + x];
  barrier(CLK_LOCAL_MEM_FENCE);
  const int halfw = width / 2;
  for (int i = lid; i < halfw; i += ls) {
    int lo, hi;
    calls_lift53(row, i, width, &lo, &hi);
    out[y * width + i] = lo;
    out[y * width + halfw + i] = hi;
  }
}
