// strobe's OpenCL C builtins for gfx803 without ROCm device libraries.
//
// clang is invoked with -nogpulib, so every OpenCL library function would stay an
// unresolved call. This header maps the ones strobe's kernels use onto clang builtins
// that lower to native GCN3 instructions. It is force-included by the kernel build rule.
#ifndef STROBE_CL_H
#define STROBE_CL_H

#define STROBE_OVL __attribute__((overloadable, always_inline)) static inline
#define STROBE_INL __attribute__((always_inline)) static inline

// ----------------------------------------------------------------------------- work-items
// The AQL dispatch packet (hsa_kernel_dispatch_packet_t) holds the work-group and grid sizes.
typedef struct {
  ushort header, setup, wg_x, wg_y, wg_z, reserved0;
  uint grid_x, grid_y, grid_z;
} strobe_dispatch_packet;

STROBE_INL __constant strobe_dispatch_packet* strobe_packet(void) {
  return (__constant strobe_dispatch_packet*)__builtin_amdgcn_dispatch_ptr();
}

// Hidden kernel arguments: v4 (clang < 17) puts the global offsets first; v5 places them at 40.
#if __clang_major__ >= 17
#define STROBE_GLOBAL_OFFSET_BASE 40
#else
#define STROBE_GLOBAL_OFFSET_BASE 0
#endif

STROBE_INL size_t get_global_offset(uint d) {
  if (d > 2) return 0;
  __constant char* p = (__constant char*)__builtin_amdgcn_implicitarg_ptr();
  return ((__constant ulong*)(p + STROBE_GLOBAL_OFFSET_BASE))[d];
}

STROBE_INL uint get_work_dim(void) {
  return ((strobe_packet()->setup) & 3u);
}

STROBE_INL size_t get_local_id(uint d) {
  switch (d) {
    case 0: return __builtin_amdgcn_workitem_id_x();
    case 1: return __builtin_amdgcn_workitem_id_y();
    case 2: return __builtin_amdgcn_workitem_id_z();
    default: return 0;
  }
}

STROBE_INL size_t get_group_id(uint d) {
  switch (d) {
    case 0: return __builtin_amdgcn_workgroup_id_x();
    case 1: return __builtin_amdgcn_workgroup_id_y();
    case 2: return __builtin_amdgcn_workgroup_id_z();
    default: return 0;
  }
}

STROBE_INL size_t get_enqueued_local_size(uint d) {
  __constant strobe_dispatch_packet* p = strobe_packet();
  switch (d) {
    case 0: return p->wg_x;
    case 1: return p->wg_y;
    case 2: return p->wg_z;
    default: return 1;
  }
}

STROBE_INL size_t get_global_size(uint d) {
  __constant strobe_dispatch_packet* p = strobe_packet();
  switch (d) {
    case 0: return p->grid_x;
    case 1: return p->grid_y;
    case 2: return p->grid_z;
    default: return 1;
  }
}

// The size of this work-group: smaller than the enqueued size for the partial group at the edge.
STROBE_INL size_t get_local_size(uint d) {
  size_t wg = get_enqueued_local_size(d);
  size_t rest = get_global_size(d) - get_group_id(d) * wg;
  return rest < wg ? rest : wg;
}

STROBE_INL size_t get_num_groups(uint d) {
  size_t wg = get_enqueued_local_size(d);
  return (get_global_size(d) + wg - 1) / wg;
}

STROBE_INL size_t get_global_id(uint d) {
  return get_group_id(d) * get_enqueued_local_size(d) + get_local_id(d) + get_global_offset(d);
}

STROBE_INL size_t get_local_linear_id(void) {
  return (get_local_id(2) * get_local_size(1) + get_local_id(1)) * get_local_size(0) + get_local_id(0);
}

STROBE_INL size_t get_global_linear_id(void) {
  return ((get_global_id(2) - get_global_offset(2)) * get_global_size(1) +
          (get_global_id(1) - get_global_offset(1))) * get_global_size(0) +
         (get_global_id(0) - get_global_offset(0));
}

