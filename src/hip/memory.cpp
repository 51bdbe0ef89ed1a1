// Memory: every "GPU" allocation is host memory of this process at the same address on both
// sides (identity-mapped), known to the simulated device's memory so kernels can reach it, and
// host memory the program registers becomes reachable the same way.
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <utility>
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
std::map<uint64_t, Allocation> g_registry;  // the thunk's own allocations: start -> allocation
// Registered program memory, by (start, size). Registrations may overlap: HIP's runtime pins
// pageable buffers page by page, and two buffers can share a page.
std::map<std::pair<uint64_t, uint64_t>, Allocation> g_registrations;
// What the device's memory maps of the registrations: their union, as disjoint ranges.
std::map<uint64_t, uint64_t> g_pinned;  // start -> end
// Registrations dropped as stale (drop_stale_registrations) that the runtime may still
// deregister: start -> deregistrations still expected.
std::map<uint64_t, uint32_t> g_superseded;

/// The union of the registrations within [lo, hi), as disjoint ranges (start -> end).
std::map<uint64_t, uint64_t> union_of_registrations(uint64_t lo, uint64_t hi) {
  std::map<uint64_t, uint64_t> out;
  for (const auto& [key, r] : g_registrations) {
    uint64_t a = std::max(lo, r.address), b = std::min(hi, r.address + r.size);
    if (a >= b) continue;
    auto next = out.lower_bound(a);
    if (next != out.begin() && std::prev(next)->second >= a) {
      --next;
      a = next->first;
      b = std::max(b, next->second);
      next = out.erase(next);
    }
    while (next != out.end() && next->first <= b) {
      b = std::max(b, next->second);
      next = out.erase(next);
    }
    out.emplace(a, b);
  }
  return out;
}

/// Re-maps the device's view of the registrations over [lo, hi): the pinned ranges there are
/// replaced by the union of the registrations within it. [lo, hi) must cover whole pinned ranges.
void repin(uint64_t lo, uint64_t hi, Simulator& sim) {
  emu::GlobalMemory& mem = sim.device().memory();
  for (auto it = g_pinned.lower_bound(lo); it != g_pinned.end() && it->first < hi;) {
    mem.unmap_host(it->first);
    it = g_pinned.erase(it);
  }
  for (const auto& [a, b] : union_of_registrations(lo, hi)) {
    try {
      mem.map_host(a, b - a, "registered host memory");
    } catch (const Error& e) {
      not_implemented("hsaKmtRegisterMemoryWithFlags", e.what());
    }
    g_pinned.emplace(a, b);
  }
}

/// [lo, hi) widened to whole pinned ranges it touches.
std::pair<uint64_t, uint64_t> pinned_span(uint64_t lo, uint64_t hi) {
  auto it = g_pinned.upper_bound(lo);
  if (it != g_pinned.begin() && std::prev(it)->second > lo) lo = std::prev(it)->first;
  for (it = g_pinned.lower_bound(lo); it != g_pinned.end() && it->first < hi; ++it) hi = std::max(hi, it->second);
  return {lo, hi};
}

/// Drops every registration overlapping `a`, a new mapping of the thunk's own. A program may
/// free (unmap) memory it registered without deregistering it, and the kernel may then hand the
/// address out again: the mapping proves the old registration stale. The caller holds both locks.
void drop_stale_registrations(const Allocation& a, Simulator& sim) {
  bool any = false;
  for (auto it = g_registrations.begin(); it != g_registrations.end();) {
    const Allocation& r = it->second;
    if (r.address < a.address + a.size && a.address < r.address + r.size) {
      g_superseded[r.address] += r.registrations;
      it = g_registrations.erase(it);
      any = true;
    } else {
      ++it;
    }
  }
  if (!any) return;
  const auto [lo, hi] = pinned_span(a.address, a.address + a.size);
  repin(lo, hi, sim);
}

/// Adds `a` to the registry and to the device's memory map; registering a range that is
/// already registered (same start and size) only counts the registration.
void add(const Allocation& a, const char* what) {
  Simulator& sim = Simulator::instance();
  std::lock_guard dev(sim.mutex());
  std::lock_guard lock(g_registry_mu);
  if (a.registered) {
    // HIP's runtime can free a page it registered without deregistering it, and malloc can then
    // hand the same page out for the next registration; the KFD thunk counts registrations.
    auto [it, fresh] = g_registrations.try_emplace({a.address, a.size}, a);
    if (!fresh) {
      ++it->second.registrations;
      return;
    }
    const auto [lo, hi] = pinned_span(a.address, a.address + a.size);
    repin(lo, hi, sim);
    return;
  }
  drop_stale_registrations(a, sim);
  try {
    sim.device().memory().map_host(a.address, a.size, what);
  } catch (const Error& e) {
    not_implemented("hsaKmtAllocMemory", e.what());
  }
  g_registry[a.address] = a;
}

