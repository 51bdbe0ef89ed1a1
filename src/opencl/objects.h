// The OpenCL objects. Every handle the platform gives out points at one of these: the ICD
// dispatch table comes first (cl_khr_icd: the loader calls through it), then the type magic and
// the reference count. A registry of live handles lets each entry point reject a stale, foreign
// or mistyped handle with the spec's error code before touching it.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "loader/code_object.h"
#include "opencl/cl_api.h"
#include "runtime/device.h"

namespace strobe::opencl {

/// The type magic stored in every object (and in the handle registry).
enum class ObjType : uint32_t {
  Platform = 0x53540001, Device, Context, Queue, Mem, Program, Kernel, Event,
};

/// The common head of every OpenCL object.
struct Object {
  const cl_icd_dispatch* dispatch;  ///< must stay the first member (cl_khr_icd)
  ObjType magic;
  std::atomic<cl_uint> refs{1};
  Object(ObjType t);
  Object(const Object&) = delete;
  Object& operator=(const Object&) = delete;
};

/// The dispatch table every object carries.
const cl_icd_dispatch* dispatch_table();

/// Adds a new object to the registry of live handles.
void register_object(Object* o);
/// Removes an object from the registry (it is about to be deleted).
void unregister_object(Object* o);
/// True if `p` is a live object of type `t`.
bool is_live(const void* p, ObjType t);

}  // namespace strobe::opencl

/// The platform: exactly one.
struct _cl_platform_id : strobe::opencl::Object {
  _cl_platform_id() : Object(strobe::opencl::ObjType::Platform) {}
};

/// The simulated GPU: exactly one (no sub-devices).
struct _cl_device_id : strobe::opencl::Object {
  _cl_device_id() : Object(strobe::opencl::ObjType::Device) {}
};

/// A context: properties and the error-notification callback.
struct _cl_context : strobe::opencl::Object {
  _cl_context() : Object(strobe::opencl::ObjType::Context) {}
  std::vector<cl_context_properties> properties;  ///< as given, terminating 0 included (empty: none)
  void(CL_CALLBACK* notify)(const char*, const void*, size_t, void*) = nullptr;
  void* notify_data = nullptr;
};

/// A command queue. The command bookkeeping is guarded by the scheduler's mutex.
struct _cl_command_queue : strobe::opencl::Object {
  _cl_command_queue() : Object(strobe::opencl::ObjType::Queue) {}
  cl_context context = nullptr;
  cl_command_queue_properties properties = 0;
  std::vector<cl_queue_properties> properties_array;  ///< clCreateCommandQueueWithProperties' list
  std::vector<cl_event> incomplete;  ///< commands not yet finished, submission order (retained)
  cl_event last = nullptr;           ///< in-order: the latest command while unfinished (retained)
  cl_event barrier = nullptr;        ///< out-of-order: the latest barrier while unfinished (retained)
  // Timing mode: where the queue's order holds a command back on the simulated timeline.
  // Written under the device lock as commands are placed; read by clFinish from any thread.
  std::atomic<uint64_t> sim_all_end_ns{0};      ///< the latest end of any command of the queue
  std::atomic<uint64_t> sim_barrier_end_ns{0};  ///< out-of-order: the end of the latest barrier
  bool in_order() const { return !(properties & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE); }
};

