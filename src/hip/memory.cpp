// Memory: every "GPU" allocation is host memory of this process at the same address on both
// sides (identity-mapped), known to the simulated device's memory so kernels can reach it, and
// host memory the program registers becomes reachable the same way.
#include <sys/mman.h>

#include <cstring>
#include <map>
#include <mutex>

#include <fmt/format.h>

#include "common/error.h"
#include "hip/kernel_code.h"
#include "hip/simulator.h"
#include "hip/thunk.h"

namespace strobe::hip {

namespace {

// Lock order: the device's mutex, then g_registry_mu. A dispatch holds the device's mutex when
// it looks kernel code up in the registry, and add() and remove() hold both across their change
// to the registry and to the device's memory map: with the registry and the map changed in two
// steps under separate locks, another thread could register or free a range between them and
// find the map and the registry disagreeing (a range still mapped but no longer registered).
std::mutex g_registry_mu;
std::map<uint64_t, Allocation> g_registry;  // start -> allocation

/// Adds `a` to the registry and to the device's memory map; registering a range that is
/// already registered (same start and size) only counts the registration.
void add(const Allocation& a, const char* what) {
  Simulator& sim = Simulator::instance();
  std::lock_guard dev(sim.mutex());
  std::lock_guard lock(g_registry_mu);
  if (a.registered) {
    // HIP's runtime can free a page it registered without deregistering it, and malloc can then
    // hand the same page out for the next registration; the KFD thunk counts registrations.
    auto it = g_registry.find(a.address);
    if (it != g_registry.end() && it->second.registered && it->second.size == a.size) {
      ++it->second.registrations;
      return;
    }
  }
  try {
    sim.device().memory().map_host(a.address, a.size, what);
  } catch (const Error& e) {
    not_implemented(a.registered ? "hsaKmtRegisterMemoryWithFlags" : "hsaKmtAllocMemory", e.what());
  }
  g_registry[a.address] = a;
}

/// Removes the allocation starting at `address` if it is registered program memory
/// (`registered`) or the thunk's own; false if there is no such allocation. A range registered
/// more than once stays until its last deregistration.
bool remove(uint64_t address, bool registered, Allocation* out) {
  Simulator& sim = Simulator::instance();
  std::lock_guard dev(sim.mutex());
  std::lock_guard lock(g_registry_mu);
  auto it = g_registry.find(address);
  if (it == g_registry.end() || it->second.registered != registered) return false;
  *out = it->second;
  if (--it->second.registrations > 0) return true;
  g_registry.erase(it);
  sim.device().memory().unmap_host(address);
  forget_kernels(address, out->size);  // code there may be replaced by other code later
  return true;
}

}  // namespace

bool find_allocation(uint64_t address, Allocation* out) {
  std::lock_guard lock(g_registry_mu);
  auto it = g_registry.upper_bound(address);
  if (it == g_registry.begin()) return false;
  --it;
  if (address - it->first >= it->second.size) return false;
  *out = it->second;
  return true;
}

}  // namespace strobe::hip

using namespace strobe::hip;

