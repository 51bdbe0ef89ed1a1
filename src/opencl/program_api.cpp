// Program entry points: creation from source or binary, build/compile/link, queries.
#include <cstring>

#include <fmt/core.h>

#include "common/error.h"
#include "opencl/api.h"
#include "opencl/compiler.h"
#include "opencl/platform.h"

using namespace strobe;
using namespace strobe::opencl;

namespace strobe::opencl {

void destroy(cl_program p) {
  release(p->context);
  delete p;
}

}  // namespace strobe::opencl

namespace {

using BuildNotify = void(CL_CALLBACK*)(cl_program, void*);

void check_devices(cl_uint num_devices, const cl_device_id* devices) {
  if ((num_devices == 0) != (devices == nullptr)) fail(CL_INVALID_VALUE, "num_devices and device_list disagree");
  for (cl_uint i = 0; i < num_devices; ++i)
    if (devices[i] != platform().device_id()) fail(CL_INVALID_DEVICE, "device_list names a device outside the context");
}

cl_program new_program(cl_context context) {
  auto p = std::make_unique<_cl_program>();
  p->context = context;
  retain(context);
  register_object(p.get());
  return p.release();
}

/// Parses an executable code object and loads it into device memory. Throws strobe::InputError.
std::shared_ptr<const ProgramImage> load_image(const std::vector<uint8_t>& binary) {
  auto co = loader::CodeObject::parse(binary, "program binary");
  Platform& p = platform();
  auto image = std::make_shared<ProgramImage>();
  std::lock_guard lock(p.device_mutex());
  image->module = &p.device().load(std::move(co));
  for (const auto& k : image->module->code_object().kernels()) image->kernel_names.push_back(k.name);
  return image;
}

/// Makes `prog` executable from `binary` (lock held); false with the reason in the log.
bool install_executable(cl_program prog, std::vector<uint8_t> binary) {
  try {
    prog->image = load_image(binary);
  } catch (const strobe::Error& e) {
    prog->log += std::string("strobe: the code object cannot be loaded: ") + e.what() + "\n";
    prog->status = CL_BUILD_ERROR;
    return false;
  }
  prog->binary = std::move(binary);
  prog->binary_type = CL_PROGRAM_BINARY_TYPE_EXECUTABLE;
  prog->status = CL_BUILD_SUCCESS;
  return true;
}

cl_int build(cl_program prog, const char* options) {
  std::lock_guard lock(prog->mu);
  if (prog->kernels.load()) fail(CL_INVALID_OPERATION, "kernels are attached to the program");
  prog->options = options ? options : "";
  prog->log.clear();
  prog->image.reset();
  BuildOptions opts;
  try {
    opts = parse_compile_options(prog->options, CL_INVALID_BUILD_OPTIONS);
  } catch (const ClError& e) {
    prog->log = std::string("strobe: ") + e.what() + "\n";
    prog->status = CL_BUILD_ERROR;
    return e.code();
  }
  BuildOutput out;
  if (prog->has_source) {
    out = build_executable(prog->source, opts);
  } else if (prog->binary.empty()) {
    fail(CL_INVALID_PROGRAM, "the program has neither source nor binary");
  } else if (is_relocatable(prog->binary)) {
    out = link_objects({prog->binary}, false);
    if (!out.ok) out.error = CL_BUILD_PROGRAM_FAILURE;
  } else {
    out.ok = true;
    out.binary = prog->binary;
  }
  prog->log = out.log;
  if (!out.ok) {
    prog->status = CL_BUILD_ERROR;
    return out.error;
  }
  prog->kernel_arg_info = opts.kernel_arg_info;
  if (!install_executable(prog, std::move(out.binary)))
    return prog->has_source ? CL_BUILD_PROGRAM_FAILURE : CL_INVALID_BINARY;
  return CL_SUCCESS;
}

}  // namespace

