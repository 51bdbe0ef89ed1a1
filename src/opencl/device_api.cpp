// Device entry points: discovery, clGetDeviceInfo with values derived from the active GPU
// configuration, AMD's attribute queries (cl_ext.h, through api.h), and (the absence of)
// sub-devices.
#include <algorithm>
#include <vector>

#include <fmt/core.h>

#include "opencl/api.h"
#include "opencl/compiler.h"
#include "opencl/device_limits.h"
#include "opencl/platform.h"
#include "opencl/version.h"

using namespace strobe;
using namespace strobe::opencl;

namespace strobe::opencl {

uint64_t local_mem_bytes(const timing::GpuConfig& cfg) {
  return std::min<uint64_t>(uint64_t(cfg.lds_bytes_per_cu), 64 * 1024);
}
uint64_t global_mem_bytes(const timing::GpuConfig& cfg) { return uint64_t(cfg.dram_size_gb) << 30; }
uint64_t max_alloc_bytes(const timing::GpuConfig& cfg) {
  return std::max<uint64_t>(global_mem_bytes(cfg) / 4, 128ull << 20);
}

std::string device_extensions() {
  return "cl_khr_byte_addressable_store cl_khr_global_int32_base_atomics cl_khr_global_int32_extended_atomics "
         "cl_khr_local_int32_base_atomics cl_khr_local_int32_extended_atomics cl_khr_int64_base_atomics "
         "cl_khr_int64_extended_atomics cl_khr_fp64 cl_khr_icd cl_amd_device_attribute_query";
}

}  // namespace strobe::opencl

