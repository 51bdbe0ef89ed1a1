// Kernels found in device memory through a dispatch packet's kernel_object: a v3+ kernel
// descriptor or a v2 amd_kernel_code_t, with the code decoded from the bytes the runtime
// placed there (the program's code objects as ROCr's loader copied them, ROCr's own blit
// kernels, HIP's copy and fill kernels).
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "isa/program.h"
#include "loader/code_object.h"

namespace strobe::hip {

/// A kernel ready to dispatch.
struct KernelCode {
  std::string name;                  ///< the kernel's symbol, or where it was found
  loader::KernelDescriptor kd;       ///< register-init and resource fields
  uint64_t entry_address = 0;        ///< first instruction
  std::shared_ptr<const isa::Program> program;  ///< the decoded code around the entry
  bool makes_calls = false;          ///< the code it can reach contains s_swappc_b64
};

/// The kernel whose descriptor is at `kernel_object`, decoded on first use and cached. Throws
/// InputError naming the address and the problem (not mapped, a descriptor for another GPU,
/// no code at the entry). The caller holds the simulator's mutex.
const KernelCode& find_kernel(uint64_t kernel_object);

/// Drops cached kernels whose descriptor or code lies in [address, address + size): that
/// memory was freed and may hold other code later. The caller holds the simulator's mutex.
void forget_kernels(uint64_t address, uint64_t size);

}  // namespace strobe::hip
