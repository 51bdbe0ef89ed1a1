// Error translation at the API boundary and the registry of live handles.
#include "opencl/api.h"

#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <unordered_map>

#include "common/error.h"

namespace strobe::opencl {

namespace {

bool debug_enabled() {
  static const bool on = [] {
    const char* v = std::getenv("STROBE_CL_DEBUG");
    return v && *v && std::string_view(v) != "0";
  }();
  return on;
}

struct Registry {
  std::mutex mu;
  std::unordered_map<const void*, ObjType> live;
};

Registry& registry() {
  static Registry* r = new Registry;  // never destroyed: handles may be used during exit
  return *r;
}

}  // namespace

Object::Object(ObjType t) : dispatch(dispatch_table()), magic(t) {}

void register_object(Object* o) {
  Registry& r = registry();
  std::lock_guard lock(r.mu);
  r.live[o] = o->magic;
}

void unregister_object(Object* o) {
  Registry& r = registry();
  std::lock_guard lock(r.mu);
  r.live.erase(o);
}

bool is_live(const void* p, ObjType t) {
  Registry& r = registry();
  std::lock_guard lock(r.mu);
  auto it = r.live.find(p);
  return it != r.live.end() && it->second == t;
}

void fail(cl_int code, std::string message) { throw ClError(code, std::move(message)); }

cl_int current_exception_code(const char* api) noexcept {
  try {
    throw;
  } catch (const ClError& e) {
    if (debug_enabled()) std::fprintf(stderr, "strobe: %s: %s: %s\n", api, error_name(e.code()), e.what());
    return e.code();
  } catch (const std::bad_alloc&) {
    if (debug_enabled()) std::fprintf(stderr, "strobe: %s: out of host memory\n", api);
    return CL_OUT_OF_HOST_MEMORY;
  } catch (const strobe::Error& e) {
    // Simulator errors are translated where they can happen; one reaching here still must
    // not escape into the host program.
    std::fprintf(stderr, "strobe: %s: %s\n", api, e.what());
    return CL_OUT_OF_RESOURCES;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "strobe: %s: internal error: %s\n", api, e.what());
    return CL_OUT_OF_RESOURCES;
  } catch (...) {
    std::fprintf(stderr, "strobe: %s: internal error: unknown exception\n", api);
    return CL_OUT_OF_RESOURCES;
  }
}

const char* error_name(cl_int code) {
  switch (code) {
#define STROBE_CL_ERROR(name) case name: return #name;
    STROBE_CL_ERROR(CL_SUCCESS)
    STROBE_CL_ERROR(CL_DEVICE_NOT_FOUND)
    STROBE_CL_ERROR(CL_DEVICE_NOT_AVAILABLE)
    STROBE_CL_ERROR(CL_COMPILER_NOT_AVAILABLE)
    STROBE_CL_ERROR(CL_MEM_OBJECT_ALLOCATION_FAILURE)
    STROBE_CL_ERROR(CL_OUT_OF_RESOURCES)
    STROBE_CL_ERROR(CL_OUT_OF_HOST_MEMORY)
    STROBE_CL_ERROR(CL_PROFILING_INFO_NOT_AVAILABLE)
    STROBE_CL_ERROR(CL_MEM_COPY_OVERLAP)
    STROBE_CL_ERROR(CL_IMAGE_FORMAT_MISMATCH)
    STROBE_CL_ERROR(CL_IMAGE_FORMAT_NOT_SUPPORTED)
    STROBE_CL_ERROR(CL_BUILD_PROGRAM_FAILURE)
    STROBE_CL_ERROR(CL_MAP_FAILURE)
    STROBE_CL_ERROR(CL_MISALIGNED_SUB_BUFFER_OFFSET)
    STROBE_CL_ERROR(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST)
    STROBE_CL_ERROR(CL_COMPILE_PROGRAM_FAILURE)
    STROBE_CL_ERROR(CL_LINKER_NOT_AVAILABLE)
    STROBE_CL_ERROR(CL_LINK_PROGRAM_FAILURE)
    STROBE_CL_ERROR(CL_DEVICE_PARTITION_FAILED)
    STROBE_CL_ERROR(CL_KERNEL_ARG_INFO_NOT_AVAILABLE)
    STROBE_CL_ERROR(CL_INVALID_VALUE)
    STROBE_CL_ERROR(CL_INVALID_DEVICE_TYPE)
    STROBE_CL_ERROR(CL_INVALID_PLATFORM)
    STROBE_CL_ERROR(CL_INVALID_DEVICE)
    STROBE_CL_ERROR(CL_INVALID_CONTEXT)
    STROBE_CL_ERROR(CL_INVALID_QUEUE_PROPERTIES)
    STROBE_CL_ERROR(CL_INVALID_COMMAND_QUEUE)
    STROBE_CL_ERROR(CL_INVALID_HOST_PTR)
    STROBE_CL_ERROR(CL_INVALID_MEM_OBJECT)
    STROBE_CL_ERROR(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR)
    STROBE_CL_ERROR(CL_INVALID_IMAGE_SIZE)
    STROBE_CL_ERROR(CL_INVALID_SAMPLER)
    STROBE_CL_ERROR(CL_INVALID_BINARY)
    STROBE_CL_ERROR(CL_INVALID_BUILD_OPTIONS)
    STROBE_CL_ERROR(CL_INVALID_PROGRAM)
    STROBE_CL_ERROR(CL_INVALID_PROGRAM_EXECUTABLE)
    STROBE_CL_ERROR(CL_INVALID_KERNEL_NAME)
    STROBE_CL_ERROR(CL_INVALID_KERNEL_DEFINITION)
    STROBE_CL_ERROR(CL_INVALID_KERNEL)
    STROBE_CL_ERROR(CL_INVALID_ARG_INDEX)
    STROBE_CL_ERROR(CL_INVALID_ARG_VALUE)
    STROBE_CL_ERROR(CL_INVALID_ARG_SIZE)
    STROBE_CL_ERROR(CL_INVALID_KERNEL_ARGS)
    STROBE_CL_ERROR(CL_INVALID_WORK_DIMENSION)
    STROBE_CL_ERROR(CL_INVALID_WORK_GROUP_SIZE)
    STROBE_CL_ERROR(CL_INVALID_WORK_ITEM_SIZE)
    STROBE_CL_ERROR(CL_INVALID_GLOBAL_OFFSET)
    STROBE_CL_ERROR(CL_INVALID_EVENT_WAIT_LIST)
    STROBE_CL_ERROR(CL_INVALID_EVENT)
    STROBE_CL_ERROR(CL_INVALID_OPERATION)
    STROBE_CL_ERROR(CL_INVALID_GL_OBJECT)
    STROBE_CL_ERROR(CL_INVALID_BUFFER_SIZE)
    STROBE_CL_ERROR(CL_INVALID_MIP_LEVEL)
    STROBE_CL_ERROR(CL_INVALID_GLOBAL_WORK_SIZE)
    STROBE_CL_ERROR(CL_INVALID_PROPERTY)
    STROBE_CL_ERROR(CL_INVALID_IMAGE_DESCRIPTOR)
    STROBE_CL_ERROR(CL_INVALID_COMPILER_OPTIONS)
    STROBE_CL_ERROR(CL_INVALID_LINKER_OPTIONS)
    STROBE_CL_ERROR(CL_INVALID_DEVICE_PARTITION_COUNT)
    STROBE_CL_ERROR(CL_PLATFORM_NOT_FOUND_KHR)
#undef STROBE_CL_ERROR
    default: return "CL_<unknown error>";
  }
}

}  // namespace strobe::opencl
