// Additions to strobe_cl.h for OpenCL C without the generic address space (-cl-std=CL1.2, and
// CL3.0 unless __opencl_c_generic_address_space is enabled).
//
// strobe_cl.h defines the atomic functions on generic pointers; without the generic address
// space an unqualified pointer is a private one, so the __global and __local forms such a
// kernel calls are defined here. The OpenCL platform force-includes this header after
// strobe_cl.h.
#ifndef STROBE_CL12_H
#define STROBE_CL12_H
#if __OPENCL_C_VERSION__ < 200 || (__OPENCL_C_VERSION__ >= 300 && !defined(__opencl_c_generic_address_space))

#define STROBE12_OVL __attribute__((overloadable, always_inline)) static inline

#define STROBE12_RMW_AS(NAME, BUILTIN, AS)                                                            \
  STROBE12_OVL int NAME(volatile AS int* p, int v) { return BUILTIN(p, v, __ATOMIC_RELAXED); }         \
  STROBE12_OVL uint NAME(volatile AS uint* p, uint v) { return BUILTIN(p, v, __ATOMIC_RELAXED); }      \
  STROBE12_OVL long NAME(volatile AS long* p, long v) { return BUILTIN(p, v, __ATOMIC_RELAXED); }      \
  STROBE12_OVL ulong NAME(volatile AS ulong* p, ulong v) { return BUILTIN(p, v, __ATOMIC_RELAXED); }
#define STROBE12_RMW(NAME, BUILTIN)          \
  STROBE12_RMW_AS(NAME, BUILTIN, __global)   \
  STROBE12_RMW_AS(NAME, BUILTIN, __local)

STROBE12_RMW(atomic_add, __atomic_fetch_add)
STROBE12_RMW(atomic_sub, __atomic_fetch_sub)
STROBE12_RMW(atomic_and, __atomic_fetch_and)
STROBE12_RMW(atomic_or, __atomic_fetch_or)
STROBE12_RMW(atomic_xor, __atomic_fetch_xor)
STROBE12_RMW(atomic_min, __atomic_fetch_min)
STROBE12_RMW(atomic_max, __atomic_fetch_max)
STROBE12_RMW(atom_add, __atomic_fetch_add)
STROBE12_RMW(atom_sub, __atomic_fetch_sub)
STROBE12_RMW(atom_and, __atomic_fetch_and)
STROBE12_RMW(atom_or, __atomic_fetch_or)
STROBE12_RMW(atom_xor, __atomic_fetch_xor)
STROBE12_RMW(atom_min, __atomic_fetch_min)
STROBE12_RMW(atom_max, __atomic_fetch_max)
#undef STROBE12_RMW
#undef STROBE12_RMW_AS

#define STROBE12_AS_FUNCS(AS)                                                                                \
  STROBE12_OVL int atomic_xchg(volatile AS int* p, int v) { return __atomic_exchange_n(p, v, __ATOMIC_RELAXED); } \
  STROBE12_OVL uint atomic_xchg(volatile AS uint* p, uint v) { return __atomic_exchange_n(p, v, __ATOMIC_RELAXED); } \
  STROBE12_OVL float atomic_xchg(volatile AS float* p, float v) {                                           \
    return __builtin_astype(__atomic_exchange_n((volatile AS uint*)p, __builtin_astype(v, uint), __ATOMIC_RELAXED), float); \
  }                                                                                                         \
  STROBE12_OVL long atom_xchg(volatile AS long* p, long v) { return __atomic_exchange_n(p, v, __ATOMIC_RELAXED); } \
  STROBE12_OVL ulong atom_xchg(volatile AS ulong* p, ulong v) { return __atomic_exchange_n(p, v, __ATOMIC_RELAXED); } \
  STROBE12_OVL int atomic_inc(volatile AS int* p) { return atomic_add(p, 1); }                              \
  STROBE12_OVL uint atomic_inc(volatile AS uint* p) { return atomic_add(p, 1u); }                           \
  STROBE12_OVL int atomic_dec(volatile AS int* p) { return atomic_sub(p, 1); }                              \
  STROBE12_OVL uint atomic_dec(volatile AS uint* p) { return atomic_sub(p, 1u); }                           \
  STROBE12_OVL long atom_inc(volatile AS long* p) { return atom_add(p, 1l); }                               \
  STROBE12_OVL ulong atom_inc(volatile AS ulong* p) { return atom_add(p, 1ul); }                            \
  STROBE12_OVL long atom_dec(volatile AS long* p) { return atom_sub(p, 1l); }                               \
  STROBE12_OVL ulong atom_dec(volatile AS ulong* p) { return atom_sub(p, 1ul); }
STROBE12_AS_FUNCS(__global)
STROBE12_AS_FUNCS(__local)
#undef STROBE12_AS_FUNCS

#define STROBE12_CAS(T, AS)                                                                \
  STROBE12_OVL T atomic_cmpxchg(volatile AS T* p, T cmp, T v) {                             \
    __atomic_compare_exchange_n(p, &cmp, v, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED);     \
    return cmp;                                                                             \
  }                                                                                         \
  STROBE12_OVL T atom_cmpxchg(volatile AS T* p, T cmp, T v) { return atomic_cmpxchg(p, cmp, v); }
STROBE12_CAS(int, __global)
STROBE12_CAS(uint, __global)
STROBE12_CAS(long, __global)
STROBE12_CAS(ulong, __global)
STROBE12_CAS(int, __local)
STROBE12_CAS(uint, __local)
STROBE12_CAS(long, __local)
STROBE12_CAS(ulong, __local)
#undef STROBE12_CAS

#undef STROBE12_OVL
#endif  // no generic address space
#endif  // STROBE_CL12_H
