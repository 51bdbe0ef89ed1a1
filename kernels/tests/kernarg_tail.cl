// Pointer-then-int argument lists of several lengths and no hidden arguments: LLVM widens the
// scalar loads of the trailing ints up to the kernarg segment's alignment, so it reads past the
// last explicit argument (the runtime must hand out a padded, zero-filled kernarg buffer).
// Work-item indices come from the group id, local size and local id only, so that no hidden
// argument (the global offset) is needed.

#define GID0 (get_group_id(0) * get_local_size(0) + get_local_id(0))
#define GID1 (get_group_id(1) * get_local_size(1) + get_local_id(1))

// The shape of the program that first showed the bug (kernarg segment of 36 bytes).
kernel void conv2d(global const float* img, global float* out, constant float* mask, int width, int height, int mw) {
  const int x = GID0, y = GID1;
  if (x >= width || y >= height) return;
  const int r = mw / 2;
  float sum = 0.0f;
  for (int j = -r; j <= r; ++j)
    for (int i = -r; i <= r; ++i) {
      const int xx = clamp(x + i, 0, width - 1), yy = clamp(y + j, 0, height - 1);
      sum += img[yy * width + xx] * mask[(j + r) * mw + (i + r)];
    }
  out[y * width + x] = sum;
}

// Tiled matmul with three pointers and three ints (kernarg segment of 36 bytes).
kernel void matmul3(global const float* a, global const float* b, global float* c, int m, int n, int k) {
  const int col = GID0, row = GID1;
  if (row >= m || col >= n) return;
  float acc = 0.0f;
  for (int i = 0; i < k; ++i) acc += a[row * k + i] * b[i * n + col];
  c[row * n + col] = acc;
}

kernel void p1i1(global int* o, int a) { o[GID0] = a + (int)GID0; }
kernel void p1i2(global int* o, int a, int b) { o[GID0] = a * b + (int)GID0; }
kernel void p1i3(global int* o, int a, int b, int c) { o[GID0] = a * b + c + (int)GID0; }
kernel void p2i1(global const int* x, global int* o, int a) { o[GID0] = x[GID0] + a; }
kernel void p2i3(global const int* x, global int* o, int a, int b, int c) { o[GID0] = x[GID0] * a + b - c; }
kernel void p3i5(global const int* x, global const int* y, global int* o, int a, int b, int c, int d, int e) {
  o[GID0] = x[GID0] * a + y[GID0] * b + c - d + e;
}
