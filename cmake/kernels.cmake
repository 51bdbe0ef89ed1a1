# Compiles every kernels/**/*.cl into a gfx803 code object at build time, the way ROCm compiles
# OpenCL C: clang with -nogpulib, then the ROCm device libraries (rocm-device-libs: opencl, ocml,
# ockl and the oclc_* control libraries) linked in as builtin bitcode, so every OpenCL C library
# function is AMD's own implementation, inlined into the kernel.
#
# The device libraries are LLVM 15 bitcode, which clang-14 (Debian's default) cannot read; so
# clang-15 builds code object v4 (and v2/v3 of the test kernels), and clang-19, when installed,
# builds the same sources as code object v5 into a parallel tree so the loader and decoder are
# proven against both compilers, and for gfx942 into gfx942-kernels, which strobe disassembles
# (and checks against llvm-objdump-19) but does not yet run.

# Cached under names of their own: a build tree configured when clang-14 built the kernels keeps
# its STROBE_CLANG cache entry, which must not win over the compiler that reads the libraries.
find_program(STROBE_CLANG15 NAMES clang-15 REQUIRED)
find_program(STROBE_LLD15 NAMES ld.lld-15 REQUIRED)
set(STROBE_CLANG ${STROBE_CLANG15})
set(STROBE_LLD ${STROBE_LLD15})
find_program(STROBE_CLANG19 NAMES clang-19)
find_program(STROBE_LLD19 NAMES ld.lld-19)
find_path(STROBE_DEVICE_LIBS ocml.bc REQUIRED
          PATHS /usr/lib/${CMAKE_LIBRARY_ARCHITECTURE}/amdgcn/bitcode /usr/lib/x86_64-linux-gnu/amdgcn/bitcode
                /usr/lib/amdgcn/bitcode /opt/rocm/amdgcn/bitcode
          NO_DEFAULT_PATH
          DOC "directory of the ROCm device libraries (ocml.bc, ockl.bc, opencl.bc, oclc_*.bc)")

set(STROBE_KERNEL_OUT ${CMAKE_BINARY_DIR}/kernels)
set(STROBE_KERNEL_OUT_V5 ${CMAKE_BINARY_DIR}/kernels-clang19)
set(STROBE_KERNEL_FLAGS -cl-std=CL2.0 -target amdgcn-amd-amdhsa -mcpu=gfx803 -nogpulib -O3
    -Xclang -finclude-default-header)

# The libraries ROCm's driver links for default OpenCL options (finite and safe math) plus a
# correctly rounded float sqrt, as the benchmarks' references expect. gfx803 has no fast f32
# denormals, so clang compiles f32 code flushing them (-fdenormal-fp-math-f32=preserve-sign; the
# kernel's MODE says so) and ROCm's driver links oclc_daz_opt_on to match: with _off, ocml's
# denormal scaling paths run in a flushing mode and return garbage (cbrt of 2^-149 was NaN). `abi` is
# 400 for code objects v2-v4 and 500 for v5: it selects where ockl finds the hidden arguments.
function(strobe_device_lib_flags out abi)
  set(flags)
  foreach(lib opencl ocml ockl oclc_finite_only_off oclc_unsafe_math_off oclc_daz_opt_on
              oclc_correctly_rounded_sqrt_on oclc_wavefrontsize64_on oclc_isa_version_803 oclc_abi_version_${abi})
    list(APPEND flags -Xclang -mlink-builtin-bitcode -Xclang ${STROBE_DEVICE_LIBS}/${lib}.bc)
  endforeach()
  set(${out} ${flags} PARENT_SCOPE)
endfunction()
strobe_device_lib_flags(STROBE_DEVICE_LIBS_V4 400)
strobe_device_lib_flags(STROBE_DEVICE_LIBS_V5 500)
# gfx942: ROCm 5.2.3's libraries know gfx940 (the same ISA version for the device libraries), and
# gfx942 has f32 denormals at full speed, so code keeps them (daz_opt_off).
set(STROBE_DEVICE_LIBS_GFX942)
foreach(lib opencl ocml ockl oclc_finite_only_off oclc_unsafe_math_off oclc_daz_opt_off
            oclc_correctly_rounded_sqrt_on oclc_wavefrontsize64_on oclc_isa_version_940 oclc_abi_version_500)
  list(APPEND STROBE_DEVICE_LIBS_GFX942 -Xclang -mlink-builtin-bitcode -Xclang ${STROBE_DEVICE_LIBS}/${lib}.bc)
