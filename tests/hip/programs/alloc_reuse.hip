// Device memory freed and allocated again, in any order with streams, as real programs do:
// pageable buffers HIP pinned for a copy and the program then freed, ranges the kernel hands out
// again, allocations of every size between 4 bytes and 16 MiB, streams created and destroyed
// between them. The first part repeats one such round; the second is a seeded random walk of
// N operations (argument 1, default 400). Every kernel's output is checked on the host.
#include <algorithm>
#include <random>
#include <vector>

#include "check.h"

__global__ void fill(int* p, int n, int v) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = v + i;
}

/// Fills the first `n` ints of `p` on `s` and checks them on the host.
void fill_and_check(int* p, int n, int v, hipStream_t s, Mismatches& m) {
  hipLaunchKernelGGL(fill, dim3((n + 255) / 256), dim3(256), 0, s, p, n, v);
  CHECK(hipGetLastError());
  std::vector<int> back(n);
  CHECK(hipMemcpyAsync(back.data(), p, size_t(n) * 4, hipMemcpyDeviceToHost, s));
  CHECK(hipStreamSynchronize(s));
  for (int i = 0; i < n; ++i) m.expect(back[i] == v + i, "fill", i, back[i], v + i);
}

int main(int argc, char** argv) {
  const int ops = argc > 1 ? std::atoi(argv[1]) : 400;
  Mismatches m;
  // Rounds: a pageable copy (HIP pins the vector, which is then freed), fresh allocations that
  // may land where it was, a new stream, and everything freed again.
  for (int r = 0; r < 8; ++r) {
    const size_t n = (size_t(1) << 18) * (1 + r % 4);
    int* d;
    CHECK(hipMalloc(&d, n * 4));
    {
      std::vector<int> h(n, r);
      CHECK(hipMemcpy(d, h.data(), n * 4, hipMemcpyHostToDevice));
    }
    std::vector<int*> more;
    for (int k = 0; k < 6; ++k) {
      int* q;
      CHECK(hipMalloc(&q, (size_t(1) << 20) * (1 + k)));
      more.push_back(q);
    }
    hipStream_t s;
    CHECK(hipStreamCreate(&s));
    fill_and_check(d, 4096, r, s, m);
    CHECK(hipStreamDestroy(s));
    for (int* q : more) CHECK(hipFree(q));
    CHECK(hipFree(d));
  }
  // The random walk.
  std::mt19937 rng(7);
  std::vector<std::pair<int*, int>> live;
  std::vector<hipStream_t> streams;
  for (int op = 0; op < ops; ++op) {
    const int what = int(rng() % 5);
    if (what <= 1 || live.empty()) {
      const int n = 1 + int(rng() % (1u << (rng() % 22)));
      int* p;
      CHECK(hipMalloc(&p, size_t(n) * 4));
      live.push_back({p, n});
    } else if (what == 2) {
      const size_t k = rng() % live.size();
      CHECK(hipFree(live[k].first));
      live.erase(live.begin() + long(k));
    } else if (what == 3) {
      if (streams.size() < 4 || rng() % 2) {
        hipStream_t s;
        CHECK(hipStreamCreate(&s));
        streams.push_back(s);
      } else {
        const size_t k = rng() % streams.size();
        CHECK(hipStreamDestroy(streams[k]));
        streams.erase(streams.begin() + long(k));
      }
    } else {
      const auto [p, n] = live[rng() % live.size()];
      hipStream_t s = streams.empty() ? nullptr : streams[rng() % streams.size()];
      fill_and_check(p, std::min(n, 4096), op, s, m);
    }
  }
  for (const auto& [p, n] : live) CHECK(hipFree(p));
  for (hipStream_t s : streams) CHECK(hipStreamDestroy(s));
  return m.finish();
}
