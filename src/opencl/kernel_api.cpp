// Kernel entry points: creation, arguments and queries.
#include <algorithm>
#include <cstring>

#include <fmt/core.h>

#include "opencl/api.h"
#include "opencl/device_limits.h"
#include "opencl/kernel_info.h"
#include "opencl/platform.h"

using namespace strobe;
using namespace strobe::opencl;
using strobe::loader::ArgKind;

namespace strobe::opencl {

void destroy(cl_kernel k) {
  k->program->kernels.fetch_sub(1);
  release(k->program);
  delete k;
}

size_t max_work_group_size(cl_kernel k) {
  size_t limit = k->info->max_flat_workgroup_size ? k->info->max_flat_workgroup_size : kMaxWorkGroupSize;
  return std::min(limit, kMaxWorkGroupSize);
}

uint64_t local_mem_used(cl_kernel k) {
  uint64_t total = k->info->group_segment_fixed_size;
  for (const auto& slot : k->args)
    if (slot.set && slot.value.kind == runtime::ArgValue::Kind::Local) total += (slot.value.local_bytes + 15) / 16 * 16;
  return total;
}

cl_kernel_arg_address_qualifier address_qualifier(const loader::KernelArg& a) {
  if (a.kind == ArgKind::DynamicSharedPointer) return CL_KERNEL_ARG_ADDRESS_LOCAL;
  if (a.kind == ArgKind::ByValue) return CL_KERNEL_ARG_ADDRESS_PRIVATE;
  if (a.address_space == "constant") return CL_KERNEL_ARG_ADDRESS_CONSTANT;
  if (a.address_space == "local") return CL_KERNEL_ARG_ADDRESS_LOCAL;
  return CL_KERNEL_ARG_ADDRESS_GLOBAL;
}

cl_kernel_arg_type_qualifier type_qualifier(const loader::KernelArg& a) {
  cl_kernel_arg_type_qualifier q = CL_KERNEL_ARG_TYPE_NONE;
  if (a.is_const || a.address_space == "constant") q |= CL_KERNEL_ARG_TYPE_CONST;
  if (a.is_volatile) q |= CL_KERNEL_ARG_TYPE_VOLATILE;
  if (a.is_restrict) q |= CL_KERNEL_ARG_TYPE_RESTRICT;
  if (a.kind == ArgKind::Pipe) q |= CL_KERNEL_ARG_TYPE_PIPE;
  return q;
}

std::string describe_arg(cl_kernel k, cl_uint i) {
  const auto* f = k->formals[i];
  std::string s = fmt::format("argument {}", i);
  if (!f->name.empty()) s += " '" + f->name + "'";
  if (!f->type_name.empty()) s += " (" + f->type_name + ")";
  return s + " of kernel '" + k->info->name + "'";
}

}  // namespace strobe::opencl

namespace {

cl_kernel make_kernel(cl_program program, const loader::KernelInfo& info, std::shared_ptr<const ProgramImage> image) {
  auto k = std::make_unique<_cl_kernel>();
  k->program = program;
  k->image = std::move(image);
  k->info = &info;
  k->formals = runtime::explicit_args(info);
  k->args.resize(k->formals.size());
  retain(program);
  program->kernels.fetch_add(1);
  register_object(k.get());
  return k.release();
}

std::string attributes(const loader::KernelInfo& k) {
  std::string s;
  auto dim3 = [](const std::array<uint32_t, 3>& d) { return fmt::format("({},{},{})", d[0], d[1], d[2]); };
  if (k.reqd_workgroup_size[0]) s += "reqd_work_group_size" + dim3(k.reqd_workgroup_size);
  if (k.workgroup_size_hint[0]) s += (s.empty() ? "" : " ") + std::string("work_group_size_hint") + dim3(k.workgroup_size_hint);
  if (!k.vec_type_hint.empty()) s += (s.empty() ? "" : " ") + std::string("vec_type_hint(") + k.vec_type_hint + ")";
  return s;
}

}  // namespace

cl_kernel CL_API_CALL clCreateKernel(cl_program program, const char* kernel_name, cl_int* errcode_ret) {
  return guarded_create("clCreateKernel", errcode_ret, [&] {
    check(program, "program");
    if (!kernel_name) fail(CL_INVALID_VALUE, "kernel_name is NULL");
    std::shared_ptr<const ProgramImage> image;
    {
      std::lock_guard lock(program->mu);
      image = program->image;
    }
    if (!image) fail(CL_INVALID_PROGRAM_EXECUTABLE, "the program has not been built successfully");
    for (const auto& k : image->module->code_object().kernels())
      if (k.name == kernel_name) return make_kernel(program, k, image);
    fail(CL_INVALID_KERNEL_NAME, std::string("no kernel '") + kernel_name + "' in the program");
  });
}