/// A buffer or sub-buffer: a device allocation (or a range of the parent's).
struct _cl_mem : strobe::opencl::Object {
  _cl_mem() : Object(strobe::opencl::ObjType::Mem) {}
  cl_context context = nullptr;
  cl_mem_flags flags = 0;
  size_t size = 0;
  uint64_t address = 0;        ///< device address of byte 0
  void* host_ptr = nullptr;    ///< CL_MEM_USE_HOST_PTR pointer as given (+origin for sub-buffers)
  cl_mem parent = nullptr;     ///< sub-buffers: the buffer they view (retained)
  size_t origin = 0;           ///< sub-buffers: offset in the parent
  std::vector<std::pair<void(CL_CALLBACK*)(cl_mem, void*), void*>> destructors;
  // Mapping state lives in the root buffer (sub-buffers share their parent's host image).
  std::mutex map_mu;
  std::unique_ptr<uint8_t[]> shadow;  ///< host image for maps of buffers without USE_HOST_PTR
  /// One outstanding clEnqueueMapBuffer; `offset` is relative to the root buffer.
  struct Mapping { cl_mem owner; void* ptr; size_t offset, size; cl_map_flags flags; };
  std::vector<Mapping> mappings;      ///< outstanding maps of this buffer and its sub-buffers
  /// The buffer that owns the allocation (itself, or the parent of a sub-buffer).
  cl_mem root() { return parent ? parent : this; }
  /// True when the host pointer is the buffer's storage as the program sees it.
  bool uses_host_ptr() const { return (parent ? parent->flags : flags) & CL_MEM_USE_HOST_PTR; }
  /// Lives in host memory the GPU reaches across the link (USE_HOST_PTR or ALLOC_HOST_PTR), as
  /// AMD's runtime places such buffers: mapping it copies nothing. Timing mode only: kernels'
  /// accesses to it are timed as device memory's.
  bool host_resident() const {
    return (parent ? parent->flags : flags) & (CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR);
  }
};

/// What a successful build produced and loaded into device memory.
struct ProgramImage {
  strobe::runtime::Module* module = nullptr;  ///< owned by the runtime device
  std::vector<std::string> kernel_names;      ///< in code object order
};

/// A program: source or binary, and its build state. Guarded by `mu`.
struct _cl_program : strobe::opencl::Object {
  _cl_program() : Object(strobe::opencl::ObjType::Program) {}
  cl_context context = nullptr;
  std::mutex mu;
  std::string source;                 ///< empty for binary programs
  bool has_source = false;
  cl_build_status status = CL_BUILD_NONE;
  cl_program_binary_type binary_type = CL_PROGRAM_BINARY_TYPE_NONE;
  std::string options, log;
  std::vector<uint8_t> binary;        ///< code object (executable) or relocatable object
  std::shared_ptr<const ProgramImage> image;  ///< set once an executable is loaded
  std::atomic<cl_uint> kernels{0};    ///< live kernels created from this program
  bool kernel_arg_info = false;       ///< built with -cl-kernel-arg-info
};

/// One argument as clSetKernelArg left it.
struct KernelArgSlot {
  bool set = false;
  strobe::runtime::ArgValue value;  ///< scalar bytes or __local size; pointers come from `mem`
  cl_mem mem = nullptr;             ///< global/constant buffer argument (nullptr: a NULL pointer)
};

/// A kernel: one entry point of a built program, with its argument values.
struct _cl_kernel : strobe::opencl::Object {
  _cl_kernel() : Object(strobe::opencl::ObjType::Kernel) {}
  cl_program program = nullptr;  ///< retained
  std::shared_ptr<const ProgramImage> image;
  const strobe::loader::KernelInfo* info = nullptr;
  std::vector<const strobe::loader::KernelArg*> formals;  ///< explicit arguments in order
  std::mutex mu;
  std::vector<KernelArgSlot> args;
};

/// An event: the status of one command, or a user event.
struct _cl_event : strobe::opencl::Object {
  _cl_event() : Object(strobe::opencl::ObjType::Event) {}
  cl_context context = nullptr;     ///< retained
  cl_command_queue queue = nullptr; ///< retained; nullptr for user events
  cl_command_type type = 0;
  // Guarded by the scheduler's mutex.
  cl_int status = CL_QUEUED;
  uint64_t queued_ns = 0, submit_ns = 0, start_ns = 0, end_ns = 0;
  struct Callback { cl_int type; void(CL_CALLBACK* fn)(cl_event, cl_int, void*); void* data; };
  std::vector<Callback> callbacks;
};
