// Command queue entry points, flush/finish, markers and barriers.
#include <vector>

#include "opencl/api.h"
#include "opencl/enqueue.h"
#include "opencl/platform.h"

using namespace strobe;
using namespace strobe::opencl;

namespace strobe::opencl {

void destroy(cl_command_queue q) {
  platform().scheduler().forget_queue(q);
  release(q->context);
  delete q;
}

void check_queue(cl_command_queue q, cl_context obj_ctx) {
  check(q, "command_queue");
  if (obj_ctx && obj_ctx != q->context) fail(CL_INVALID_CONTEXT, "the object belongs to another context than the queue");
}

cl_int enqueue(cl_command_queue q, cl_command_type type, cl_uint num_wait, const cl_event* wait, cl_event* out_event,
               bool blocking, Work work, std::vector<Object*> holds, Ordering ordering) {
  check(q, "command_queue");
  Scheduler& s = platform().scheduler();
  cl_event e = s.submit(q, type, num_wait, wait, std::move(work), std::move(holds), ordering);
  cl_int rc = CL_SUCCESS;
  if (blocking) rc = s.wait({&e, 1});
  if (out_event) {
    *out_event = e;
  } else {
    release(e);
  }
  return rc;
}

}  // namespace strobe::opencl

namespace {

constexpr cl_command_queue_properties kQueueProps = CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE;

cl_command_queue make_queue(cl_context context, cl_device_id device, cl_command_queue_properties props) {
  check(context, "context");
  if (device != platform().device_id()) check(device, "device");
  if (props & ~(kQueueProps | CL_QUEUE_ON_DEVICE | CL_QUEUE_ON_DEVICE_DEFAULT))
    fail(CL_INVALID_VALUE, "unknown command queue property bits");
  if (props & (CL_QUEUE_ON_DEVICE | CL_QUEUE_ON_DEVICE_DEFAULT))
    fail(CL_INVALID_QUEUE_PROPERTIES, "device-side queues are not supported");
  auto q = std::make_unique<_cl_command_queue>();
  q->context = context;
  q->properties = props;
  retain(context);
  register_object(q.get());
  return q.release();
}

}  // namespace

cl_command_queue CL_API_CALL clCreateCommandQueue(cl_context context, cl_device_id device,
                                                  cl_command_queue_properties properties, cl_int* errcode_ret) {
  return guarded_create("clCreateCommandQueue", errcode_ret, [&] { return make_queue(context, device, properties); });
}

cl_command_queue CL_API_CALL clCreateCommandQueueWithProperties(cl_context context, cl_device_id device,
                                                                const cl_queue_properties* properties,
                                                                cl_int* errcode_ret) {
  return guarded_create("clCreateCommandQueueWithProperties", errcode_ret, [&] {
    cl_command_queue_properties props = 0;
    std::vector<cl_queue_properties> list;
    if (properties) {
      for (const cl_queue_properties* p = properties; *p; p += 2) {
        if (p[0] == CL_QUEUE_PROPERTIES) props = cl_command_queue_properties(p[1]);
        else if (p[0] == CL_QUEUE_SIZE) fail(CL_INVALID_QUEUE_PROPERTIES, "CL_QUEUE_SIZE needs a device-side queue");
        else fail(CL_INVALID_VALUE, "unknown queue property " + std::to_string(p[0]));
        list.push_back(p[0]);
        list.push_back(p[1]);
      }
      list.push_back(0);
    }
    cl_command_queue q = make_queue(context, device, props);
    q->properties_array = std::move(list);
    return q;
  });
}

cl_int CL_API_CALL clRetainCommandQueue(cl_command_queue q) {
  return guarded("clRetainCommandQueue", [&] { retain(q); });
}

cl_int CL_API_CALL clReleaseCommandQueue(cl_command_queue q) {
  return guarded("clReleaseCommandQueue", [&] {
    check(q, "command_queue");
    platform().scheduler().pump();  // the implicit flush
    release(q);
  });
}