cl_int CL_API_CALL clCreateKernelsInProgram(cl_program program, cl_uint num_kernels, cl_kernel* kernels,
                                            cl_uint* num_kernels_ret) {
  return guarded("clCreateKernelsInProgram", [&] {
    check(program, "program");
    std::shared_ptr<const ProgramImage> image;
    {
      std::lock_guard lock(program->mu);
      image = program->image;
    }
    if (!image) fail(CL_INVALID_PROGRAM_EXECUTABLE, "the program has not been built successfully");
    const auto& infos = image->module->code_object().kernels();
    if (kernels && num_kernels < infos.size())
      fail(CL_INVALID_VALUE, fmt::format("num_kernels {} is less than the program's {} kernels", num_kernels, infos.size()));
    if (kernels)
      for (size_t i = 0; i < infos.size(); ++i) kernels[i] = make_kernel(program, infos[i], image);
    if (num_kernels_ret) *num_kernels_ret = cl_uint(infos.size());
  });
}

cl_int CL_API_CALL clRetainKernel(cl_kernel kernel) {
  return guarded("clRetainKernel", [&] { retain(kernel); });
}

cl_int CL_API_CALL clReleaseKernel(cl_kernel kernel) {
  return guarded("clReleaseKernel", [&] { release(check(kernel, "kernel")); });
}

cl_kernel CL_API_CALL clCloneKernel(cl_kernel source_kernel, cl_int* errcode_ret) {
  return guarded_create("clCloneKernel", errcode_ret, [&] {
    check(source_kernel, "source_kernel");
    cl_kernel k = make_kernel(source_kernel->program, *source_kernel->info, source_kernel->image);
    std::lock_guard lock(source_kernel->mu);
    k->args = source_kernel->args;
    return k;
  });
}

cl_int CL_API_CALL clSetKernelArg(cl_kernel kernel, cl_uint arg_index, size_t arg_size, const void* arg_value) {
  return guarded("clSetKernelArg", [&] {
    check(kernel, "kernel");
    if (arg_index >= kernel->formals.size())
      fail(CL_INVALID_ARG_INDEX, fmt::format("kernel '{}' has {} arguments", kernel->info->name, kernel->formals.size()));
    const loader::KernelArg& f = *kernel->formals[arg_index];
    KernelArgSlot slot;
    slot.set = true;
    switch (f.kind) {
      case ArgKind::GlobalBuffer: {
        if (arg_size != sizeof(cl_mem))
          fail(CL_INVALID_ARG_SIZE, fmt::format("{} is a buffer: arg_size must be sizeof(cl_mem), not {}",
                                                describe_arg(kernel, arg_index), arg_size));
        cl_mem m = arg_value ? *static_cast<const cl_mem*>(arg_value) : nullptr;
        if (m) {
          if (!valid(m)) fail(CL_INVALID_MEM_OBJECT, describe_arg(kernel, arg_index) + ": not a valid buffer");
          if (m->context != kernel->program->context)
            fail(CL_INVALID_MEM_OBJECT, describe_arg(kernel, arg_index) + ": the buffer belongs to another context");
        }
        slot.mem = m;
        slot.value = runtime::ArgValue::buffer(0);
        break;
      }
      case ArgKind::DynamicSharedPointer:
        if (arg_value) fail(CL_INVALID_ARG_VALUE, describe_arg(kernel, arg_index) + " is __local: arg_value must be NULL");
        if (arg_size == 0 || arg_size > local_mem_bytes(platform().config()))
          fail(CL_INVALID_ARG_SIZE, fmt::format("{} is __local: {} bytes requested", describe_arg(kernel, arg_index), arg_size));
        slot.value = runtime::ArgValue::local(uint32_t(arg_size));
        break;
      case ArgKind::ByValue:
        if (!arg_value) fail(CL_INVALID_ARG_VALUE, describe_arg(kernel, arg_index) + " is passed by value: arg_value is NULL");
        if (arg_size != f.size)
          fail(CL_INVALID_ARG_SIZE, fmt::format("{} is {} bytes, arg_size is {}", describe_arg(kernel, arg_index), f.size, arg_size));
        slot.value.kind = runtime::ArgValue::Kind::Scalar;
        slot.value.bytes.assign(static_cast<const uint8_t*>(arg_value), static_cast<const uint8_t*>(arg_value) + arg_size);
        break;
      default:
        fail(CL_INVALID_ARG_VALUE, fmt::format("{} is of kind '{}', which strobe does not support (no images, samplers, pipes)",
                                               describe_arg(kernel, arg_index), f.value_kind));
    }
    std::lock_guard lock(kernel->mu);
    kernel->args[arg_index] = std::move(slot);
  });
}

