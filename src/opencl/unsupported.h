// Entry points for features strobe does not offer (images, samplers, pipes, SVM, device-side
// queues, GL/EGL sharing, sub-groups): each returns the spec's error for a device without the
// feature, so the loader never calls through an empty dispatch slot.
#pragma once

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <tuple>
#include <type_traits>

#include "opencl/api.h"

namespace strobe::opencl {

/// A string usable as a template argument (the entry point's name).
template <size_t N>
struct ApiName {
  constexpr ApiName(const char (&s)[N]) { std::copy_n(s, N, text); }
  char text[N];
};

/// Prints why an unsupported entry point failed, when STROBE_CL_DEBUG is set.
void note_unsupported(const char* api, cl_int code);

template <class F>
struct Unsupported;

/// Unsupported<fn-pointer-type>::fn<name, code>: a function of exactly that signature that
/// returns `code` (or stores it in a trailing errcode_ret and returns a null handle).
template <class R, class... A>
struct Unsupported<R(CL_API_CALL*)(A...)> {
  template <ApiName Name, cl_int Code>
  static R CL_API_CALL fn(A... args) {
    note_unsupported(Name.text, Code);
    if constexpr (sizeof...(A) > 0) {
      using Last = std::tuple_element_t<sizeof...(A) - 1, std::tuple<A...>>;
      if constexpr (std::is_same_v<Last, cl_int*>) {
        if (Last err = std::get<sizeof...(A) - 1>(std::forward_as_tuple(args...))) *err = Code;
      }
    }
    if constexpr (std::is_same_v<R, cl_int>) return Code;
    else if constexpr (!std::is_void_v<R>) return R{};
  }
};

}  // namespace strobe::opencl
