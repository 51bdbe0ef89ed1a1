// Context entry points.
#include <vector>

#include "opencl/api.h"
#include "opencl/platform.h"

using namespace strobe;
using namespace strobe::opencl;

namespace {

using Notify = void(CL_CALLBACK*)(const char*, const void*, size_t, void*);

cl_context make_context(const cl_context_properties* properties, Notify notify, void* user_data) {
  Platform& p = platform();
  if (!notify && user_data) fail(CL_INVALID_VALUE, "user_data given without pfn_notify");
  auto ctx = std::make_unique<_cl_context>();
  if (properties) {
    bool seen_platform = false, seen_sync = false;
    for (const cl_context_properties* q = properties; *q; q += 2) {
      switch (q[0]) {
        case CL_CONTEXT_PLATFORM:
          if (seen_platform) fail(CL_INVALID_PROPERTY, "CL_CONTEXT_PLATFORM given twice");
          seen_platform = true;
          if (reinterpret_cast<cl_platform_id>(q[1]) != p.platform_id())
            fail(CL_INVALID_PLATFORM, "CL_CONTEXT_PLATFORM names another platform");
          break;
        case CL_CONTEXT_INTEROP_USER_SYNC:
          if (seen_sync) fail(CL_INVALID_PROPERTY, "CL_CONTEXT_INTEROP_USER_SYNC given twice");
          seen_sync = true;
          break;
        default: fail(CL_INVALID_PROPERTY, "unsupported context property " + std::to_string(q[0]));
      }
      ctx->properties.push_back(q[0]);
      ctx->properties.push_back(q[1]);
    }
    ctx->properties.push_back(0);
  }
  ctx->notify = notify;
  ctx->notify_data = user_data;
  register_object(ctx.get());
  return ctx.release();
}

}  // namespace

namespace strobe::opencl {

void destroy(cl_context c) { delete c; }

}  // namespace strobe::opencl

cl_context CL_API_CALL clCreateContext(const cl_context_properties* properties, cl_uint num_devices,
                                       const cl_device_id* devices, Notify pfn_notify, void* user_data,
                                       cl_int* errcode_ret) {
  return guarded_create("clCreateContext", errcode_ret, [&]() -> cl_context {
    Platform& p = platform();
    if (num_devices == 0 || !devices) fail(CL_INVALID_VALUE, "no devices given");
    for (cl_uint i = 0; i < num_devices; ++i)
      if (devices[i] != p.device_id()) fail(CL_INVALID_DEVICE, "devices[" + std::to_string(i) + "] is not a strobe device");
    return make_context(properties, pfn_notify, user_data);
  });
}

cl_context CL_API_CALL clCreateContextFromType(const cl_context_properties* properties, cl_device_type device_type,
                                               Notify pfn_notify, void* user_data, cl_int* errcode_ret) {
  return guarded_create("clCreateContextFromType", errcode_ret, [&]() -> cl_context {
    Platform& p = platform();
    cl_uint n = 0;
    cl_int rc = clGetDeviceIDs(p.platform_id(), device_type, 0, nullptr, &n);
    if (rc != CL_SUCCESS) fail(rc, "no device of the requested type");
    return make_context(properties, pfn_notify, user_data);
  });
}

cl_int CL_API_CALL clRetainContext(cl_context context) {
  return guarded("clRetainContext", [&] { retain(context); });
}

cl_int CL_API_CALL clReleaseContext(cl_context context) {
  return guarded("clReleaseContext", [&] { release(check(context, "context")); });
}

cl_int CL_API_CALL clGetContextInfo(cl_context context, cl_context_info param_name, size_t param_value_size,
                                    void* param_value, size_t* param_value_size_ret) {
  return guarded("clGetContextInfo", [&] {
    check(context, "context");
    InfoWriter out(param_value_size, param_value, param_value_size_ret);
    switch (param_name) {
      case CL_CONTEXT_REFERENCE_COUNT: out.scalar<cl_uint>(context->refs.load()); break;
      case CL_CONTEXT_NUM_DEVICES: out.scalar<cl_uint>(1); break;
      case CL_CONTEXT_DEVICES: out.scalar(platform().device_id()); break;
      case CL_CONTEXT_PROPERTIES: out.array(context->properties); break;
      default: fail(CL_INVALID_VALUE, "unknown context query " + std::to_string(param_name));
    }
  });
}