endforeach()
file(GLOB STROBE_DEVICE_LIB_FILES ${STROBE_DEVICE_LIBS}/*.bc)

file(GLOB_RECURSE STROBE_KERNEL_SOURCES CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/kernels/*.cl)
# kernels/gfx942 uses gfx942's matrix cores, so it is built for gfx942 alone (below).
list(FILTER STROBE_KERNEL_SOURCES EXCLUDE REGEX "/kernels/gfx942/")
file(GLOB_RECURSE STROBE_KERNEL_HEADERS CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/kernels/*.h)
set(STROBE_KERNEL_OUTPUTS)

# strobe_compile_kernel(<src> <out> <clang> <lld> [extra flags...])
function(strobe_compile_kernel src out clang lld)
  get_filename_component(dir ${out} DIRECTORY)
  add_custom_command(
    OUTPUT ${out}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${dir}
    COMMAND ${clang} ${STROBE_KERNEL_FLAGS} ${ARGN} -c ${src} -o ${out}.o
    COMMAND ${lld} -shared ${out}.o -o ${out}
    COMMAND ${CMAKE_COMMAND} -E remove ${out}.o
    DEPENDS ${src} ${STROBE_KERNEL_HEADERS} ${STROBE_DEVICE_LIB_FILES}
    COMMENT "Building GPU kernel ${out}"
    VERBATIM)
endfunction()

foreach(src ${STROBE_KERNEL_SOURCES})
  file(RELATIVE_PATH rel ${PROJECT_SOURCE_DIR}/kernels ${src})
  string(REGEX REPLACE "\\.cl$" "" stem ${rel})
  # kernels/O0 is built unoptimised, as debug builds are: every function out of line, every
  # value on the stack (the later -O0 overrides -O3).
  set(opt)
  if(rel MATCHES "^O0/")
    set(opt -O0)
  endif()
  strobe_compile_kernel(${src} ${STROBE_KERNEL_OUT}/${stem}.hsaco ${STROBE_CLANG} ${STROBE_LLD}
                        ${STROBE_DEVICE_LIBS_V4} ${opt})
  list(APPEND STROBE_KERNEL_OUTPUTS ${STROBE_KERNEL_OUT}/${stem}.hsaco)
  if(STROBE_CLANG19 AND STROBE_LLD19)
    strobe_compile_kernel(${src} ${STROBE_KERNEL_OUT_V5}/${stem}.hsaco ${STROBE_CLANG19} ${STROBE_LLD19}
                          ${STROBE_DEVICE_LIBS_V5} ${opt})
    list(APPEND STROBE_KERNEL_OUTPUTS ${STROBE_KERNEL_OUT_V5}/${stem}.hsaco)
    # The later -mcpu wins over STROBE_KERNEL_FLAGS' gfx803.
    strobe_compile_kernel(${src} ${CMAKE_BINARY_DIR}/gfx942-kernels/${stem}.hsaco ${STROBE_CLANG19} ${STROBE_LLD19}
                          -mcpu=gfx942 ${STROBE_DEVICE_LIBS_GFX942} ${opt})
    list(APPEND STROBE_KERNEL_OUTPUTS ${CMAKE_BINARY_DIR}/gfx942-kernels/${stem}.hsaco)
  endif()
endforeach()

# Kernels only gfx942 can run: matrix-core microbenchmarks and GEMMs written with MFMA builtins.
file(GLOB STROBE_GFX942_ONLY_KERNELS CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/kernels/gfx942/*.cl)
if(STROBE_CLANG19 AND STROBE_LLD19)
  foreach(src ${STROBE_GFX942_ONLY_KERNELS})
    get_filename_component(stem ${src} NAME_WE)
    strobe_compile_kernel(${src} ${CMAKE_BINARY_DIR}/gfx942-kernels/gfx942/${stem}.hsaco ${STROBE_CLANG19} ${STROBE_LLD19}
                          -mcpu=gfx942 ${STROBE_DEVICE_LIBS_GFX942})
    list(APPEND STROBE_KERNEL_OUTPUTS ${CMAKE_BINARY_DIR}/gfx942-kernels/gfx942/${stem}.hsaco)
  endforeach()
endif()

# Older code object versions, from the test kernels only: the loader must accept v2 and v3.
file(GLOB STROBE_LEGACY_KERNELS CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/kernels/tests/*.cl)
foreach(src ${STROBE_LEGACY_KERNELS})
  get_filename_component(stem ${src} NAME_WE)
  foreach(v 2 3)
    strobe_compile_kernel(${src} ${CMAKE_BINARY_DIR}/kernels-v${v}/${stem}.hsaco ${STROBE_CLANG} ${STROBE_LLD}
                          ${STROBE_DEVICE_LIBS_V4} -mcode-object-version=${v})
    list(APPEND STROBE_KERNEL_OUTPUTS ${CMAKE_BINARY_DIR}/kernels-v${v}/${stem}.hsaco)
  endforeach()
endforeach()

add_custom_target(strobe_kernels ALL DEPENDS ${STROBE_KERNEL_OUTPUTS})