// ----------------------------------------------------------------------------- synchronisation
STROBE_INL void mem_fence(uint flags) {
  __builtin_amdgcn_fence(__ATOMIC_SEQ_CST, "workgroup");
}
STROBE_INL void read_mem_fence(uint flags) { mem_fence(flags); }
STROBE_INL void write_mem_fence(uint flags) { mem_fence(flags); }

STROBE_INL void barrier(uint flags) {
  __builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup");
  __builtin_amdgcn_s_barrier();
  __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup");
}
STROBE_INL void work_group_barrier(uint flags) { barrier(flags); }

// ----------------------------------------------------------------------------- atomics (OpenCL 1.x names)
// Generic pointers accept both __global and __local arguments under OpenCL C 2.0.
#define STROBE_ATOMIC_RMW(NAME, BUILTIN)                                                   \
  STROBE_OVL int NAME(volatile int* p, int v) { return BUILTIN(p, v, __ATOMIC_RELAXED); }   \
  STROBE_OVL uint NAME(volatile uint* p, uint v) { return BUILTIN(p, v, __ATOMIC_RELAXED); } \
  STROBE_OVL long NAME(volatile long* p, long v) { return BUILTIN(p, v, __ATOMIC_RELAXED); } \
  STROBE_OVL ulong NAME(volatile ulong* p, ulong v) { return BUILTIN(p, v, __ATOMIC_RELAXED); }

STROBE_ATOMIC_RMW(atomic_add, __atomic_fetch_add)
STROBE_ATOMIC_RMW(atomic_sub, __atomic_fetch_sub)
STROBE_ATOMIC_RMW(atomic_and, __atomic_fetch_and)
STROBE_ATOMIC_RMW(atomic_or, __atomic_fetch_or)
STROBE_ATOMIC_RMW(atomic_xor, __atomic_fetch_xor)
STROBE_ATOMIC_RMW(atomic_min, __atomic_fetch_min)
STROBE_ATOMIC_RMW(atomic_max, __atomic_fetch_max)
STROBE_ATOMIC_RMW(atom_add, __atomic_fetch_add)
STROBE_ATOMIC_RMW(atom_sub, __atomic_fetch_sub)
STROBE_ATOMIC_RMW(atom_min, __atomic_fetch_min)
STROBE_ATOMIC_RMW(atom_max, __atomic_fetch_max)
#undef STROBE_ATOMIC_RMW

STROBE_OVL int atomic_xchg(volatile int* p, int v) { return __atomic_exchange_n(p, v, __ATOMIC_RELAXED); }
STROBE_OVL uint atomic_xchg(volatile uint* p, uint v) { return __atomic_exchange_n(p, v, __ATOMIC_RELAXED); }
STROBE_OVL float atomic_xchg(volatile float* p, float v) {
  return __builtin_astype(__atomic_exchange_n((volatile uint*)p, __builtin_astype(v, uint), __ATOMIC_RELAXED), float);
}
STROBE_OVL int atomic_inc(volatile int* p) { return atomic_add(p, 1); }
STROBE_OVL uint atomic_inc(volatile uint* p) { return atomic_add(p, 1u); }
STROBE_OVL int atomic_dec(volatile int* p) { return atomic_sub(p, 1); }
STROBE_OVL uint atomic_dec(volatile uint* p) { return atomic_sub(p, 1u); }

#define STROBE_ATOMIC_CAS(T)                                                                 \
  STROBE_OVL T atomic_cmpxchg(volatile T* p, T cmp, T v) {                                  \
    __atomic_compare_exchange_n(p, &cmp, v, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED);     \
    return cmp;                                                                             \
  }
STROBE_ATOMIC_CAS(int)
STROBE_ATOMIC_CAS(uint)
STROBE_ATOMIC_CAS(long)
STROBE_ATOMIC_CAS(ulong)
#undef STROBE_ATOMIC_CAS

