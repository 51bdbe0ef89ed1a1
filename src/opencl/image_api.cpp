// Images and samplers: not supported (CL_DEVICE_IMAGE_SUPPORT is CL_FALSE). Creation fails with
// CL_INVALID_OPERATION, as the spec prescribes for a context whose devices lack images, after
// the usual handle checks; the format query answers that there are no formats.
#include "opencl/api.h"
#include "opencl/unsupported.h"

using namespace strobe;
using namespace strobe::opencl;

namespace strobe::opencl {

void note_unsupported(const char* api, cl_int code) {
  static const bool debug = [] {
    const char* v = std::getenv("STROBE_CL_DEBUG");
    return v && *v && v[0] != '0';
  }();
  if (debug) std::fprintf(stderr, "strobe: %s: %s: not supported by strobe\n", api, error_name(code));
}

}  // namespace strobe::opencl

namespace {

[[noreturn]] void no_images() {
  fail(CL_INVALID_OPERATION, "images are not supported (CL_DEVICE_IMAGE_SUPPORT is CL_FALSE)");
}

}  // namespace

cl_mem CL_API_CALL clCreateImage(cl_context context, cl_mem_flags, const cl_image_format*, const cl_image_desc*, void*,
                                 cl_int* errcode_ret) {
  return guarded_create("clCreateImage", errcode_ret, [&]() -> cl_mem {
    check(context, "context");
    no_images();
  });
}

cl_mem CL_API_CALL clCreateImageWithProperties(cl_context context, const cl_mem_properties*, cl_mem_flags,
                                               const cl_image_format*, const cl_image_desc*, void*, cl_int* errcode_ret) {
  return guarded_create("clCreateImageWithProperties", errcode_ret, [&]() -> cl_mem {
    check(context, "context");
    no_images();
  });
}

cl_mem CL_API_CALL clCreateImage2D(cl_context context, cl_mem_flags, const cl_image_format*, size_t, size_t, size_t,
                                   void*, cl_int* errcode_ret) {
  return guarded_create("clCreateImage2D", errcode_ret, [&]() -> cl_mem {
    check(context, "context");
    no_images();
  });
}

cl_mem CL_API_CALL clCreateImage3D(cl_context context, cl_mem_flags, const cl_image_format*, size_t, size_t, size_t,
                                   size_t, size_t, void*, cl_int* errcode_ret) {
  return guarded_create("clCreateImage3D", errcode_ret, [&]() -> cl_mem {
    check(context, "context");
    no_images();
  });
}

cl_int CL_API_CALL clGetSupportedImageFormats(cl_context context, cl_mem_flags, cl_mem_object_type, cl_uint num_entries,
                                              cl_image_format* image_formats, cl_uint* num_image_formats) {
  return guarded("clGetSupportedImageFormats", [&] {
    check(context, "context");
    if (num_entries == 0 && image_formats) fail(CL_INVALID_VALUE, "num_entries is 0 but image_formats is not NULL");
    if (num_image_formats) *num_image_formats = 0;
  });
}

cl_sampler CL_API_CALL clCreateSampler(cl_context context, cl_bool, cl_addressing_mode, cl_filter_mode,
                                       cl_int* errcode_ret) {
  return guarded_create("clCreateSampler", errcode_ret, [&]() -> cl_sampler {
    check(context, "context");
    no_images();
  });
}

cl_sampler CL_API_CALL clCreateSamplerWithProperties(cl_context context, const cl_sampler_properties*,
                                                     cl_int* errcode_ret) {
  return guarded_create("clCreateSamplerWithProperties", errcode_ret, [&]() -> cl_sampler {
    check(context, "context");
    no_images();
  });
}
