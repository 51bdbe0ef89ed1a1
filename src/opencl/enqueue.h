// The common tail of every clEnqueue* call.
#pragma once

#include <vector>

#include "opencl/scheduler.h"

namespace strobe::opencl {

/// Submits `work` on `q` (validated) after `wait`, hands the event to the program through
/// `out_event` (if given) and, when `blocking`, waits for it. Returns CL_SUCCESS, or
/// CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST when a blocking command ended in error.
cl_int enqueue(cl_command_queue q, cl_command_type type, cl_uint num_wait, const cl_event* wait, cl_event* out_event,
               bool blocking, Work work, std::vector<Object*> holds = {}, Ordering ordering = Ordering::Normal);

/// Throws CL_INVALID_COMMAND_QUEUE / CL_INVALID_CONTEXT unless `q` is live and `obj_ctx` is its context.
void check_queue(cl_command_queue q, cl_context obj_ctx);

}  // namespace strobe::opencl
