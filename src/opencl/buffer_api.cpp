// Buffer and sub-buffer entry points.
#include <cstring>

#include <fmt/core.h>

#include "common/error.h"
#include "opencl/api.h"
#include "opencl/device_limits.h"
#include "opencl/memory.h"
#include "opencl/platform.h"

using namespace strobe;
using namespace strobe::opencl;

namespace strobe::opencl {

uint8_t* host_bytes(cl_mem m, size_t offset) { return static_cast<uint8_t*>(m->host_ptr) + offset; }

void sync_to_device(cl_mem m, size_t offset, size_t n) {
  if (!m->uses_host_ptr() || n == 0) return;
  platform().device().copy_to_device(m->address + offset, host_bytes(m, offset), n);
}

void sync_to_host(cl_mem m, size_t offset, size_t n) {
  if (!m->uses_host_ptr() || n == 0) return;
  platform().device().copy_to_host(host_bytes(m, offset), m->address + offset, n);
}

void check_range(cl_mem m, size_t offset, size_t size, const char* what) {
  if (offset > m->size || size > m->size - offset)
    fail(CL_INVALID_VALUE, fmt::format("{}: bytes [{}, {}+{}) lie outside the {}-byte buffer", what, offset, offset,
                                       size, m->size));
}

void destroy(cl_mem m) {
  for (auto it = m->destructors.rbegin(); it != m->destructors.rend(); ++it) it->first(m, it->second);
  if (m->parent) {
    release(m->parent);
  } else {
    Platform& p = platform();
    std::lock_guard lock(p.device_mutex());
    p.device().free(m->address);
  }
  release(m->context);
  delete m;
}

}  // namespace strobe::opencl

namespace {

constexpr cl_mem_flags kAccess = CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY;
constexpr cl_mem_flags kHostPtr = CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR;
constexpr cl_mem_flags kHostAccess = CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS;

int bits(cl_mem_flags f) { return __builtin_popcountll(f); }

void check_flags(cl_mem_flags flags) {
  if (flags & ~(kAccess | kHostPtr | kHostAccess)) fail(CL_INVALID_VALUE, "unknown cl_mem_flags bits");
  if (bits(flags & kAccess) > 1) fail(CL_INVALID_VALUE, "more than one of READ_WRITE, WRITE_ONLY, READ_ONLY");
  if (bits(flags & kHostAccess) > 1)
    fail(CL_INVALID_VALUE, "more than one of HOST_WRITE_ONLY, HOST_READ_ONLY, HOST_NO_ACCESS");
  if ((flags & CL_MEM_USE_HOST_PTR) && (flags & (CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR)))
    fail(CL_INVALID_VALUE, "CL_MEM_USE_HOST_PTR excludes CL_MEM_ALLOC_HOST_PTR and CL_MEM_COPY_HOST_PTR");
}

cl_mem create_buffer(cl_context context, cl_mem_flags flags, size_t size, void* host_ptr) {
  check(context, "context");
  check_flags(flags);
  Platform& p = platform();
  if (size == 0) fail(CL_INVALID_BUFFER_SIZE, "size is 0");
  if (size > max_alloc_bytes(p.config()))
    fail(CL_INVALID_BUFFER_SIZE, fmt::format("{} bytes exceed CL_DEVICE_MAX_MEM_ALLOC_SIZE ({})", size,
                                             max_alloc_bytes(p.config())));
  const bool wants_ptr = flags & (CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR);
  if (wants_ptr && !host_ptr) fail(CL_INVALID_HOST_PTR, "USE_HOST_PTR or COPY_HOST_PTR without a host_ptr");
  if (!wants_ptr && host_ptr) fail(CL_INVALID_HOST_PTR, "host_ptr given without USE_HOST_PTR or COPY_HOST_PTR");
  if (!(flags & kAccess)) flags |= CL_MEM_READ_WRITE;

  auto m = std::make_unique<_cl_mem>();
  m->context = context;
  m->flags = flags;
  m->size = size;
  if (flags & CL_MEM_USE_HOST_PTR) m->host_ptr = host_ptr;
  {
    std::lock_guard lock(p.device_mutex());
    try {
      m->address = p.device().malloc(size);
    } catch (const strobe::InputError& e) {
      fail(CL_MEM_OBJECT_ALLOCATION_FAILURE, e.what());
    }
    if (wants_ptr) p.device().copy_to_device(m->address, host_ptr, size);
  }
  retain(context);
  register_object(m.get());
  return m.release();
}

cl_mem create_sub_buffer(cl_mem buffer, cl_mem_flags flags, cl_buffer_create_type type, const void* info) {
  check(buffer, "buffer");
  if (buffer->parent) fail(CL_INVALID_MEM_OBJECT, "buffer is itself a sub-buffer");
  check_flags(flags);
  if (flags & kHostPtr) fail(CL_INVALID_VALUE, "host pointer flags cannot be given to a sub-buffer");
  const cl_mem_flags pf = buffer->flags;
  if ((pf & CL_MEM_WRITE_ONLY) && (flags & (CL_MEM_READ_WRITE | CL_MEM_READ_ONLY)))
    fail(CL_INVALID_VALUE, "the parent is CL_MEM_WRITE_ONLY");
  if ((pf & CL_MEM_READ_ONLY) && (flags & (CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY)))
    fail(CL_INVALID_VALUE, "the parent is CL_MEM_READ_ONLY");
  if ((pf & CL_MEM_HOST_WRITE_ONLY) && (flags & CL_MEM_HOST_READ_ONLY))
    fail(CL_INVALID_VALUE, "the parent is CL_MEM_HOST_WRITE_ONLY");
  if ((pf & CL_MEM_HOST_READ_ONLY) && (flags & CL_MEM_HOST_WRITE_ONLY))
    fail(CL_INVALID_VALUE, "the parent is CL_MEM_HOST_READ_ONLY");
  if ((pf & CL_MEM_HOST_NO_ACCESS) && (flags & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_WRITE_ONLY)))
    fail(CL_INVALID_VALUE, "the parent is CL_MEM_HOST_NO_ACCESS");
  if (type != CL_BUFFER_CREATE_TYPE_REGION) fail(CL_INVALID_VALUE, "buffer_create_type must be CL_BUFFER_CREATE_TYPE_REGION");
  if (!info) fail(CL_INVALID_VALUE, "buffer_create_info is NULL");
  const auto* region = static_cast<const cl_buffer_region*>(info);
  if (region->size == 0) fail(CL_INVALID_BUFFER_SIZE, "the region's size is 0");
  check_range(buffer, region->origin, region->size, "sub-buffer region");
  if (region->origin % kBaseAddrAlignBytes)
    fail(CL_MISALIGNED_SUB_BUFFER_OFFSET,
         fmt::format("origin {} is not a multiple of CL_DEVICE_MEM_BASE_ADDR_ALIGN ({} bytes)", region->origin,
                     kBaseAddrAlignBytes));
  if (!(flags & kAccess)) flags |= pf & kAccess;
  if (!(flags & kHostAccess)) flags |= pf & kHostAccess;
  flags |= pf & kHostPtr;