namespace {

void check_device(cl_device_id d) {
  if (d != platform().device_id()) check(d, "device");
}

/// cl_amd_device_attribute_query's values, as AMD's runtime gives them for a GCN GPU, from the
/// configuration where it describes them; false for a query not answered here (free memory and
/// queue counts, which the model does not track, are among them).
bool amd_device_info(cl_device_info param, const timing::GpuConfig& cfg, InfoWriter& out) {
  switch (param) {
    // The board name says which preset is simulated; CLBlast reads it as the device's name.
    case CL_DEVICE_BOARD_NAME_AMD: out.str(fmt::format("{} (simulated by strobe)", cfg.name)); return true;
    case CL_DEVICE_PROFILING_TIMER_OFFSET_AMD: out.scalar<cl_ulong>(0); return true;
    case CL_DEVICE_TOPOLOGY_AMD: {
      cl_device_topology_amd t{};
      t.pcie.type = CL_DEVICE_TOPOLOGY_TYPE_PCIE_AMD;  // bus, device and function 0: no real slot
      out.scalar(t);
      return true;
    }
    case CL_DEVICE_SIMD_PER_COMPUTE_UNIT_AMD: out.scalar<cl_uint>(cl_uint(cfg.simds_per_cu)); return true;
    case CL_DEVICE_SIMD_WIDTH_AMD: out.scalar<cl_uint>(cl_uint(cfg.simd_width)); return true;
    case CL_DEVICE_SIMD_INSTRUCTION_WIDTH_AMD: out.scalar<cl_uint>(1); return true;
    case CL_DEVICE_WAVEFRONT_WIDTH_AMD: out.scalar<cl_uint>(64); return true;
    case CL_DEVICE_GLOBAL_MEM_CHANNELS_AMD: out.scalar<cl_uint>(cl_uint(cfg.dram_channels)); return true;
    case CL_DEVICE_GLOBAL_MEM_CHANNEL_BANKS_AMD: out.scalar<cl_uint>(cl_uint(cfg.dram_banks)); return true;
    case CL_DEVICE_GLOBAL_MEM_CHANNEL_BANK_WIDTH_AMD: out.scalar<cl_uint>(cl_uint(cfg.dram_interleave_bytes)); return true;
    case CL_DEVICE_LOCAL_MEM_SIZE_PER_COMPUTE_UNIT_AMD: out.scalar<cl_uint>(cl_uint(local_mem_bytes(cfg))); return true;
    case CL_DEVICE_LOCAL_MEM_BANKS_AMD: out.scalar<cl_uint>(cl_uint(cfg.lds_banks)); return true;
    case CL_DEVICE_THREAD_TRACE_SUPPORTED_AMD: out.scalar<cl_bool>(CL_FALSE); return true;
    case CL_DEVICE_GFXIP_MAJOR_AMD: out.scalar<cl_uint>(8); return true;  // gfx803
    case CL_DEVICE_GFXIP_MINOR_AMD: out.scalar<cl_uint>(0); return true;
    default: return false;
  }
}

void device_info(cl_device_info param, InfoWriter& out) {
  Platform& p = platform();
  const auto& cfg = p.config();
  const cl_bool yes = CL_TRUE, no = CL_FALSE;
  switch (param) {
    case CL_DEVICE_TYPE: out.scalar<cl_device_type>(CL_DEVICE_TYPE_GPU); break;
    case CL_DEVICE_VENDOR_ID: out.scalar<cl_uint>(0x1002); break;  // the simulated hardware's PCI vendor
    case CL_DEVICE_MAX_COMPUTE_UNITS: out.scalar<cl_uint>(cl_uint(cfg.num_cus)); break;
    case CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS: out.scalar<cl_uint>(3); break;
    case CL_DEVICE_MAX_WORK_ITEM_SIZES: out.array(std::vector<size_t>(3, kMaxWorkGroupSize)); break;
    case CL_DEVICE_MAX_WORK_GROUP_SIZE: out.scalar<size_t>(kMaxWorkGroupSize); break;
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_CHAR: out.scalar<cl_uint>(4); break;
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_SHORT: out.scalar<cl_uint>(2); break;
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_INT:
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_LONG:
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT:
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE: out.scalar<cl_uint>(1); break;
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_HALF: out.scalar<cl_uint>(0); break;
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_CHAR: out.scalar<cl_uint>(4); break;
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_SHORT: out.scalar<cl_uint>(2); break;
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_INT:
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_LONG:
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT:
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_DOUBLE: out.scalar<cl_uint>(1); break;
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_HALF: out.scalar<cl_uint>(0); break;
    case CL_DEVICE_MAX_CLOCK_FREQUENCY: out.scalar<cl_uint>(cl_uint(cfg.clock_mhz + 0.5)); break;
    case CL_DEVICE_ADDRESS_BITS: out.scalar<cl_uint>(64); break;
    case CL_DEVICE_MAX_READ_IMAGE_ARGS:
    case CL_DEVICE_MAX_WRITE_IMAGE_ARGS:
    case CL_DEVICE_MAX_SAMPLERS: out.scalar<cl_uint>(0); break;
    case CL_DEVICE_MAX_MEM_ALLOC_SIZE: out.scalar<cl_ulong>(max_alloc_bytes(cfg)); break;
    case CL_DEVICE_IMAGE2D_MAX_WIDTH:
    case CL_DEVICE_IMAGE2D_MAX_HEIGHT:
    case CL_DEVICE_IMAGE3D_MAX_WIDTH:
    case CL_DEVICE_IMAGE3D_MAX_HEIGHT:
    case CL_DEVICE_IMAGE3D_MAX_DEPTH:
    case CL_DEVICE_IMAGE_MAX_BUFFER_SIZE:
    case CL_DEVICE_IMAGE_MAX_ARRAY_SIZE: out.scalar<size_t>(0); break;
    case CL_DEVICE_IMAGE_SUPPORT: out.scalar(no); break;
    case CL_DEVICE_MAX_PARAMETER_SIZE: out.scalar<size_t>(1024); break;
    case CL_DEVICE_MEM_BASE_ADDR_ALIGN: out.scalar<cl_uint>(cl_uint(kBaseAddrAlignBytes * 8)); break;
    case CL_DEVICE_MIN_DATA_TYPE_ALIGN_SIZE: out.scalar<cl_uint>(128); break;
    case CL_DEVICE_SINGLE_FP_CONFIG:
      out.scalar<cl_device_fp_config>(CL_FP_INF_NAN | CL_FP_ROUND_TO_NEAREST | CL_FP_FMA);
      break;
    case CL_DEVICE_DOUBLE_FP_CONFIG:
      out.scalar<cl_device_fp_config>(CL_FP_FMA | CL_FP_ROUND_TO_NEAREST | CL_FP_ROUND_TO_ZERO | CL_FP_ROUND_TO_INF |
                                      CL_FP_INF_NAN | CL_FP_DENORM);
      break;
    case CL_DEVICE_HALF_FP_CONFIG: out.scalar<cl_device_fp_config>(0); break;
    case CL_DEVICE_GLOBAL_MEM_CACHE_TYPE: out.scalar<cl_device_mem_cache_type>(CL_READ_WRITE_CACHE); break;
    case CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE: out.scalar<cl_uint>(cl_uint(cfg.line_bytes)); break;
    case CL_DEVICE_GLOBAL_MEM_CACHE_SIZE: out.scalar<cl_ulong>(cl_ulong(cfg.l2_size_kb) * 1024); break;
    case CL_DEVICE_GLOBAL_MEM_SIZE: out.scalar<cl_ulong>(global_mem_bytes(cfg)); break;
    case CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE: out.scalar<cl_ulong>(max_alloc_bytes(cfg)); break;
    case CL_DEVICE_MAX_CONSTANT_ARGS: out.scalar<cl_uint>(8); break;
    case CL_DEVICE_LOCAL_MEM_TYPE: out.scalar<cl_device_local_mem_type>(CL_LOCAL); break;
    case CL_DEVICE_LOCAL_MEM_SIZE: out.scalar<cl_ulong>(local_mem_bytes(cfg)); break;
    case CL_DEVICE_ERROR_CORRECTION_SUPPORT: out.scalar(no); break;
    case CL_DEVICE_HOST_UNIFIED_MEMORY: out.scalar(no); break;
    case CL_DEVICE_PROFILING_TIMER_RESOLUTION: out.scalar<size_t>(1); break;
    case CL_DEVICE_ENDIAN_LITTLE: out.scalar(yes); break;
    case CL_DEVICE_AVAILABLE: out.scalar(yes); break;
    case CL_DEVICE_COMPILER_AVAILABLE: out.scalar<cl_bool>(compiler_available() ? CL_TRUE : CL_FALSE); break;
    case CL_DEVICE_LINKER_AVAILABLE: out.scalar<cl_bool>(compiler_available() ? CL_TRUE : CL_FALSE); break;
    case CL_DEVICE_EXECUTION_CAPABILITIES: out.scalar<cl_device_exec_capabilities>(CL_EXEC_KERNEL); break;
    case CL_DEVICE_QUEUE_PROPERTIES:
      out.scalar<cl_command_queue_properties>(CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE);
      break;
    case CL_DEVICE_PLATFORM: out.scalar(p.platform_id()); break;
    case CL_DEVICE_NAME: out.str(kDeviceName); break;
    case CL_DEVICE_VENDOR: out.str(kDeviceVendor); break;
    case CL_DRIVER_VERSION: out.str(kDriverVersion); break;
    case CL_DEVICE_PROFILE: out.str("FULL_PROFILE"); break;
    case CL_DEVICE_VERSION: out.str(kDeviceVersion); break;
    case CL_DEVICE_OPENCL_C_VERSION: out.str(kOpenCLCVersion); break;
    case CL_DEVICE_EXTENSIONS: out.str(device_extensions()); break;
    case CL_DEVICE_BUILT_IN_KERNELS: out.str(""); break;
    case CL_DEVICE_PRINTF_BUFFER_SIZE: out.scalar<size_t>(0); break;  // printf is not supported
    case CL_DEVICE_PREFERRED_INTEROP_USER_SYNC: out.scalar(yes); break;
    case CL_DEVICE_PARENT_DEVICE: out.scalar<cl_device_id>(nullptr); break;
    case CL_DEVICE_PARTITION_MAX_SUB_DEVICES: out.scalar<cl_uint>(0); break;
    case CL_DEVICE_PARTITION_PROPERTIES: out.array(std::vector<cl_device_partition_property>{0}); break;
    case CL_DEVICE_PARTITION_AFFINITY_DOMAIN: out.scalar<cl_device_affinity_domain>(0); break;
    case CL_DEVICE_PARTITION_TYPE: out.bytes(nullptr, 0); break;
    case CL_DEVICE_REFERENCE_COUNT: out.scalar<cl_uint>(1); break;
    default:
      if (!amd_device_info(param, cfg, out))
        fail(CL_INVALID_VALUE, "unknown or unsupported device query " + std::to_string(param));
  }
}

}  // namespace

