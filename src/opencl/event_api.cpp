// Event entry points: waits, queries, profiling, user events and callbacks.
#include <vector>

#include "opencl/api.h"
#include "opencl/platform.h"

using namespace strobe;
using namespace strobe::opencl;

namespace strobe::opencl {

void destroy(cl_event e) {
  if (e->queue) release(e->queue);
  release(e->context);
  delete e;
}

}  // namespace strobe::opencl

cl_int CL_API_CALL clWaitForEvents(cl_uint num_events, const cl_event* event_list) {
  return guarded_rc("clWaitForEvents", [&] {
    if (num_events == 0 || !event_list) fail(CL_INVALID_VALUE, "no events given");
    for (cl_uint i = 0; i < num_events; ++i) {
      check(event_list[i], "event_list[i]");
      if (event_list[i]->context != event_list[0]->context)
        fail(CL_INVALID_CONTEXT, "the events belong to different contexts");
    }
    return platform().scheduler().wait({event_list, num_events});
  });
}

cl_int CL_API_CALL clGetEventInfo(cl_event event, cl_event_info param_name, size_t param_value_size, void* param_value,
                                  size_t* param_value_size_ret) {
  return guarded("clGetEventInfo", [&] {
    check(event, "event");
    InfoWriter out(param_value_size, param_value, param_value_size_ret);
    switch (param_name) {
      case CL_EVENT_COMMAND_QUEUE: out.scalar(event->queue); break;
      case CL_EVENT_CONTEXT: out.scalar(event->context); break;
      case CL_EVENT_COMMAND_TYPE: out.scalar(event->type); break;
      case CL_EVENT_COMMAND_EXECUTION_STATUS: {
        const cl_int status = platform().scheduler().status(event);
        // A host that polls until completion has waited for it: its clock reaches the end.
        if (status == CL_COMPLETE && event->queue) platform().host_waited(platform().scheduler().times(event)[3]);
        out.scalar<cl_int>(status);
        break;
      }
      case CL_EVENT_REFERENCE_COUNT: out.scalar<cl_uint>(event->refs.load()); break;
      default: fail(CL_INVALID_VALUE, "unknown event query " + std::to_string(param_name));
    }
  });
}

cl_int CL_API_CALL clRetainEvent(cl_event event) {
  return guarded("clRetainEvent", [&] { retain(event); });
}

cl_int CL_API_CALL clReleaseEvent(cl_event event) {
  return guarded("clReleaseEvent", [&] { release(check(event, "event")); });
}

cl_int CL_API_CALL clGetEventProfilingInfo(cl_event event, cl_profiling_info param_name, size_t param_value_size,
                                           void* param_value, size_t* param_value_size_ret) {
  return guarded("clGetEventProfilingInfo", [&] {
    check(event, "event");
    Scheduler& s = platform().scheduler();
    if (!event->queue || !(event->queue->properties & CL_QUEUE_PROFILING_ENABLE))
      fail(CL_PROFILING_INFO_NOT_AVAILABLE, "the event's queue was not created with CL_QUEUE_PROFILING_ENABLE");
    if (s.status(event) != CL_COMPLETE)
      fail(CL_PROFILING_INFO_NOT_AVAILABLE, "the command has not completed successfully");
    auto t = s.times(event);
    InfoWriter out(param_value_size, param_value, param_value_size_ret);
    switch (param_name) {
      case CL_PROFILING_COMMAND_QUEUED: out.scalar<cl_ulong>(t[0]); break;
      case CL_PROFILING_COMMAND_SUBMIT: out.scalar<cl_ulong>(t[1]); break;
      case CL_PROFILING_COMMAND_START: out.scalar<cl_ulong>(t[2]); break;
      case CL_PROFILING_COMMAND_END:
      case CL_PROFILING_COMMAND_COMPLETE: out.scalar<cl_ulong>(t[3]); break;
      default: fail(CL_INVALID_VALUE, "unknown profiling query " + std::to_string(param_name));
    }
  });
}

cl_event CL_API_CALL clCreateUserEvent(cl_context context, cl_int* errcode_ret) {
  return guarded_create("clCreateUserEvent", errcode_ret, [&] {
    check(context, "context");
    return platform().scheduler().create_user_event(context);
  });
}

cl_int CL_API_CALL clSetUserEventStatus(cl_event event, cl_int execution_status) {
  return guarded("clSetUserEventStatus", [&] {
    check(event, "event");
    platform().scheduler().set_user_status(event, execution_status);
  });
}

cl_int CL_API_CALL clSetEventCallback(cl_event event, cl_int command_exec_callback_type,
                                      void(CL_CALLBACK* pfn_notify)(cl_event, cl_int, void*), void* user_data) {
  return guarded("clSetEventCallback", [&] {
    check(event, "event");
    if (!pfn_notify) fail(CL_INVALID_VALUE, "pfn_notify is NULL");
    if (command_exec_callback_type != CL_COMPLETE && command_exec_callback_type != CL_RUNNING &&
        command_exec_callback_type != CL_SUBMITTED)
      fail(CL_INVALID_VALUE, "command_exec_callback_type must be CL_SUBMITTED, CL_RUNNING or CL_COMPLETE");
    platform().scheduler().add_callback(event, command_exec_callback_type, pfn_notify, user_data);
  });
}
