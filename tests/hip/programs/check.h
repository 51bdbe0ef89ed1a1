// Shared helpers of the HIP test programs: every HIP call is checked, and the program prints
// PASS or FAIL with the first mismatch, exiting non-zero on failure.
#pragma once

#include <hip/hip_runtime.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>

#define CHECK(call)                                                                          \
  do {                                                                                       \
    hipError_t e_ = (call);                                                                  \
    if (e_ != hipSuccess) {                                                                  \
      std::printf("FAIL: %s: %s (%d)\n", #call, hipGetErrorString(e_), static_cast<int>(e_)); \
      std::exit(1);                                                                          \
    }                                                                                        \
  } while (0)

/// Counts mismatches and remembers the first.
struct Mismatches {
  int count = 0;
  void expect(bool ok, const char* what, long index, double got, double want) {
    if (!ok && count++ == 0) std::printf("mismatch in %s at %ld: got %g, want %g\n", what, index, got, want);
  }
  int finish() {
    std::printf("%s (%d mismatches)\n", count ? "FAIL" : "PASS", count);
    return count ? 1 : 0;
  }
};