cl_int CL_API_CALL clGetCommandQueueInfo(cl_command_queue q, cl_command_queue_info param_name,
                                         size_t param_value_size, void* param_value, size_t* param_value_size_ret) {
  return guarded("clGetCommandQueueInfo", [&] {
    check(q, "command_queue");
    InfoWriter out(param_value_size, param_value, param_value_size_ret);
    switch (param_name) {
      case CL_QUEUE_CONTEXT: out.scalar(q->context); break;
      case CL_QUEUE_DEVICE: out.scalar(platform().device_id()); break;
      case CL_QUEUE_REFERENCE_COUNT: out.scalar<cl_uint>(q->refs.load()); break;
      case CL_QUEUE_PROPERTIES: out.scalar(q->properties); break;
      default: fail(CL_INVALID_VALUE, "unknown command queue query " + std::to_string(param_name));
    }
  });
}

cl_int CL_API_CALL clSetCommandQueueProperty(cl_command_queue q, cl_command_queue_properties, cl_bool,
                                             cl_command_queue_properties*) {
  return guarded("clSetCommandQueueProperty", [&] {
    check(q, "command_queue");
    fail(CL_INVALID_OPERATION, "clSetCommandQueueProperty (deprecated since OpenCL 1.1) is not supported");
  });
}

cl_int CL_API_CALL clFlush(cl_command_queue q) {
  return guarded("clFlush", [&] {
    check(q, "command_queue");
    platform().scheduler().pump();
  });
}

cl_int CL_API_CALL clFinish(cl_command_queue q) {
  return guarded("clFinish", [&] {
    check(q, "command_queue");
    platform().scheduler().finish(q);
  });
}

cl_int CL_API_CALL clEnqueueMarkerWithWaitList(cl_command_queue q, cl_uint num_events, const cl_event* wait,
                                               cl_event* event) {
  return guarded_rc("clEnqueueMarkerWithWaitList", [&] {
    return enqueue(q, CL_COMMAND_MARKER, num_events, wait, event, false, [] {}, {}, Ordering::Marker);
  });
}

cl_int CL_API_CALL clEnqueueBarrierWithWaitList(cl_command_queue q, cl_uint num_events, const cl_event* wait,
                                                cl_event* event) {
  return guarded_rc("clEnqueueBarrierWithWaitList", [&] {
    return enqueue(q, CL_COMMAND_BARRIER, num_events, wait, event, false, [] {}, {}, Ordering::Barrier);
  });
}

cl_int CL_API_CALL clEnqueueMarker(cl_command_queue q, cl_event* event) {
  return guarded("clEnqueueMarker", [&] {
    if (!event) fail(CL_INVALID_VALUE, "event is NULL");
    enqueue(q, CL_COMMAND_MARKER, 0, nullptr, event, false, [] {}, {}, Ordering::Marker);
  });
}

cl_int CL_API_CALL clEnqueueBarrier(cl_command_queue q) {
  return guarded("clEnqueueBarrier", [&] {
    enqueue(q, CL_COMMAND_BARRIER, 0, nullptr, nullptr, false, [] {}, {}, Ordering::Barrier);
  });
}

cl_int CL_API_CALL clEnqueueWaitForEvents(cl_command_queue q, cl_uint num_events, const cl_event* events) {
  return guarded("clEnqueueWaitForEvents", [&] {
    if (num_events == 0 || !events) fail(CL_INVALID_VALUE, "no events given");
    enqueue(q, CL_COMMAND_BARRIER, num_events, events, nullptr, false, [] {}, {}, Ordering::Normal);
  });
}

cl_int CL_API_CALL clEnqueueMigrateMemObjects(cl_command_queue q, cl_uint num_mem_objects, const cl_mem* mem_objects,
                                              cl_mem_migration_flags flags, cl_uint num_events, const cl_event* wait,
                                              cl_event* event) {
  return guarded_rc("clEnqueueMigrateMemObjects", [&] {
    check(q, "command_queue");
    if (num_mem_objects == 0 || !mem_objects) fail(CL_INVALID_VALUE, "no memory objects given");
    if (flags & ~cl_mem_migration_flags(CL_MIGRATE_MEM_OBJECT_HOST | CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED))
      fail(CL_INVALID_VALUE, "unknown migration flags");
    for (cl_uint i = 0; i < num_mem_objects; ++i) {
      check(mem_objects[i], "mem_objects[i]");
      if (mem_objects[i]->context != q->context) fail(CL_INVALID_CONTEXT, "a memory object belongs to another context");
    }
    // One device and no host-resident copies: migration has nothing to move.
    return enqueue(q, CL_COMMAND_MIGRATE_MEM_OBJECTS, num_events, wait, event, false, [] {});
  });
}
