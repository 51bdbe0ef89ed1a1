// Kernel launches: clEnqueueNDRangeKernel with OpenCL 1.2 geometry rules (local sizes divide
// global sizes; with no local size given, strobe picks one), clEnqueueTask.
#include <algorithm>
#include <array>
#include <numeric>

#include <fmt/core.h>

#include "opencl/api.h"
#include "opencl/device_limits.h"
#include "opencl/enqueue.h"
#include "opencl/kernel_info.h"
#include "opencl/launch_geometry.h"
#include "opencl/memory.h"
#include "opencl/platform.h"

using namespace strobe;
using namespace strobe::opencl;

namespace strobe::opencl {

std::array<size_t, 3> choose_local_size(cl_uint dims, const std::array<size_t, 3>& global, size_t limit) {
  // Square-ish groups in 2D and 3D (16x16, 8x8x4), scaled down to the kernel's limit.
  std::array<size_t, 3> cap = dims == 1 ? std::array<size_t, 3>{limit, 1, 1}
                              : dims == 2 ? std::array<size_t, 3>{16, 16, 1}
                                          : std::array<size_t, 3>{8, 8, 4};
  while (cap[0] * cap[1] * cap[2] > limit) *std::max_element(cap.begin(), cap.end()) /= 2;
  auto largest_divisor = [](size_t n, size_t at_most) {
    for (size_t d = std::max<size_t>(1, std::min(n, at_most)); d > 1; --d)
      if (n % d == 0) return d;
    return size_t(1);
  };
  std::array<size_t, 3> local{1, 1, 1};
  for (cl_uint d = 0; d < dims; ++d) local[d] = largest_divisor(global[d], cap[d]);
  // Give the budget a small dimension left unused to x, where consecutive work-items sit.
  size_t others = local[1] * local[2];
  local[0] = std::max(local[0], largest_divisor(global[0], limit / others));
  return local;
}

}  // namespace strobe::opencl

