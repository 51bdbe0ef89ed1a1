// The cl_khr_icd dispatch table: every slot of the Khronos table is filled, either with the
// implementation or with an entry point that reports the feature as unsupported.
#include "opencl/api.h"
#include "opencl/unsupported.h"

namespace strobe::opencl {

namespace {

cl_icd_dispatch make_table() {
  cl_icd_dispatch t{};
#define S(name) t.name = &::name;
#define U(name, code) t.name = &Unsupported<decltype(t.name)>::fn<#name, code>;
  // OpenCL 1.0
  S(clGetPlatformIDs) S(clGetPlatformInfo) S(clGetDeviceIDs) S(clGetDeviceInfo)
  S(clCreateContext) S(clCreateContextFromType) S(clRetainContext) S(clReleaseContext) S(clGetContextInfo)
  S(clCreateCommandQueue) S(clRetainCommandQueue) S(clReleaseCommandQueue) S(clGetCommandQueueInfo)
  S(clSetCommandQueueProperty)
  S(clCreateBuffer) S(clCreateImage2D) S(clCreateImage3D) S(clRetainMemObject) S(clReleaseMemObject)
  S(clGetSupportedImageFormats) S(clGetMemObjectInfo)
  U(clGetImageInfo, CL_INVALID_MEM_OBJECT)
  S(clCreateSampler)
  U(clRetainSampler, CL_INVALID_SAMPLER) U(clReleaseSampler, CL_INVALID_SAMPLER) U(clGetSamplerInfo, CL_INVALID_SAMPLER)
  S(clCreateProgramWithSource) S(clCreateProgramWithBinary) S(clRetainProgram) S(clReleaseProgram)
  S(clBuildProgram) S(clUnloadCompiler) S(clGetProgramInfo) S(clGetProgramBuildInfo)
  S(clCreateKernel) S(clCreateKernelsInProgram) S(clRetainKernel) S(clReleaseKernel) S(clSetKernelArg)
  S(clGetKernelInfo) S(clGetKernelWorkGroupInfo)
  S(clWaitForEvents) S(clGetEventInfo) S(clRetainEvent) S(clReleaseEvent) S(clGetEventProfilingInfo)
  S(clFlush) S(clFinish)
  S(clEnqueueReadBuffer) S(clEnqueueWriteBuffer) S(clEnqueueCopyBuffer)
  U(clEnqueueReadImage, CL_INVALID_OPERATION) U(clEnqueueWriteImage, CL_INVALID_OPERATION)
  U(clEnqueueCopyImage, CL_INVALID_OPERATION) U(clEnqueueCopyImageToBuffer, CL_INVALID_OPERATION)
  U(clEnqueueCopyBufferToImage, CL_INVALID_OPERATION)
  S(clEnqueueMapBuffer)
  U(clEnqueueMapImage, CL_INVALID_OPERATION)
  S(clEnqueueUnmapMemObject) S(clEnqueueNDRangeKernel) S(clEnqueueTask) S(clEnqueueNativeKernel)
  S(clEnqueueMarker) S(clEnqueueWaitForEvents) S(clEnqueueBarrier) S(clGetExtensionFunctionAddress)
  // OpenGL sharing: no context is ever created from a GL context.
  U(clCreateFromGLBuffer, CL_INVALID_CONTEXT) U(clCreateFromGLTexture2D, CL_INVALID_CONTEXT)
  U(clCreateFromGLTexture3D, CL_INVALID_CONTEXT) U(clCreateFromGLRenderbuffer, CL_INVALID_CONTEXT)
  U(clGetGLObjectInfo, CL_INVALID_GL_OBJECT) U(clGetGLTextureInfo, CL_INVALID_GL_OBJECT)
  U(clEnqueueAcquireGLObjects, CL_INVALID_CONTEXT) U(clEnqueueReleaseGLObjects, CL_INVALID_CONTEXT)
  U(clGetGLContextInfoKHR, CL_INVALID_OPERATION)
  // OpenCL 1.1
  S(clSetEventCallback) S(clCreateSubBuffer) S(clSetMemObjectDestructorCallback) S(clCreateUserEvent)
  S(clSetUserEventStatus) S(clEnqueueReadBufferRect) S(clEnqueueWriteBufferRect) S(clEnqueueCopyBufferRect)
  U(clCreateSubDevicesEXT, CL_INVALID_OPERATION) U(clRetainDeviceEXT, CL_INVALID_OPERATION)
  U(clReleaseDeviceEXT, CL_INVALID_OPERATION)
  U(clCreateEventFromGLsyncKHR, CL_INVALID_CONTEXT)
  // OpenCL 1.2
  S(clCreateSubDevices) S(clRetainDevice) S(clReleaseDevice) S(clCreateImage)
  S(clCreateProgramWithBuiltInKernels) S(clCompileProgram) S(clLinkProgram) S(clUnloadPlatformCompiler)
  S(clGetKernelArgInfo) S(clEnqueueFillBuffer)
  U(clEnqueueFillImage, CL_INVALID_OPERATION)
  S(clEnqueueMigrateMemObjects) S(clEnqueueMarkerWithWaitList) S(clEnqueueBarrierWithWaitList)
  U(clCreateFromGLTexture, CL_INVALID_CONTEXT)
  U(clCreateFromEGLImageKHR, CL_INVALID_CONTEXT) U(clEnqueueAcquireEGLObjectsKHR, CL_INVALID_CONTEXT)
  U(clEnqueueReleaseEGLObjectsKHR, CL_INVALID_CONTEXT) U(clCreateEventFromEGLSyncKHR, CL_INVALID_CONTEXT)
  // OpenCL 2.0
  S(clCreateCommandQueueWithProperties)
  U(clCreatePipe, CL_INVALID_OPERATION) U(clGetPipeInfo, CL_INVALID_MEM_OBJECT)
  U(clSVMAlloc, CL_INVALID_OPERATION) U(clSVMFree, CL_INVALID_OPERATION)
  U(clEnqueueSVMFree, CL_INVALID_OPERATION) U(clEnqueueSVMMemcpy, CL_INVALID_OPERATION)
  U(clEnqueueSVMMemFill, CL_INVALID_OPERATION) U(clEnqueueSVMMap, CL_INVALID_OPERATION)
  U(clEnqueueSVMUnmap, CL_INVALID_OPERATION)
  S(clCreateSamplerWithProperties)
  U(clSetKernelArgSVMPointer, CL_INVALID_OPERATION) U(clSetKernelExecInfo, CL_INVALID_OPERATION)
  U(clGetKernelSubGroupInfoKHR, CL_INVALID_OPERATION)
  // OpenCL 2.1, 2.2, 3.0
  S(clCloneKernel) S(clCreateProgramWithIL)
  U(clEnqueueSVMMigrateMem, CL_INVALID_OPERATION) U(clGetDeviceAndHostTimer, CL_INVALID_OPERATION)
  U(clGetHostTimer, CL_INVALID_OPERATION) U(clGetKernelSubGroupInfo, CL_INVALID_OPERATION)
  U(clSetDefaultDeviceCommandQueue, CL_INVALID_OPERATION)
  U(clSetProgramReleaseCallback, CL_INVALID_OPERATION) U(clSetProgramSpecializationConstant, CL_INVALID_OPERATION)
  S(clCreateBufferWithProperties) S(clCreateImageWithProperties)
  U(clSetContextDestructorCallback, CL_INVALID_OPERATION)
#undef S
#undef U
  return t;
}

}  // namespace

const cl_icd_dispatch* dispatch_table() {
  static const cl_icd_dispatch table = make_table();
  return &table;
}

}  // namespace strobe::opencl