cl_program CL_API_CALL clCreateProgramWithSource(cl_context context, cl_uint count, const char** strings,
                                                 const size_t* lengths, cl_int* errcode_ret) {
  return guarded_create("clCreateProgramWithSource", errcode_ret, [&] {
    check(context, "context");
    if (count == 0 || !strings) fail(CL_INVALID_VALUE, "no source strings");
    std::string source;
    for (cl_uint i = 0; i < count; ++i) {
      if (!strings[i]) fail(CL_INVALID_VALUE, "strings[" + std::to_string(i) + "] is NULL");
      if (lengths && lengths[i]) source.append(strings[i], lengths[i]);
      else source.append(strings[i]);
    }
    cl_program p = new_program(context);
    p->source = std::move(source);
    p->has_source = true;
    return p;
  });
}

cl_program CL_API_CALL clCreateProgramWithBinary(cl_context context, cl_uint num_devices, const cl_device_id* devices,
                                                 const size_t* lengths, const unsigned char** binaries,
                                                 cl_int* binary_status, cl_int* errcode_ret) {
  return guarded_create("clCreateProgramWithBinary", errcode_ret, [&] {
    check(context, "context");
    if (num_devices == 0 || !devices) fail(CL_INVALID_VALUE, "no devices given");
    check_devices(num_devices, devices);
    if (num_devices != 1) fail(CL_INVALID_DEVICE, "the context has one device");
    if (!lengths || !binaries || lengths[0] == 0 || !binaries[0]) {
      if (binary_status) binary_status[0] = CL_INVALID_VALUE;
      fail(CL_INVALID_VALUE, "lengths or binaries is NULL or empty");
    }
    std::vector<uint8_t> bytes(binaries[0], binaries[0] + lengths[0]);
    cl_program_binary_type type = CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT;
    if (!is_relocatable(bytes)) {
      try {
        (void)loader::CodeObject::parse(bytes, "program binary");
      } catch (const strobe::Error& e) {
        if (binary_status) binary_status[0] = CL_INVALID_BINARY;
        fail(CL_INVALID_BINARY, e.what());
      }
      type = CL_PROGRAM_BINARY_TYPE_EXECUTABLE;
    }
    if (binary_status) binary_status[0] = CL_SUCCESS;
    cl_program p = new_program(context);
    p->binary = std::move(bytes);
    p->binary_type = type;
    return p;
  });
}

cl_program CL_API_CALL clCreateProgramWithBuiltInKernels(cl_context context, cl_uint num_devices,
                                                         const cl_device_id* devices, const char* kernel_names,
                                                         cl_int* errcode_ret) {
  return guarded_create("clCreateProgramWithBuiltInKernels", errcode_ret, [&]() -> cl_program {
    check(context, "context");
    check_devices(num_devices, devices);
    fail(CL_INVALID_VALUE, "the device has no built-in kernels (CL_DEVICE_BUILT_IN_KERNELS is empty)");
  });
}

cl_program CL_API_CALL clCreateProgramWithIL(cl_context context, const void*, size_t, cl_int* errcode_ret) {
  return guarded_create("clCreateProgramWithIL", errcode_ret, [&]() -> cl_program {
    check(context, "context");
    fail(CL_INVALID_OPERATION, "intermediate language (SPIR-V) programs are not supported");
  });
}

cl_int CL_API_CALL clRetainProgram(cl_program program) {
  return guarded("clRetainProgram", [&] { retain(program); });
}

cl_int CL_API_CALL clReleaseProgram(cl_program program) {
  return guarded("clReleaseProgram", [&] { release(check(program, "program")); });
}

cl_int CL_API_CALL clBuildProgram(cl_program program, cl_uint num_devices, const cl_device_id* device_list,
                                  const char* options, BuildNotify pfn_notify, void* user_data) {
  return guarded_rc("clBuildProgram", [&] {
    check(program, "program");
    check_devices(num_devices, device_list);
    if (!pfn_notify && user_data) fail(CL_INVALID_VALUE, "user_data given without pfn_notify");
    cl_int rc = build(program, options);
    if (pfn_notify) pfn_notify(program, user_data);
    return rc;
  });
}