namespace {

cl_int enqueue_kernel(cl_command_queue q, cl_kernel kernel, cl_uint work_dim, const size_t* global_offset,
                      const size_t* global_size, const size_t* local_size, cl_uint num_events, const cl_event* wait,
                      cl_event* event, cl_command_type type) {
  check(q, "command_queue");
  check(kernel, "kernel");
  check_queue(q, kernel->program->context);
  if (work_dim < 1 || work_dim > 3) fail(CL_INVALID_WORK_DIMENSION, fmt::format("work_dim {} is not 1, 2 or 3", work_dim));
  if (!global_size) fail(CL_INVALID_VALUE, "global_work_size is NULL");
  const auto& info = *kernel->info;
  std::array<size_t, 3> global{1, 1, 1}, offset{0, 0, 0}, local{1, 1, 1};
  for (cl_uint d = 0; d < work_dim; ++d) {
    global[d] = global_size[d];
    if (global[d] == 0) fail(CL_INVALID_GLOBAL_WORK_SIZE, fmt::format("global_work_size[{}] is 0", d));
    if (global[d] > UINT32_MAX)
      fail(CL_INVALID_GLOBAL_WORK_SIZE, fmt::format("global_work_size[{}] = {} exceeds the dispatch limit 2^32-1", d, global[d]));
    if (global_offset) {
      offset[d] = global_offset[d];
      if (offset[d] > SIZE_MAX - global[d]) fail(CL_INVALID_GLOBAL_OFFSET, "global_work_offset + global_work_size overflows");
    }
  }
  const size_t limit = max_work_group_size(kernel);
  const bool reqd = info.reqd_workgroup_size[0] != 0;
  if (local_size) {
    size_t product = 1;
    for (cl_uint d = 0; d < work_dim; ++d) {
      local[d] = local_size[d];
      if (local[d] == 0) fail(CL_INVALID_WORK_GROUP_SIZE, fmt::format("local_work_size[{}] is 0", d));
      if (local[d] > kMaxWorkGroupSize)
        fail(CL_INVALID_WORK_ITEM_SIZE, fmt::format("local_work_size[{}] = {} exceeds CL_DEVICE_MAX_WORK_ITEM_SIZES ({})",
                                                    d, local[d], kMaxWorkGroupSize));
      product *= local[d];
    }
    if (product > limit)
      fail(CL_INVALID_WORK_GROUP_SIZE, fmt::format("a work-group of {} work-items exceeds the kernel's limit of {}", product, limit));
    for (cl_uint d = 0; d < work_dim; ++d)
      if (global[d] % local[d])
        fail(CL_INVALID_WORK_GROUP_SIZE, fmt::format("local_work_size[{}] = {} does not divide global_work_size[{}] = {}",
                                                     d, local[d], d, global[d]));
    if (reqd)
      for (int d = 0; d < 3; ++d)
        if (local[d] != info.reqd_workgroup_size[d])
          fail(CL_INVALID_WORK_GROUP_SIZE, "local_work_size differs from the kernel's reqd_work_group_size");
  } else if (reqd) {
    for (int d = 0; d < 3; ++d) {
      local[d] = info.reqd_workgroup_size[d];
      if (global[d] % local[d])
        fail(CL_INVALID_WORK_GROUP_SIZE, "the kernel's reqd_work_group_size does not divide global_work_size");
    }
  } else {
    local = choose_local_size(work_dim, global, limit);
  }

  runtime::LaunchConfig cfg;
  cfg.dims = work_dim;
  for (int d = 0; d < 3; ++d) {
    cfg.grid[d] = uint32_t(global[d]);
    cfg.local[d] = uint32_t(local[d]);
    cfg.global_offset[d] = offset[d];
  }
  std::vector<cl_mem> mems;
  {
    std::lock_guard lock(kernel->mu);
    for (cl_uint i = 0; i < kernel->args.size(); ++i) {
      const KernelArgSlot& slot = kernel->args[i];
      if (!slot.set) fail(CL_INVALID_KERNEL_ARGS, describe_arg(kernel, i) + " has not been set");
      runtime::ArgValue v = slot.value;
      if (slot.value.kind == runtime::ArgValue::Kind::Pointer) {
        if (slot.mem && !valid(slot.mem))
          fail(CL_INVALID_KERNEL_ARGS, describe_arg(kernel, i) + ": its buffer has been released");
        v.pointer = slot.mem ? slot.mem->address : 0;
        if (slot.mem && std::find(mems.begin(), mems.end(), slot.mem) == mems.end()) mems.push_back(slot.mem);
      }
      cfg.args.push_back(std::move(v));
    }
    const uint64_t lds = local_mem_used(kernel);
    if (lds > local_mem_bytes(platform().config()))
      fail(CL_OUT_OF_RESOURCES, fmt::format("kernel '{}' needs {} bytes of local memory; the device has {}", info.name,
                                            lds, local_mem_bytes(platform().config())));
  }
  std::vector<Object*> holds{kernel};
  holds.insert(holds.end(), mems.begin(), mems.end());
  runtime::Module* module = kernel->image->module;
  std::string name = info.name;
  auto work = [=] {
    Platform& p = platform();
    for (cl_mem m : mems) sync_to_device(m, 0, m->size);
    report::LaunchRecord rec;
    rec.result = p.device().launch(*module, name, cfg);
    rec.grid = cfg.grid;
    rec.local = cfg.local;
    p.record_launch(std::move(rec));
    for (cl_mem m : mems) sync_to_host(m, 0, m->size);
  };
  return enqueue(q, type, num_events, wait, event, false, work, holds);
}

}  // namespace

cl_int CL_API_CALL clEnqueueNDRangeKernel(cl_command_queue q, cl_kernel kernel, cl_uint work_dim,
                                          const size_t* global_work_offset, const size_t* global_work_size,
                                          const size_t* local_work_size, cl_uint num_events, const cl_event* wait,
                                          cl_event* event) {
  return guarded_rc("clEnqueueNDRangeKernel", [&] {
    return enqueue_kernel(q, kernel, work_dim, global_work_offset, global_work_size, local_work_size, num_events, wait,
                          event, CL_COMMAND_NDRANGE_KERNEL);
  });
}

cl_int CL_API_CALL clEnqueueTask(cl_command_queue q, cl_kernel kernel, cl_uint num_events, const cl_event* wait,
                                 cl_event* event) {
  return guarded_rc("clEnqueueTask", [&] {
    const size_t one = 1;
    return enqueue_kernel(q, kernel, 1, nullptr, &one, &one, num_events, wait, event, CL_COMMAND_TASK);
  });
}

cl_int CL_API_CALL clEnqueueNativeKernel(cl_command_queue q, void(CL_CALLBACK*)(void*), void*, size_t, cl_uint,
                                         const cl_mem*, const void**, cl_uint, const cl_event*, cl_event*) {
  return guarded("clEnqueueNativeKernel", [&] {
    check(q, "command_queue");
    fail(CL_INVALID_OPERATION, "native kernels are not supported (CL_DEVICE_EXECUTION_CAPABILITIES lacks CL_EXEC_NATIVE_KERNEL)");
  });
}