// Float add through a compare-and-swap loop: gfx803 has no native float atomics.
STROBE_OVL float atomic_add(volatile float* p, float v) {
  volatile uint* u = (volatile uint*)p;
  uint old = *u, seen;
  do {
    seen = old;
    old = atomic_cmpxchg(u, seen, __builtin_astype(__builtin_astype(seen, float) + v, uint));
  } while (old != seen);
  return __builtin_astype(old, float);
}

// ----------------------------------------------------------------------------- integer helpers
#define STROBE_MINMAX(T)                                                   \
  STROBE_OVL T min(T a, T b) { return a < b ? a : b; }                     \
  STROBE_OVL T max(T a, T b) { return a > b ? a : b; }                     \
  STROBE_OVL T clamp(T x, T lo, T hi) { return min(max(x, lo), hi); }
STROBE_MINMAX(char)
STROBE_MINMAX(uchar)
STROBE_MINMAX(short)
STROBE_MINMAX(ushort)
STROBE_MINMAX(int)
STROBE_MINMAX(uint)
STROBE_MINMAX(long)
STROBE_MINMAX(ulong)
#undef STROBE_MINMAX

STROBE_OVL int abs_diff(int a, int b) { return a > b ? a - b : b - a; }
STROBE_OVL uint abs(int x) { return (uint)(x < 0 ? -x : x); }
STROBE_OVL int mul24(int a, int b) { return ((a << 8) >> 8) * ((b << 8) >> 8); }
STROBE_OVL uint mul24(uint a, uint b) { return (a & 0xffffffu) * (b & 0xffffffu); }
STROBE_OVL int mad24(int a, int b, int c) { return mul24(a, b) + c; }
STROBE_OVL uint mad24(uint a, uint b, uint c) { return mul24(a, b) + c; }
STROBE_OVL uint popcount(uint x) { return __builtin_popcount(x); }
STROBE_OVL uint clz(uint x) { return x ? __builtin_clz(x) : 32u; }
STROBE_OVL uint rotate(uint x, uint n) { n &= 31u; return n ? (x << n) | (x >> (32u - n)) : x; }
STROBE_OVL uint mul_hi(uint a, uint b) { return (uint)(((ulong)a * b) >> 32); }
STROBE_OVL int mul_hi(int a, int b) { return (int)(((long)a * b) >> 32); }

// ----------------------------------------------------------------------------- float math
STROBE_OVL float sqrt(float x) { return __builtin_sqrtf(x); }
STROBE_OVL double sqrt(double x) { return __builtin_sqrt(x); }
STROBE_OVL float fabs(float x) { return __builtin_fabsf(x); }
STROBE_OVL double fabs(double x) { return __builtin_fabs(x); }
STROBE_OVL float fma(float a, float b, float c) { return __builtin_fmaf(a, b, c); }
STROBE_OVL double fma(double a, double b, double c) { return __builtin_fma(a, b, c); }
STROBE_OVL float mad(float a, float b, float c) { return a * b + c; }
STROBE_OVL double mad(double a, double b, double c) { return a * b + c; }
STROBE_OVL float fmin(float a, float b) { return __builtin_fminf(a, b); }
STROBE_OVL float fmax(float a, float b) { return __builtin_fmaxf(a, b); }
STROBE_OVL double fmin(double a, double b) { return __builtin_fmin(a, b); }
STROBE_OVL double fmax(double a, double b) { return __builtin_fmax(a, b); }
STROBE_OVL float min(float a, float b) { return __builtin_fminf(a, b); }
STROBE_OVL float max(float a, float b) { return __builtin_fmaxf(a, b); }
STROBE_OVL float clamp(float x, float lo, float hi) { return fmin(fmax(x, lo), hi); }
STROBE_OVL float floor(float x) { return __builtin_floorf(x); }
STROBE_OVL double floor(double x) { return __builtin_floor(x); }
STROBE_OVL float ceil(float x) { return __builtin_ceilf(x); }
STROBE_OVL float trunc(float x) { return __builtin_truncf(x); }
STROBE_OVL double trunc(double x) { return __builtin_trunc(x); }
STROBE_OVL float rint(float x) { return __builtin_rintf(x); }
STROBE_OVL float round(float x) { return __builtin_truncf(x + __builtin_copysignf(0.5f - 0x1p-25f, x)); }
STROBE_OVL float fmod(float a, float b) { return __builtin_fmodf(a, b); }
STROBE_OVL float copysign(float a, float b) { return __builtin_copysignf(a, b); }
STROBE_OVL float native_recip(float x) { return __builtin_amdgcn_rcpf(x); }
STROBE_OVL float native_rsqrt(float x) { return __builtin_amdgcn_rsqf(x); }
STROBE_OVL float rsqrt(float x) { return 1.0f / __builtin_sqrtf(x); }
STROBE_OVL float native_sqrt(float x) { return __builtin_sqrtf(x); }
STROBE_OVL float native_divide(float a, float b) { return a * __builtin_amdgcn_rcpf(b); }