  auto m = std::make_unique<_cl_mem>();
  m->context = buffer->context;
  m->flags = flags;
  m->size = region->size;
  m->address = buffer->address + region->origin;
  m->parent = buffer;
  m->origin = region->origin;
  if (buffer->host_ptr) m->host_ptr = static_cast<uint8_t*>(buffer->host_ptr) + region->origin;
  retain(buffer);
  retain(buffer->context);
  register_object(m.get());
  return m.release();
}

}  // namespace

cl_mem CL_API_CALL clCreateBuffer(cl_context context, cl_mem_flags flags, size_t size, void* host_ptr,
                                  cl_int* errcode_ret) {
  return guarded_create("clCreateBuffer", errcode_ret, [&] { return create_buffer(context, flags, size, host_ptr); });
}

cl_mem CL_API_CALL clCreateBufferWithProperties(cl_context context, const cl_mem_properties* properties,
                                                cl_mem_flags flags, size_t size, void* host_ptr, cl_int* errcode_ret) {
  return guarded_create("clCreateBufferWithProperties", errcode_ret, [&] {
    if (properties && properties[0] != 0) fail(CL_INVALID_PROPERTY, "no buffer properties are supported");
    return create_buffer(context, flags, size, host_ptr);
  });
}

cl_mem CL_API_CALL clCreateSubBuffer(cl_mem buffer, cl_mem_flags flags, cl_buffer_create_type buffer_create_type,
                                     const void* buffer_create_info, cl_int* errcode_ret) {
  return guarded_create("clCreateSubBuffer", errcode_ret,
                        [&] { return create_sub_buffer(buffer, flags, buffer_create_type, buffer_create_info); });
}

cl_int CL_API_CALL clRetainMemObject(cl_mem memobj) {
  return guarded("clRetainMemObject", [&] { retain(memobj); });
}

cl_int CL_API_CALL clReleaseMemObject(cl_mem memobj) {
  return guarded("clReleaseMemObject", [&] { release(check(memobj, "memobj")); });
}

cl_int CL_API_CALL clSetMemObjectDestructorCallback(cl_mem memobj, void(CL_CALLBACK* pfn_notify)(cl_mem, void*),
                                                    void* user_data) {
  return guarded("clSetMemObjectDestructorCallback", [&] {
    check(memobj, "memobj");
    if (!pfn_notify) fail(CL_INVALID_VALUE, "pfn_notify is NULL");
    std::lock_guard lock(memobj->root()->map_mu);
    memobj->destructors.emplace_back(pfn_notify, user_data);
  });
}

cl_int CL_API_CALL clGetMemObjectInfo(cl_mem memobj, cl_mem_info param_name, size_t param_value_size,
                                      void* param_value, size_t* param_value_size_ret) {
  return guarded("clGetMemObjectInfo", [&] {
    check(memobj, "memobj");
    InfoWriter out(param_value_size, param_value, param_value_size_ret);
    switch (param_name) {
      case CL_MEM_TYPE: out.scalar<cl_mem_object_type>(CL_MEM_OBJECT_BUFFER); break;
      case CL_MEM_FLAGS: out.scalar(memobj->flags); break;
      case CL_MEM_SIZE: out.scalar<size_t>(memobj->size); break;
      case CL_MEM_HOST_PTR: out.scalar(memobj->uses_host_ptr() ? memobj->host_ptr : nullptr); break;
      case CL_MEM_MAP_COUNT: {
        std::lock_guard lock(memobj->root()->map_mu);
        cl_uint n = 0;
        for (const auto& mp : memobj->root()->mappings) n += mp.owner == memobj;
        out.scalar(n);
        break;
      }
      case CL_MEM_REFERENCE_COUNT: out.scalar<cl_uint>(memobj->refs.load()); break;
      case CL_MEM_CONTEXT: out.scalar(memobj->context); break;
      case CL_MEM_ASSOCIATED_MEMOBJECT: out.scalar(memobj->parent); break;
      case CL_MEM_OFFSET: out.scalar<size_t>(memobj->origin); break;
      default: fail(CL_INVALID_VALUE, "unknown memory object query " + std::to_string(param_name));
    }
  });
}
