// The API boundary: OpenCL error codes as exceptions inside the platform, caught at every entry
// point so no C++ exception ever reaches the host program; handle validation; clGet*Info
// output; reference counting.
#pragma once

#include <cstring>
#include <exception>
#include <new>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "opencl/objects.h"

namespace strobe::opencl {

/// An OpenCL error code with an explanation (printed when STROBE_CL_DEBUG is set).
class ClError : public std::exception {
 public:
  ClError(cl_int code, std::string message) : code_(code), message_(std::move(message)) {}
  cl_int code() const { return code_; }
  const char* what() const noexcept override { return message_.c_str(); }

 private:
  cl_int code_;
  std::string message_;
};

/// Throws ClError.
[[noreturn]] void fail(cl_int code, std::string message);

/// The CL_* name of an error code ("CL_INVALID_VALUE").
const char* error_name(cl_int code);

/// Translates the exception in flight into an error code; `api` names the entry point for the
/// diagnostic. Unexpected exceptions are reported on stderr (they are bugs in strobe).
cl_int current_exception_code(const char* api) noexcept;

/// Runs `body` and returns CL_SUCCESS, or the error code of whatever it threw.
template <class F>
cl_int guarded(const char* api, F&& body) noexcept {
  try {
    body();
    return CL_SUCCESS;
  } catch (...) {
    return current_exception_code(api);
  }
}

/// Runs `body`, which returns the call's status, turning whatever it throws into an error code.
template <class F>
cl_int guarded_rc(const char* api, F&& body) noexcept {
  try {
    return body();
  } catch (...) {
    return current_exception_code(api);
  }
}

/// Runs a creating `body`, storing the outcome in `*errcode_ret` (if given); nullptr on error.
template <class F>
auto guarded_create(const char* api, cl_int* errcode_ret, F&& body) noexcept -> decltype(body()) {
  try {
    auto result = body();
    if (errcode_ret) *errcode_ret = CL_SUCCESS;
    return result;
  } catch (...) {
    cl_int code = current_exception_code(api);
    if (errcode_ret) *errcode_ret = code;
    return nullptr;
  }
}

/// The registry type of each handle type.
template <class T> constexpr ObjType type_of();
template <> constexpr ObjType type_of<_cl_platform_id>() { return ObjType::Platform; }
template <> constexpr ObjType type_of<_cl_device_id>() { return ObjType::Device; }
template <> constexpr ObjType type_of<_cl_context>() { return ObjType::Context; }
template <> constexpr ObjType type_of<_cl_command_queue>() { return ObjType::Queue; }
template <> constexpr ObjType type_of<_cl_mem>() { return ObjType::Mem; }
template <> constexpr ObjType type_of<_cl_program>() { return ObjType::Program; }
template <> constexpr ObjType type_of<_cl_kernel>() { return ObjType::Kernel; }
template <> constexpr ObjType type_of<_cl_event>() { return ObjType::Event; }

/// The spec's error for an invalid handle of each type.
template <class T> constexpr cl_int invalid_code();
template <> constexpr cl_int invalid_code<_cl_platform_id>() { return CL_INVALID_PLATFORM; }
template <> constexpr cl_int invalid_code<_cl_device_id>() { return CL_INVALID_DEVICE; }
template <> constexpr cl_int invalid_code<_cl_context>() { return CL_INVALID_CONTEXT; }
template <> constexpr cl_int invalid_code<_cl_command_queue>() { return CL_INVALID_COMMAND_QUEUE; }
template <> constexpr cl_int invalid_code<_cl_mem>() { return CL_INVALID_MEM_OBJECT; }
template <> constexpr cl_int invalid_code<_cl_program>() { return CL_INVALID_PROGRAM; }
template <> constexpr cl_int invalid_code<_cl_kernel>() { return CL_INVALID_KERNEL; }
template <> constexpr cl_int invalid_code<_cl_event>() { return CL_INVALID_EVENT; }

/// True if `h` is a live handle of its type.
template <class T>
bool valid(T* h) {
  return h && is_live(h, type_of<T>()) && h->magic == type_of<T>();
}

/// Returns `h` if it is a live handle of its type; throws the type's invalid-handle error.
template <class T>
T* check(T* h, const char* what = nullptr) {
  if (!valid(h)) fail(invalid_code<T>(), std::string(what ? what : "handle") + " is not a valid object of its type");
  return h;
}

/// Increments the reference count of a live handle.
template <class T>
void retain(T* h) {
  check(h)->refs.fetch_add(1);
}

/// Object-specific teardown once the last reference is gone.
void destroy(cl_context);
void destroy(cl_command_queue);
void destroy(cl_mem);
void destroy(cl_program);
void destroy(cl_kernel);
void destroy(cl_event);

/// Drops one reference; tears the object down when it was the last.
template <class T>
void release(T* h) {
  if (h->refs.fetch_sub(1) == 1) {
    unregister_object(h);
    destroy(h);
  }
}

/// Drops one reference of each handle (nullptr entries skipped).
template <class T>
void release_all(const std::vector<T*>& hs) {
  for (T* h : hs)
    if (h) release(h);
}

/// Writes a clGet*Info answer with the spec's size checks.
class InfoWriter {
 public:
  InfoWriter(size_t size, void* value, size_t* size_ret) : size_(size), value_(value), size_ret_(size_ret) {
    if (value && size == 0) fail(CL_INVALID_VALUE, "param_value_size is 0 but param_value is not NULL");
  }
  /// Raw bytes.
  void bytes(const void* p, size_t n) {
    if (value_) {
      if (size_ < n) fail(CL_INVALID_VALUE, "param_value_size " + std::to_string(size_) + " is smaller than the " +
                                                std::to_string(n) + " bytes of the answer");
      if (n) std::memcpy(value_, p, n);
    }
    if (size_ret_) *size_ret_ = n;
  }
  /// A scalar or handle.
  template <class T>
  void scalar(const T& v) {
    static_assert(std::is_trivially_copyable_v<T>);
    bytes(&v, sizeof v);
  }
  /// A NUL-terminated string.
  void str(std::string_view s) {
    std::string z(s);
    bytes(z.c_str(), z.size() + 1);
  }
  /// An array of scalars.
  template <class T>
  void array(const std::vector<T>& v) {
    bytes(v.data(), v.size() * sizeof(T));
  }

 private:
  size_t size_;
  void* value_;
  size_t* size_ret_;
};

}  // namespace strobe::opencl