/// Removes the allocation starting at `address` if it is registered program memory
/// (`registered`: the largest registration starting there) or the thunk's own; false if there
/// is no such allocation. A range registered more than once stays until its last
/// deregistration.
bool remove(uint64_t address, bool registered, Allocation* out) {
  Simulator& sim = Simulator::instance();
  std::lock_guard dev(sim.mutex());
  std::lock_guard lock(g_registry_mu);
  if (registered) {
    auto it = g_registrations.lower_bound({address + 1, 0});
    if (it == g_registrations.begin() || std::prev(it)->first.first != address) {
      // A registration dropped as stale is deregistered quietly, as often as it was registered.
      auto s = g_superseded.find(address);
      if (s == g_superseded.end()) return false;
      if (--s->second == 0) g_superseded.erase(s);
      *out = Allocation{};
      return true;
    }
    --it;
    *out = it->second;
    if (--it->second.registrations > 0) return true;
    g_registrations.erase(it);
    const auto [lo, hi] = pinned_span(out->address, out->address + out->size);
    repin(lo, hi, sim);
    forget_kernels(out->address, out->size);
    return true;
  }
  auto it = g_registry.find(address);
  if (it == g_registry.end()) return false;
  *out = it->second;
  g_registry.erase(it);
  sim.device().memory().unmap_host(address);
  forget_kernels(address, out->size);  // code there may be replaced by other code later
  return true;
}

/// The registration containing `address` (the latest-starting one), or null. The caller holds
/// g_registry_mu.
Allocation* registration_at(uint64_t address) {
  auto pin = g_pinned.upper_bound(address);
  if (pin == g_pinned.begin() || std::prev(pin)->second <= address) return nullptr;
  const uint64_t floor = std::prev(pin)->first;
  for (auto it = g_registrations.lower_bound({address + 1, 0}); it != g_registrations.begin();) {
    --it;
    if (it->first.first < floor) break;
    if (address - it->second.address < it->second.size) return &it->second;
  }
  return nullptr;
}

}  // namespace

bool find_allocation(uint64_t address, Allocation* out) {
  std::lock_guard lock(g_registry_mu);
  auto it = g_registry.upper_bound(address);
  if (it != g_registry.begin() && address - std::prev(it)->first < std::prev(it)->second.size) {
    *out = std::prev(it)->second;
    return true;
  }
  if (const Allocation* r = registration_at(address)) {
    *out = *r;
    return true;
  }
  return false;
}

namespace {

/// `size` bytes of shared memory mapped at two consecutive ranges (2 * size of address space),
/// the second aliasing the first; MAP_FAILED if any step fails.
void* map_twice(uint64_t size) {
  const int fd = ::memfd_create("strobe-aql-queue", MFD_CLOEXEC);
  if (fd < 0) return MAP_FAILED;
  void* result = MAP_FAILED;
  if (::ftruncate(fd, off_t(size)) == 0) {
    void* va = ::mmap(nullptr, 2 * size, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (va != MAP_FAILED) {
      auto* lo = static_cast<uint8_t*>(va);
      const int prot = PROT_READ | PROT_WRITE | PROT_EXEC;
      if (::mmap(lo, size, prot, MAP_SHARED | MAP_FIXED, fd, 0) != MAP_FAILED &&
          ::mmap(lo + size, size, prot, MAP_SHARED | MAP_FIXED, fd, 0) != MAP_FAILED)
        result = va;
      else
        ::munmap(va, 2 * size);
    }
  }
  ::close(fd);  // the mappings keep the memory
  return result;
}

}  // namespace

}  // namespace strobe::hip

using namespace strobe::hip;

extern "C" {

HSAKMT_STATUS HSAKMTAPI hsaKmtAllocMemory(HSAuint32 node, HSAuint64 size, HsaMemFlags flags, void** address) {
  if (!address || size == 0) return HSAKMT_STATUS_INVALID_PARAMETER;
  if (node > kGpuNode) return HSAKMT_STATUS_INVALID_NODE_UNIT;
  // Scratch requests (ROCr's queue scratch) are ordinary memory here: the emulator gives every
  // dispatch its own private segment and never reads ROCr's.
  // Reserved, not committed: ROCr asks for large pools of which programs touch little.
  // AQL queue memory is mapped twice, the upper half aliasing the lower: ROCr's gfx8 queues
  // (queue_full_workaround) index the ring modulo twice its size, as the KFD's double map
  // (AQLQueueDoubleMap) provides, so a packet written at slot i is read at slot i + size.
  void* p = flags.ui32.AQLQueueMemory ? map_twice(size)
                                      : ::mmap(nullptr, size, PROT_READ | PROT_WRITE | PROT_EXEC,
                                               MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (p == MAP_FAILED) return HSAKMT_STATUS_NO_MEMORY;
  Allocation a;
  a.address = reinterpret_cast<uint64_t>(p);
  a.size = flags.ui32.AQLQueueMemory ? 2 * size : size;
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
  const auto address = reinterpret_cast<uint64_t>(pointer);
  auto it = g_registry.find(address);
  Allocation* a = it != g_registry.end() ? &it->second : registration_at(address);
  if (!a || a->address != address) return HSAKMT_STATUS_INVALID_PARAMETER;
  a->user_data = user_data;
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
