// Platform entry points: discovery (directly and through the ICD loader), platform queries and
// extension function lookup.
#include <cstring>
#include <string_view>

#include "opencl/api.h"
#include "opencl/platform.h"
#include "opencl/version.h"

using namespace strobe;
using namespace strobe::opencl;

namespace {

cl_int get_platform_ids(const char* api, cl_uint num_entries, cl_platform_id* platforms, cl_uint* num_platforms) {
  if ((num_entries == 0 && platforms) || (!platforms && !num_platforms)) return CL_INVALID_VALUE;
  Platform* p = Platform::instance();
  if (!p) {
    if (num_platforms) *num_platforms = 0;
    return CL_PLATFORM_NOT_FOUND_KHR;
  }
  if (platforms) platforms[0] = p->platform_id();
  if (num_platforms) *num_platforms = 1;
  (void)api;
  return CL_SUCCESS;
}

}  // namespace

cl_int CL_API_CALL clGetPlatformIDs(cl_uint num_entries, cl_platform_id* platforms, cl_uint* num_platforms) {
  return get_platform_ids("clGetPlatformIDs", num_entries, platforms, num_platforms);
}

extern "C" CL_API_ENTRY cl_int CL_API_CALL clIcdGetPlatformIDsKHR(cl_uint num_entries, cl_platform_id* platforms,
                                                                 cl_uint* num_platforms) {
  return get_platform_ids("clIcdGetPlatformIDsKHR", num_entries, platforms, num_platforms);
}

cl_int CL_API_CALL clGetPlatformInfo(cl_platform_id platform, cl_platform_info param_name, size_t param_value_size,
                                     void* param_value, size_t* param_value_size_ret) {
  return guarded("clGetPlatformInfo", [&] {
    Platform& p = strobe::opencl::platform();
    if (platform && platform != p.platform_id()) check(platform, "platform");
    InfoWriter out(param_value_size, param_value, param_value_size_ret);
    switch (param_name) {
      case CL_PLATFORM_PROFILE: out.str("FULL_PROFILE"); break;
      case CL_PLATFORM_VERSION: out.str(kPlatformVersion); break;
      case CL_PLATFORM_NAME: out.str("strobe"); break;
      case CL_PLATFORM_VENDOR: out.str(kVendor); break;
      case CL_PLATFORM_EXTENSIONS: out.str("cl_khr_icd"); break;
      case CL_PLATFORM_ICD_SUFFIX_KHR: out.str("strobe"); break;
      default: fail(CL_INVALID_VALUE, "unknown platform query " + std::to_string(param_name));
    }
  });
}

void* CL_API_CALL clGetExtensionFunctionAddress(const char* func_name) {
  if (!func_name) return nullptr;
  std::string_view name(func_name);
  if (name == "clIcdGetPlatformIDsKHR") return reinterpret_cast<void*>(&clIcdGetPlatformIDsKHR);
  return nullptr;
}

void* CL_API_CALL clGetExtensionFunctionAddressForPlatform(cl_platform_id platform, const char* func_name) {
  Platform* p = Platform::instance();
  if (!p || platform != p->platform_id()) return nullptr;
  return clGetExtensionFunctionAddress(func_name);
}

cl_int CL_API_CALL clUnloadCompiler() { return CL_SUCCESS; }

cl_int CL_API_CALL clUnloadPlatformCompiler(cl_platform_id platform) {
  return guarded("clUnloadPlatformCompiler", [&] {
    if (platform != strobe::opencl::platform().platform_id()) check(platform, "platform");
  });
}
