# Compiles every kernels/**/*.cl into a gfx803 code object at build time.
#
# Debian's default clang (14) emits code object v4; it also builds v2 and v3 when asked.
# clang-19, when installed, builds the same sources as code object v5 into a parallel tree
# so the loader and decoder are proven against both compilers.

find_program(STROBE_CLANG NAMES clang-14 clang REQUIRED)
find_program(STROBE_LLD NAMES ld.lld-14 ld.lld REQUIRED)
find_program(STROBE_CLANG19 NAMES clang-19)
find_program(STROBE_LLD19 NAMES ld.lld-19)

set(STROBE_KERNEL_OUT ${CMAKE_BINARY_DIR}/kernels)
set(STROBE_KERNEL_OUT_V5 ${CMAKE_BINARY_DIR}/kernels-clang19)
set(STROBE_KERNEL_INCLUDE ${PROJECT_SOURCE_DIR}/kernels/include)
set(STROBE_KERNEL_FLAGS -cl-std=CL2.0 -target amdgcn-amd-amdhsa -mcpu=gfx803 -nogpulib -O3
    -Xclang -finclude-default-header -include ${STROBE_KERNEL_INCLUDE}/strobe_cl.h -I ${STROBE_KERNEL_INCLUDE})

file(GLOB_RECURSE STROBE_KERNEL_SOURCES CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/kernels/*.cl)
file(GLOB STROBE_KERNEL_HEADERS CONFIGURE_DEPENDS ${STROBE_KERNEL_INCLUDE}/*.h)
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
    DEPENDS ${src} ${STROBE_KERNEL_HEADERS}
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
  strobe_compile_kernel(${src} ${STROBE_KERNEL_OUT}/${stem}.hsaco ${STROBE_CLANG} ${STROBE_LLD} ${opt})
  list(APPEND STROBE_KERNEL_OUTPUTS ${STROBE_KERNEL_OUT}/${stem}.hsaco)
  if(STROBE_CLANG19 AND STROBE_LLD19)
    strobe_compile_kernel(${src} ${STROBE_KERNEL_OUT_V5}/${stem}.hsaco ${STROBE_CLANG19} ${STROBE_LLD19} ${opt})
    list(APPEND STROBE_KERNEL_OUTPUTS ${STROBE_KERNEL_OUT_V5}/${stem}.hsaco)
  endif()
endforeach()

# Older code object versions, from the test kernels only: the loader must accept v2 and v3.
file(GLOB STROBE_LEGACY_KERNELS CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/kernels/tests/*.cl)
foreach(src ${STROBE_LEGACY_KERNELS})
  get_filename_component(stem ${src} NAME_WE)
  foreach(v 2 3)
    strobe_compile_kernel(${src} ${CMAKE_BINARY_DIR}/kernels-v${v}/${stem}.hsaco ${STROBE_CLANG} ${STROBE_LLD}
                          -mcode-object-version=${v})
    list(APPEND STROBE_KERNEL_OUTPUTS ${CMAKE_BINARY_DIR}/kernels-v${v}/${stem}.hsaco)
  endforeach()
endforeach()

add_custom_target(strobe_kernels ALL DEPENDS ${STROBE_KERNEL_OUTPUTS})