cl_int CL_API_CALL clGetDeviceIDs(cl_platform_id platform, cl_device_type device_type, cl_uint num_entries,
                                  cl_device_id* devices, cl_uint* num_devices) {
  return guarded("clGetDeviceIDs", [&] {
    Platform& p = strobe::opencl::platform();
    if (platform && platform != p.platform_id()) check(platform, "platform");
    if ((num_entries == 0 && devices) || (!devices && !num_devices))
      fail(CL_INVALID_VALUE, "num_entries, devices and num_devices disagree");
    constexpr cl_device_type kKnown = CL_DEVICE_TYPE_DEFAULT | CL_DEVICE_TYPE_CPU | CL_DEVICE_TYPE_GPU |
                                      CL_DEVICE_TYPE_ACCELERATOR | CL_DEVICE_TYPE_CUSTOM;
    if (device_type != CL_DEVICE_TYPE_ALL && (device_type & ~kKnown))
      fail(CL_INVALID_DEVICE_TYPE, "unknown device type bits");
    if (!(device_type & (CL_DEVICE_TYPE_GPU | CL_DEVICE_TYPE_DEFAULT))) {
      if (num_devices) *num_devices = 0;
      fail(CL_DEVICE_NOT_FOUND, "the only device is a GPU");
    }
    if (devices) devices[0] = p.device_id();
    if (num_devices) *num_devices = 1;
  });
}

cl_int CL_API_CALL clGetDeviceInfo(cl_device_id device, cl_device_info param_name, size_t param_value_size,
                                   void* param_value, size_t* param_value_size_ret) {
  return guarded("clGetDeviceInfo", [&] {
    check_device(device);
    InfoWriter out(param_value_size, param_value, param_value_size_ret);
    device_info(param_name, out);
  });
}

cl_int CL_API_CALL clCreateSubDevices(cl_device_id in_device, const cl_device_partition_property* properties,
                                      cl_uint num_devices, cl_device_id* out_devices, cl_uint* num_devices_ret) {
  return guarded("clCreateSubDevices", [&] {
    check_device(in_device);
    // CL_DEVICE_PARTITION_PROPERTIES is empty: no partition scheme is supported.
    fail(CL_INVALID_VALUE, "the device cannot be partitioned (CL_DEVICE_PARTITION_MAX_SUB_DEVICES is 0)");
  });
}

cl_int CL_API_CALL clRetainDevice(cl_device_id device) {
  return guarded("clRetainDevice", [&] { check_device(device); });  // root devices are not counted
}

cl_int CL_API_CALL clReleaseDevice(cl_device_id device) {
  return guarded("clReleaseDevice", [&] { check_device(device); });
}
