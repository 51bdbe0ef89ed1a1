/* Images: on a device with image support, a 2D image round trip; on one without (strobe),
 * the errors the image calls return. */
#include "cl_util.h"

int main(void) {
  cl_env env = cl_setup(0);
  cl_bool images;
  CHECK(clGetDeviceInfo(env.device, CL_DEVICE_IMAGE_SUPPORT, sizeof images, &images, NULL));
  cl_image_format fmt = {CL_RGBA, CL_UNORM_INT8};
  cl_image_desc desc;
  memset(&desc, 0, sizeof desc);
  desc.image_type = CL_MEM_OBJECT_IMAGE2D;
  desc.image_width = 8;
  desc.image_height = 4;
  unsigned char pixels[8 * 4 * 4], back[8 * 4 * 4];
  for (int i = 0; i < (int)sizeof pixels; ++i) pixels[i] = (unsigned char)(i * 7);
  cl_int err;
  cl_mem img = clCreateImage(env.context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, &fmt, &desc, pixels, &err);
  if (images) {
    CHECK_ERR(err);
    size_t origin[3] = {0, 0, 0}, region[3] = {8, 4, 1};
    CHECK(clEnqueueReadImage(env.queue, img, CL_TRUE, origin, region, 0, 0, back, 0, NULL, NULL));
    printf("images: supported; round trip ok=%d\n", memcmp(pixels, back, sizeof back) == 0);
    CHECK(clReleaseMemObject(img));
  } else {
    cl_uint formats = 99;
    CHECK(clGetSupportedImageFormats(env.context, CL_MEM_READ_WRITE, CL_MEM_OBJECT_IMAGE2D, 0, NULL, &formats));
    cl_int sampler_err;
    cl_sampler s = clCreateSampler(env.context, CL_FALSE, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST, &sampler_err);
    printf("images: not supported; clCreateImage -> %s (handle %s); clCreateSampler -> %s; formats=%u\n", cl_err(err),
           img ? "non-NULL" : "NULL", cl_err(sampler_err), formats);
    (void)s;
  }
  cl_teardown(&env);
  printf("done\n");
  return 0;
}