cl_int CL_API_CALL clCompileProgram(cl_program program, cl_uint num_devices, const cl_device_id* device_list,
                                    const char* options, cl_uint num_input_headers, const cl_program* input_headers,
                                    const char** header_include_names, BuildNotify pfn_notify, void* user_data) {
  return guarded_rc("clCompileProgram", [&] {
    check(program, "program");
    check_devices(num_devices, device_list);
    if (!pfn_notify && user_data) fail(CL_INVALID_VALUE, "user_data given without pfn_notify");
    if (num_input_headers && (!input_headers || !header_include_names))
      fail(CL_INVALID_VALUE, "num_input_headers without input_headers or header_include_names");
    std::vector<NamedHeader> headers;
    for (cl_uint i = 0; i < num_input_headers; ++i) {
      check(input_headers[i], "input_headers[i]");
      if (!header_include_names[i]) fail(CL_INVALID_VALUE, "header_include_names[i] is NULL");
      // The headers are written under the build's scratch directory: names must stay inside it.
      std::string_view name = header_include_names[i];
      if (name.empty() || name.front() == '/' || name == ".." || name.starts_with("../") ||
          name.find("/../") != std::string_view::npos || name.ends_with("/.."))
        fail(CL_INVALID_VALUE, std::string("header_include_names[i] '") + header_include_names[i] +
                                   "' must be a relative path without '..'");
      headers.emplace_back(header_include_names[i], input_headers[i]->source);
    }
    cl_int rc = CL_SUCCESS;
    {
      std::lock_guard lock(program->mu);
      if (!program->has_source) fail(CL_INVALID_OPERATION, "the program was not created from source");
      if (program->kernels.load()) fail(CL_INVALID_OPERATION, "kernels are attached to the program");
      program->options = options ? options : "";
      program->image.reset();
      BuildOptions opts;
      BuildOutput out;
      try {
        opts = parse_compile_options(program->options, CL_INVALID_COMPILER_OPTIONS);
        out = compile_object(program->source, opts, headers);
      } catch (const ClError& e) {
        out.error = e.code();
        out.log = std::string("strobe: ") + e.what() + "\n";
      }
      program->log = out.log;
      if (out.ok) {
        program->binary = std::move(out.binary);
        program->binary_type = CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT;
        program->status = CL_BUILD_SUCCESS;
        program->kernel_arg_info = opts.kernel_arg_info;
      } else {
        program->status = CL_BUILD_ERROR;
        rc = out.error == CL_BUILD_PROGRAM_FAILURE   ? CL_COMPILE_PROGRAM_FAILURE
             : out.error == CL_INVALID_BUILD_OPTIONS ? CL_INVALID_COMPILER_OPTIONS
                                                     : out.error;
      }
    }
    if (pfn_notify) pfn_notify(program, user_data);
    return rc;
  });
}

cl_program CL_API_CALL clLinkProgram(cl_context context, cl_uint num_devices, const cl_device_id* device_list,
                                     const char* options, cl_uint num_input_programs, const cl_program* input_programs,
                                     BuildNotify pfn_notify, void* user_data, cl_int* errcode_ret) {
  cl_int link_rc = CL_SUCCESS;
  cl_program result = guarded_create("clLinkProgram", errcode_ret, [&] {
    check(context, "context");
    check_devices(num_devices, device_list);
    if (!pfn_notify && user_data) fail(CL_INVALID_VALUE, "user_data given without pfn_notify");
    if (num_input_programs == 0 || !input_programs) fail(CL_INVALID_VALUE, "no input programs");
    BuildOptions opts = parse_link_options(options ? options : "");
    std::vector<std::vector<uint8_t>> objects;
    bool arg_info = true;
    for (cl_uint i = 0; i < num_input_programs; ++i) {
      cl_program in = check(input_programs[i], "input_programs[i]");
      if (in->context != context) fail(CL_INVALID_CONTEXT, "an input program belongs to another context");
      std::lock_guard lock(in->mu);
      if (in->binary_type != CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT && in->binary_type != CL_PROGRAM_BINARY_TYPE_LIBRARY)
        fail(CL_INVALID_OPERATION, "input program " + std::to_string(i) + " is not a compiled object or library");
      objects.push_back(in->binary);
      arg_info &= in->kernel_arg_info;
    }
    BuildOutput out = link_objects(objects, opts.create_library);
    cl_program p = new_program(context);
    std::lock_guard lock(p->mu);
    p->options = options ? options : "";
    p->log = opts.notes + out.log;
    p->kernel_arg_info = arg_info;
    if (!out.ok) {
      p->status = CL_BUILD_ERROR;
      link_rc = CL_LINK_PROGRAM_FAILURE;
    } else if (opts.create_library) {
      p->binary = std::move(out.binary);
      p->binary_type = CL_PROGRAM_BINARY_TYPE_LIBRARY;
      p->status = CL_BUILD_SUCCESS;
    } else if (!install_executable(p, std::move(out.binary))) {
      link_rc = CL_LINK_PROGRAM_FAILURE;
    }
    return p;
  });
  if (result && pfn_notify) pfn_notify(result, user_data);
  if (result && link_rc != CL_SUCCESS && errcode_ret) *errcode_ret = link_rc;
  return result;
}

