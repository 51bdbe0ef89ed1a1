# Foreign code objects: built by other toolchains the way their users build them, so the loader,
# the emulator and `strobe disasm` are proven on code strobe's own kernel build never produces.
#
#   build/kernels-hip/O3/<stem>.hsaco      hipcc (ROCm 5.2, clang-15) device code, -O3
#   build/kernels-hip/O0/<stem>.hsaco      the same at -O0: real calls, device-library functions
#   build/kernels-hip/labels/<stem>.hsaco  -O3 keeping local branch-target symbols (.LBB0_3)
#   build/kernels-hip/app/vec_scale_app    a linked HIP program, and its extracted .hsaco
#   build/kernels-devlibs/<stem>.hsaco     OpenCL, clang-15 + ROCm device libraries (ocml, ockl)
#   build/kernels-devlibs-labels/...       the same keeping branch-target symbols
#   build/kernels-amdgizcl/<stem>.hsaco    code object v2 whose ISA name carries an environment,
#                                          as ROCm's and AMDGPU-PRO's OpenCL compilers write it
#
# Each family is built only where its toolchain is installed (scripts/setup installs them all).

find_program(STROBE_HIPCC NAMES hipcc)
find_program(STROBE_FOREIGN_CLANG NAMES clang-15)
find_program(STROBE_FOREIGN_LLD NAMES ld.lld-19 ld.lld-15)
set(STROBE_DEVICE_LIB_DIR /usr/lib/x86_64-linux-gnu/amdgcn/bitcode CACHE PATH "ROCm device library bitcode")

set(STROBE_FOREIGN_OUTPUTS)
# -msave-temp-labels keeps the assembler's .L labels as local symbols, which is what objects
# built by ROCm's older LLVM carry (BB0_3): llvm-objdump then names branch targets by them.
set(STROBE_KEEP_LABELS -Xclang -msave-temp-labels)

