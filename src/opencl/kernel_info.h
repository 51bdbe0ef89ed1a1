// Facts about kernels shared by the kernel and launch entry points.
#pragma once

#include <cstdint>
#include <string>

#include "loader/code_object.h"
#include "opencl/objects.h"

namespace strobe::opencl {

/// CL_KERNEL_WORK_GROUP_SIZE: the kernel's flat work-group limit, at most the device's.
size_t max_work_group_size(cl_kernel k);
/// LDS a launch needs: the static group segment plus the __local arguments (16-byte aligned
/// each, as the runtime lays them out). The caller holds k->mu.
uint64_t local_mem_used(cl_kernel k);
/// "argument 2 'n' (int) of kernel 'vadd'", for messages.
std::string describe_arg(cl_kernel k, cl_uint index);
/// CL_KERNEL_ARG_ADDRESS_QUALIFIER of an argument.
cl_kernel_arg_address_qualifier address_qualifier(const loader::KernelArg& a);
/// CL_KERNEL_ARG_TYPE_QUALIFIER of an argument.
cl_kernel_arg_type_qualifier type_qualifier(const loader::KernelArg& a);

}  // namespace strobe::opencl