cl_int CL_API_CALL clGetProgramInfo(cl_program program, cl_program_info param_name, size_t param_value_size,
                                    void* param_value, size_t* param_value_size_ret) {
  return guarded("clGetProgramInfo", [&] {
    check(program, "program");
    std::lock_guard lock(program->mu);
    InfoWriter out(param_value_size, param_value, param_value_size_ret);
    auto executable = [&]() -> const ProgramImage& {
      if (!program->image) fail(CL_INVALID_PROGRAM_EXECUTABLE, "the program has not been built successfully");
      return *program->image;
    };
    switch (param_name) {
      case CL_PROGRAM_REFERENCE_COUNT: out.scalar<cl_uint>(program->refs.load()); break;
      case CL_PROGRAM_CONTEXT: out.scalar(program->context); break;
      case CL_PROGRAM_NUM_DEVICES: out.scalar<cl_uint>(1); break;
      case CL_PROGRAM_DEVICES: out.scalar(platform().device_id()); break;
      case CL_PROGRAM_SOURCE: out.str(program->source); break;
      case CL_PROGRAM_BINARY_SIZES: out.scalar<size_t>(program->binary.size()); break;
      case CL_PROGRAM_BINARIES: {
        // An array of one pointer; the program allocated the bytes it points at.
        if (param_value) {
          if (param_value_size < sizeof(unsigned char*)) fail(CL_INVALID_VALUE, "param_value_size is too small");
          auto* dst = static_cast<unsigned char**>(param_value)[0];
          if (dst && !program->binary.empty()) std::memcpy(dst, program->binary.data(), program->binary.size());
        }
        if (param_value_size_ret) *param_value_size_ret = sizeof(unsigned char*);
        break;
      }
      case CL_PROGRAM_NUM_KERNELS: out.scalar<size_t>(executable().kernel_names.size()); break;
      case CL_PROGRAM_KERNEL_NAMES: {
        std::string names;
        for (const auto& n : executable().kernel_names) names += (names.empty() ? "" : ";") + n;
        out.str(names);
        break;
      }
      default: fail(CL_INVALID_VALUE, "unknown program query " + std::to_string(param_name));
    }
  });
}

cl_int CL_API_CALL clGetProgramBuildInfo(cl_program program, cl_device_id device, cl_program_build_info param_name,
                                         size_t param_value_size, void* param_value, size_t* param_value_size_ret) {
  return guarded("clGetProgramBuildInfo", [&] {
    check(program, "program");
    if (device != platform().device_id()) check(device, "device");
    std::lock_guard lock(program->mu);
    InfoWriter out(param_value_size, param_value, param_value_size_ret);
    switch (param_name) {
      case CL_PROGRAM_BUILD_STATUS: out.scalar(program->status); break;
      case CL_PROGRAM_BUILD_OPTIONS: out.str(program->options); break;
      case CL_PROGRAM_BUILD_LOG: out.str(program->log); break;
      case CL_PROGRAM_BINARY_TYPE: out.scalar(program->binary_type); break;
      default: fail(CL_INVALID_VALUE, "unknown program build query " + std::to_string(param_name));
    }
  });
}