if(STROBE_HIPCC)
  file(GLOB STROBE_HIP_SOURCES CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/kernels/hip/*.hip)
  foreach(src ${STROBE_HIP_SOURCES})
    get_filename_component(stem ${src} NAME_WE)
    foreach(flavour O3 O0 labels)
      set(flags -O3)
      if(flavour STREQUAL "O0")
        set(flags -O0)
      elseif(flavour STREQUAL "labels")
        set(flags -O3 ${STROBE_KEEP_LABELS})
      endif()
      set(out ${CMAKE_BINARY_DIR}/kernels-hip/${flavour}/${stem}.hsaco)
      # --no-gpu-bundle-output writes the device code object itself rather than an offload bundle.
      add_custom_command(
        OUTPUT ${out}
        COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_BINARY_DIR}/kernels-hip/${flavour}
        COMMAND ${STROBE_HIPCC} --offload-arch=gfx803 --cuda-device-only --no-gpu-bundle-output ${flags} -c ${src} -o ${out}
        DEPENDS ${src}
        COMMENT "Building HIP device code ${flavour}/${stem}.hsaco"
        VERBATIM)
      list(APPEND STROBE_FOREIGN_OUTPUTS ${out})
    endforeach()
  endforeach()

  # A HIP application: the executable, and its gfx803 code object taken out of .hip_fatbin the
  # way docs/compatibility.md tells users to (objcopy, then clang-offload-bundler).
  find_program(STROBE_OFFLOAD_BUNDLER NAMES clang-offload-bundler-15 clang-offload-bundler
               HINTS /usr/lib/llvm-15/bin)
  find_program(STROBE_FOREIGN_OBJCOPY NAMES llvm-objcopy-15 llvm-objcopy-14 llvm-objcopy)
  if(STROBE_OFFLOAD_BUNDLER AND STROBE_FOREIGN_OBJCOPY)
    set(src ${PROJECT_SOURCE_DIR}/kernels/hip/host/vec_scale_app.hip)
    set(dir ${CMAKE_BINARY_DIR}/kernels-hip/app)
    add_custom_command(
      OUTPUT ${dir}/vec_scale_app ${dir}/vec_scale_app.hsaco
      COMMAND ${CMAKE_COMMAND} -E make_directory ${dir}
      COMMAND ${STROBE_HIPCC} --offload-arch=gfx803 -O3 ${src} -o ${dir}/vec_scale_app
      COMMAND ${STROBE_FOREIGN_OBJCOPY} --dump-section .hip_fatbin=${dir}/vec_scale_app.fatbin ${dir}/vec_scale_app
      COMMAND ${STROBE_OFFLOAD_BUNDLER} --unbundle --type=o --targets=hipv4-amdgcn-amd-amdhsa--gfx803
              --input=${dir}/vec_scale_app.fatbin --output=${dir}/vec_scale_app.hsaco
      COMMAND ${CMAKE_COMMAND} -E remove ${dir}/vec_scale_app.fatbin
      DEPENDS ${src}
      COMMENT "Building HIP application vec_scale_app and extracting its device code"
      VERBATIM)
    list(APPEND STROBE_FOREIGN_OUTPUTS ${dir}/vec_scale_app ${dir}/vec_scale_app.hsaco)
  endif()
endif()

if(STROBE_FOREIGN_CLANG AND STROBE_FOREIGN_LLD AND EXISTS ${STROBE_DEVICE_LIB_DIR}/ocml.bc)
  set(devlib_flags -x cl -cl-std=CL2.0 -mcpu=gfx803 -O3 -nogpulib -Xclang -finclude-default-header)
  foreach(lib opencl ocml ockl oclc_finite_only_off oclc_unsafe_math_off oclc_daz_opt_off
              oclc_correctly_rounded_sqrt_on oclc_wavefrontsize64_on oclc_isa_version_803 oclc_abi_version_400)
    list(APPEND devlib_flags -Xclang -mlink-builtin-bitcode -Xclang ${STROBE_DEVICE_LIB_DIR}/${lib}.bc)
  endforeach()
  # A handful of the test kernels: plain arithmetic, ocml math, LDS and barriers, atomics, f64.
  set(STROBE_DEVLIB_KERNELS vecadd math_builtins reduce_sum atomics_global f64_ops int_div)

  # strobe_foreign_devlib_kernel(<stem> <outdir> <target triple> [extra flags...])
  function(strobe_foreign_devlib_kernel stem outdir triple)
    set(src ${PROJECT_SOURCE_DIR}/kernels/tests/${stem}.cl)
    set(out ${CMAKE_BINARY_DIR}/${outdir}/${stem}.hsaco)
    add_custom_command(
      OUTPUT ${out}
      COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_BINARY_DIR}/${outdir}
      COMMAND ${STROBE_FOREIGN_CLANG} -target ${triple} ${devlib_flags} ${ARGN} -c ${src} -o ${out}.o
      COMMAND ${STROBE_FOREIGN_LLD} -shared ${out}.o -o ${out}
      COMMAND ${CMAKE_COMMAND} -E remove ${out}.o
      DEPENDS ${src}
      COMMENT "Building device-library OpenCL kernel ${outdir}/${stem}.hsaco"
      VERBATIM)
    set(STROBE_FOREIGN_OUTPUTS ${STROBE_FOREIGN_OUTPUTS} ${out} PARENT_SCOPE)
  endfunction()

  foreach(stem ${STROBE_DEVLIB_KERNELS})
    strobe_foreign_devlib_kernel(${stem} kernels-devlibs amdgcn-amd-amdhsa)
    strobe_foreign_devlib_kernel(${stem} kernels-devlibs-labels amdgcn-amd-amdhsa ${STROBE_KEEP_LABELS})
  endforeach()
  foreach(stem vecadd reduce_sum)
    strobe_foreign_devlib_kernel(${stem} kernels-amdgizcl amdgcn-amd-amdhsa-amdgizcl -mcode-object-version=2)
  endforeach()
endif()

add_custom_target(strobe_foreign_kernels ALL DEPENDS ${STROBE_FOREIGN_OUTPUTS})