cl_int CL_API_CALL clGetKernelInfo(cl_kernel kernel, cl_kernel_info param_name, size_t param_value_size,
                                   void* param_value, size_t* param_value_size_ret) {
  return guarded("clGetKernelInfo", [&] {
    check(kernel, "kernel");
    InfoWriter out(param_value_size, param_value, param_value_size_ret);
    switch (param_name) {
      case CL_KERNEL_FUNCTION_NAME: out.str(kernel->info->name); break;
      case CL_KERNEL_NUM_ARGS: out.scalar<cl_uint>(cl_uint(kernel->formals.size())); break;
      case CL_KERNEL_REFERENCE_COUNT: out.scalar<cl_uint>(kernel->refs.load()); break;
      case CL_KERNEL_CONTEXT: out.scalar(kernel->program->context); break;
      case CL_KERNEL_PROGRAM: out.scalar(kernel->program); break;
      case CL_KERNEL_ATTRIBUTES: out.str(attributes(*kernel->info)); break;
      default: fail(CL_INVALID_VALUE, "unknown kernel query " + std::to_string(param_name));
    }
  });
}

cl_int CL_API_CALL clGetKernelWorkGroupInfo(cl_kernel kernel, cl_device_id device, cl_kernel_work_group_info param_name,
                                            size_t param_value_size, void* param_value, size_t* param_value_size_ret) {
  return guarded("clGetKernelWorkGroupInfo", [&] {
    check(kernel, "kernel");
    if (device && device != platform().device_id()) check(device, "device");
    InfoWriter out(param_value_size, param_value, param_value_size_ret);
    const auto& info = *kernel->info;
    switch (param_name) {
      case CL_KERNEL_WORK_GROUP_SIZE: out.scalar<size_t>(max_work_group_size(kernel)); break;
      case CL_KERNEL_COMPILE_WORK_GROUP_SIZE:
        out.array(std::vector<size_t>(info.reqd_workgroup_size.begin(), info.reqd_workgroup_size.end()));
        break;
      case CL_KERNEL_LOCAL_MEM_SIZE: {
        std::lock_guard lock(kernel->mu);
        out.scalar<cl_ulong>(local_mem_used(kernel));
        break;
      }
      case CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE: out.scalar<size_t>(info.wavefront_size); break;
      case CL_KERNEL_PRIVATE_MEM_SIZE: out.scalar<cl_ulong>(info.private_segment_fixed_size); break;
      default: fail(CL_INVALID_VALUE, "unknown kernel work-group query " + std::to_string(param_name));
    }
  });
}

cl_int CL_API_CALL clGetKernelArgInfo(cl_kernel kernel, cl_uint arg_index, cl_kernel_arg_info param_name,
                                      size_t param_value_size, void* param_value, size_t* param_value_size_ret) {
  return guarded("clGetKernelArgInfo", [&] {
    check(kernel, "kernel");
    if (arg_index >= kernel->formals.size())
      fail(CL_INVALID_ARG_INDEX, fmt::format("kernel '{}' has {} arguments", kernel->info->name, kernel->formals.size()));
    const loader::KernelArg& f = *kernel->formals[arg_index];
    InfoWriter out(param_value_size, param_value, param_value_size_ret);
    switch (param_name) {
      case CL_KERNEL_ARG_ADDRESS_QUALIFIER: out.scalar(address_qualifier(f)); break;
      case CL_KERNEL_ARG_ACCESS_QUALIFIER: out.scalar<cl_kernel_arg_access_qualifier>(CL_KERNEL_ARG_ACCESS_NONE); break;
      case CL_KERNEL_ARG_TYPE_QUALIFIER: out.scalar(type_qualifier(f)); break;
      case CL_KERNEL_ARG_TYPE_NAME:
        if (f.type_name.empty()) fail(CL_KERNEL_ARG_INFO_NOT_AVAILABLE, "the code object does not name the argument's type");
        out.str(f.type_name);
        break;
      case CL_KERNEL_ARG_NAME:
        if (f.name.empty())
          fail(CL_KERNEL_ARG_INFO_NOT_AVAILABLE, "argument names are recorded when the program is built with -cl-kernel-arg-info");
        out.str(f.name);
        break;
      default: fail(CL_INVALID_VALUE, "unknown kernel argument query " + std::to_string(param_name));
    }
  });
}