// Transcendentals: approximations through the hardware's exp2/log2/sin/cos (sin/cos take turns).
STROBE_OVL float native_exp2(float x) { return __builtin_exp2f(x); }
STROBE_OVL float native_log2(float x) { return __builtin_log2f(x); }
STROBE_OVL float exp2(float x) { return native_exp2(x); }
STROBE_OVL float log2(float x) { return native_log2(x); }
STROBE_OVL float exp(float x) { return native_exp2(x * M_LOG2E_F); }
STROBE_OVL float native_exp(float x) { return exp(x); }
STROBE_OVL float log(float x) { return native_log2(x) * M_LN2_F; }
STROBE_OVL float native_log(float x) { return log(x); }
STROBE_OVL float native_sin(float x) { return __builtin_amdgcn_sinf(x * (0.5f / M_PI_F)); }
STROBE_OVL float native_cos(float x) { return __builtin_amdgcn_cosf(x * (0.5f / M_PI_F)); }
STROBE_OVL float sin(float x) { return native_sin(x); }
STROBE_OVL float cos(float x) { return native_cos(x); }
STROBE_OVL float pow(float x, float y) { return native_exp2(y * native_log2(x)); }
STROBE_OVL float powr(float x, float y) { return pow(x, y); }
STROBE_OVL float tanh(float x) {
  float e = exp(-2.0f * fabs(x));
  return copysign((1.0f - e) / (1.0f + e), x);
}

#define STROBE_VEC_UNARY(F)                                                       \
  STROBE_OVL float2 F(float2 v) { return (float2)(F(v.x), F(v.y)); }              \
  STROBE_OVL float4 F(float4 v) { return (float4)(F(v.x), F(v.y), F(v.z), F(v.w)); }
STROBE_VEC_UNARY(sqrt)
STROBE_VEC_UNARY(fabs)
STROBE_VEC_UNARY(floor)
STROBE_VEC_UNARY(exp)
STROBE_VEC_UNARY(log)
#undef STROBE_VEC_UNARY

STROBE_OVL float dot(float2 a, float2 b) { return a.x * b.x + a.y * b.y; }
STROBE_OVL float dot(float4 a, float4 b) { return a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w; }
STROBE_OVL float4 fmax(float4 a, float4 b) {
  return (float4)(fmax(a.x, b.x), fmax(a.y, b.y), fmax(a.z, b.z), fmax(a.w, b.w));
}
STROBE_OVL float4 fmin(float4 a, float4 b) {
  return (float4)(fmin(a.x, b.x), fmin(a.y, b.y), fmin(a.z, b.z), fmin(a.w, b.w));
}

#undef STROBE_OVL
#undef STROBE_INL
#endif  // STROBE_CL_H