extern "C" {

HSAKMT_STATUS HSAKMTAPI hsaKmtAllocMemory(HSAuint32 node, HSAuint64 size, HsaMemFlags flags, void** address) {
  if (!address || size == 0) return HSAKMT_STATUS_INVALID_PARAMETER;
  if (node > kGpuNode) return HSAKMT_STATUS_INVALID_NODE_UNIT;
  // Scratch requests (ROCr's queue scratch) are ordinary memory here: the emulator gives every
  // dispatch its own private segment and never reads ROCr's.
  // Reserved, not committed: ROCr asks for large pools of which programs touch little.
  void* p = ::mmap(nullptr, size, PROT_READ | PROT_WRITE | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
                   -1, 0);
  if (p == MAP_FAILED) return HSAKMT_STATUS_NO_MEMORY;
  Allocation a;
  a.address = reinterpret_cast<uint64_t>(p);
  a.size = size;
  a.flags = flags;
  a.node = node;
  add(a, node == kGpuNode ? "device memory" : "system memory");
  *address = p;
  return HSAKMT_STATUS_SUCCESS;
}

HSAKMT_STATUS HSAKMTAPI hsaKmtFreeMemory(void* address, HSAuint64 size) {
  Allocation a;
  if (!remove(reinterpret_cast<uint64_t>(address), false, &a)) return HSAKMT_STATUS_INVALID_PARAMETER;
  ::munmap(address, a.size ? a.size : size);
  return HSAKMT_STATUS_SUCCESS;
}

HSAKMT_STATUS HSAKMTAPI hsaKmtMapMemoryToGPU(void* address, HSAuint64, HSAuint64* gpu_va) {
  // Already mapped: the GPU sees the process's address space as it is.
  if (gpu_va) *gpu_va = reinterpret_cast<HSAuint64>(address);
  return HSAKMT_STATUS_SUCCESS;
}

HSAKMT_STATUS HSAKMTAPI hsaKmtMapMemoryToGPUNodes(void* address, HSAuint64, HSAuint64* gpu_va, HsaMemMapFlags,
                                                  HSAuint64, HSAuint32*) {
  if (gpu_va) *gpu_va = reinterpret_cast<HSAuint64>(address);
  return HSAKMT_STATUS_SUCCESS;
}

HSAKMT_STATUS HSAKMTAPI hsaKmtUnmapMemoryToGPU(void*) { return HSAKMT_STATUS_SUCCESS; }

HSAKMT_STATUS HSAKMTAPI hsaKmtRegisterMemoryWithFlags(void* address, HSAuint64 size, HsaMemFlags flags) {
  if (!address || size == 0) return HSAKMT_STATUS_INVALID_PARAMETER;
  Allocation a;
  a.address = reinterpret_cast<uint64_t>(address);
  a.size = size;
  a.flags = flags;
  a.node = 0;
  a.registered = true;
  add(a, "registered host memory");
  return HSAKMT_STATUS_SUCCESS;
}

HSAKMT_STATUS HSAKMTAPI hsaKmtDeregisterMemory(void* address) {
  Allocation a;
  // Only registered program memory is deregistered; the thunk's own allocations stay.
  if (!remove(reinterpret_cast<uint64_t>(address), true, &a)) return HSAKMT_STATUS_INVALID_PARAMETER;
  return HSAKMT_STATUS_SUCCESS;
}

HSAKMT_STATUS HSAKMTAPI hsaKmtQueryPointerInfo(const void* pointer, HsaPointerInfo* info) {
  if (!info) return HSAKMT_STATUS_INVALID_PARAMETER;
  std::memset(info, 0, sizeof *info);
  Allocation a;
  if (!find_allocation(reinterpret_cast<uint64_t>(pointer), &a)) {
    info->Type = HSA_POINTER_UNKNOWN;
    return HSAKMT_STATUS_SUCCESS;
  }
  info->Type = a.registered ? HSA_POINTER_REGISTERED_USER : HSA_POINTER_ALLOCATED;
  info->Node = a.node;
  info->MemFlags = a.flags;
  info->CPUAddress = reinterpret_cast<void*>(a.address);
  info->GPUAddress = a.address;
  info->SizeInBytes = a.size;
  // ROCr copies the node list: every allocation is mapped to the one GPU.
  static const HSAuint32 mapped_nodes[1] = {kGpuNode};
  info->NMappedNodes = 1;
  info->MappedNodes = mapped_nodes;
  info->UserData = a.user_data;
  return HSAKMT_STATUS_SUCCESS;
}

HSAKMT_STATUS HSAKMTAPI hsaKmtSetMemoryUserData(const void* pointer, void* user_data) {
  std::lock_guard lock(g_registry_mu);
  auto it = g_registry.find(reinterpret_cast<uint64_t>(pointer));
  if (it == g_registry.end()) return HSAKMT_STATUS_INVALID_PARAMETER;
  it->second.user_data = user_data;
  return HSAKMT_STATUS_SUCCESS;
}

HSAKMT_STATUS HSAKMTAPI hsaKmtSetMemoryPolicy(HSAuint32, HSAuint32, HSAuint32, void*, HSAuint64) {
  return HSAKMT_STATUS_SUCCESS;  // cache policy: no functional effect on the simulated GPU
}

HSAKMT_STATUS HSAKMTAPI hsaKmtSetTrapHandler(HSAuint32, void*, HSAuint64, void*, HSAuint64) {
  // ROCr installs its debug trap handler; the emulator reports traps itself (s_trap faults).
  return HSAKMT_STATUS_SUCCESS;
}

}  // extern "C"
