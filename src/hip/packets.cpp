// Packet execution (see packets.h).
#include "hip/packets.h"

#include <chrono>
#include <cstring>
#include <mutex>
#include <thread>

#include <fmt/format.h>

#include "common/error.h"
#include "emu/code_object_program.h"
#include "emu/dispatch_abi.h"
#include "hip/kernel_code.h"
#include "hip/simulator.h"
#include "hip/thunk.h"
#include "report/run_report.h"

namespace strobe::hip {

namespace {

enum PacketType : uint8_t { kVendorSpecific = 0, kKernelDispatch = 2, kBarrierAnd = 3, kAgentDispatch = 4, kBarrierOr = 5 };

template <typename T>
T field(const uint8_t* slot, size_t offset) {
  T v;
  std::memcpy(&v, slot + offset, sizeof v);
  return v;
}

void dispatch(const uint8_t* slot, uint64_t amd_queue, uint64_t queue_id) {
  Simulator& sim = Simulator::instance();
  const uint16_t setup = field<uint16_t>(slot, 2);
  const uint64_t kernel_object = field<uint64_t>(slot, 32), signal = field<uint64_t>(slot, 56);
  emu::Dispatch d;
  for (int i = 0; i < 3; ++i) {
    d.local[i] = field<uint16_t>(slot, 4 + 2 * i);
    d.grid[i] = field<uint32_t>(slot, 12 + 4 * i);
  }
  const uint32_t private_bytes = field<uint32_t>(slot, 24), group_bytes = field<uint32_t>(slot, 28);
  d.kernarg_address = field<uint64_t>(slot, 40);
  d.packet_address = reinterpret_cast<uint64_t>(slot);
  d.queue_address = amd_queue;

  report::LaunchRecord rec;
  const uint64_t host_start = Simulator::host_now_ns();
  std::pair<uint64_t, uint64_t> span;
  {
    std::lock_guard lock(sim.mutex());
    const KernelCode* found = nullptr;
    try {
      found = &find_kernel(kernel_object);
    } catch (const Error& e) {
      fatal(fmt::format("dispatch on queue {}: {}", queue_id, e.what()), int(e.code()));
    }
    const KernelCode& k = *found;
    try {
      const uint32_t dims = setup & 3;
      uint64_t items = 1;
      for (int i = 0; i < 3; ++i) items *= d.local[i];
      if (dims < 1 || items == 0 || items > 1024 || d.grid[0] == 0 || d.grid[1] == 0 || d.grid[2] == 0)
        throw InputError(fmt::format("kernel {}: dispatch of {} dimensions, work-group {}x{}x{}, grid {}x{}x{}: not "
                                     "a valid launch",
                                     k.name, dims, d.local[0], d.local[1], d.local[2], d.grid[0], d.grid[1], d.grid[2]));
      d.lds_bytes = std::max(group_bytes, k.kd.group_segment_fixed_size);
      if (d.lds_bytes > sim.config().lds_bytes_per_cu)
        throw InputError(fmt::format("kernel {}: {} bytes of LDS asked for; a CU has {}", k.name, d.lds_bytes,
                                     sim.config().lds_bytes_per_cu));
      // The private segment comes from the simulator, so ROCr's on-demand scratch handshake is
      // never needed: whatever the packet asks for is provided.
      d.private_bytes_per_lane = std::max(private_bytes, k.kd.private_segment_fixed_size);
      if (k.makes_calls || k.kd.uses_dynamic_stack())
        d.private_bytes_per_lane = std::max(d.private_bytes_per_lane, emu::kCallStackBytesPerLane);
      // Kernels turn LDS and private pointers into FLAT addresses with the apertures ROCr
      // copied into amd_queue_t from the topology; they must be the ones the emulator routes.
      const auto* queue = reinterpret_cast<const uint8_t*>(amd_queue);
      const uint32_t lds_hi = field<uint32_t>(queue, emu::amd_queue::kGroupSegmentApertureBaseHi);
      const uint32_t priv_hi = field<uint32_t>(queue, emu::amd_queue::kPrivateSegmentApertureBaseHi);
      if (lds_hi != emu::kSharedApertureHi || priv_hi != emu::kPrivateApertureHi)
        throw InputError(fmt::format("amd_queue_t apertures 0x{:x}/0x{:x} are not the simulator's 0x{:x}/0x{:x}",
                                     lds_hi, priv_hi, emu::kSharedApertureHi, emu::kPrivateApertureHi));
      d.kernel_name = k.name;
      d.program = k.program.get();
      d.entry_address = k.entry_address;
      d.kd = k.kd;
      rec.grid = d.grid;
      rec.local = d.local;
      rec.result = sim.device().run(d);
    } catch (const Error& e) {
      // Fault messages name the kernel, the wave and the instruction already.
      fatal(fmt::format("dispatch on queue {}: {}", queue_id, e.what()), int(e.code()));
    } catch (const std::exception& e) {
      fatal(fmt::format("dispatch of {} on queue {}: {}", k.name, queue_id, e.what()), 1);
    }
    span = sim.record_launch(std::move(rec), host_start);
  }
  complete_signal(signal, span.first, span.second);
}

/// Waits until the dependencies of a barrier packet are met: all zero (AND) or any (OR).
void barrier(const uint8_t* slot, bool any, const std::atomic<bool>& stop) {
  uint64_t deps[5];
  int n = 0;
  for (int i = 0; i < 5; ++i)
    if (uint64_t s = field<uint64_t>(slot, 8 + 8 * i)) deps[n++] = s;
  auto met = [&] {
    int zero = 0;
    for (int i = 0; i < n; ++i) zero += signal_value(deps[i]) == 0;
    return any ? (n == 0 || zero > 0) : zero == n;
  };
  // Dependencies complete on other queues' threads or on the host: poll, gently.
  for (int spins = 0; !met() && !stop.load(std::memory_order_relaxed); ++spins)
    if (spins < 64) std::this_thread::yield();
    else std::this_thread::sleep_for(std::chrono::microseconds(50));
  const uint64_t now = Simulator::instance().gpu_now_ns();
  complete_signal(field<uint64_t>(slot, 56), now, now);
}

/// Executes a PM4 command stream (gfx8): ROCr uses NOP padding, INDIRECT_BUFFER and
/// RELEASE_MEM / ACQUIRE_MEM / EVENT_WRITE for cache maintenance. The simulated memory is
/// coherent, so cache operations have no functional effect; a RELEASE_MEM that writes data is
/// honoured.
void pm4(const uint32_t* dw, size_t n, int depth) {
  constexpr uint32_t kNop = 0x10, kIndirectBuffer = 0x3F, kEventWrite = 0x46, kReleaseMem = 0x49, kAcquireMem = 0x58;
  for (size_t i = 0; i < n;) {
    const uint32_t h = dw[i];
    const uint32_t type = h >> 30;
    if (type == 2) {  // one-dword filler
      ++i;
      continue;
    }
    if (type != 3)
      not_implemented("PM4", fmt::format("packet type {} (header 0x{:08x})", type, h));
    const uint32_t op = (h >> 8) & 0xff, body = ((h >> 16) & 0x3fff) + 1;
    if (i + 1 + body > n && op != kNop)
      not_implemented("PM4", fmt::format("opcode 0x{:x} with {} dwords runs past its buffer", op, body));
    const uint32_t* b = dw + i + 1;
    switch (op) {
      case kNop:
      case kEventWrite:
      case kAcquireMem:
        break;
      case kIndirectBuffer: {
        const uint64_t ib = (uint64_t(b[1] & 0xffff) << 32) | (b[0] & ~3u);
        const uint32_t size = b[2] & 0xfffff;
        Allocation a;
        if (depth > 2 || !find_allocation(ib, &a) || ib + uint64_t(size) * 4 > a.address + a.size)
          not_implemented("PM4", fmt::format("an indirect buffer at 0x{:x} of {} dwords outside known memory", ib, size));
        pm4(reinterpret_cast<const uint32_t*>(ib), size, depth + 1);
        break;
      }
      case kReleaseMem: {
        const uint32_t data_sel = b[1] >> 29;
        const uint64_t addr = (uint64_t(b[3] & 0xffff) << 32) | b[2];
        const uint64_t data = (uint64_t(b[5]) << 32) | b[4];
        if (data_sel == 0) break;
        Allocation a;
        if (!find_allocation(addr, &a))
          not_implemented("PM4", fmt::format("RELEASE_MEM writing to 0x{:x}, outside known memory", addr));
        if (data_sel == 1) __atomic_store_n(reinterpret_cast<uint32_t*>(addr), uint32_t(data), __ATOMIC_RELEASE);
        else if (data_sel == 2) __atomic_store_n(reinterpret_cast<uint64_t*>(addr), data, __ATOMIC_RELEASE);
        else if (data_sel == 3) __atomic_store_n(reinterpret_cast<uint64_t*>(addr), Simulator::instance().gpu_now_ns(), __ATOMIC_RELEASE);
        else not_implemented("PM4", fmt::format("RELEASE_MEM data select {}", data_sel));
        break;
      }
      default:
        not_implemented("PM4", fmt::format("opcode 0x{:x} (header 0x{:08x})", op, h));
    }
    i += 1 + body;
  }
}

}  // namespace

void execute_packet(uint8_t* slot, uint64_t amd_queue, uint64_t queue_id, const std::atomic<bool>& stop) {
  const uint8_t type = slot[0];
  switch (type) {
    case kKernelDispatch:
      dispatch(slot, amd_queue, queue_id);
      break;
    case kBarrierAnd:
    case kBarrierOr:
      barrier(slot, type == kBarrierOr, stop);
      break;
    case kVendorSpecific: {
      // The first dword is both the AQL header (type 0) and a PM4 header.
      uint32_t dw[kPacketBytes / 4];
      std::memcpy(dw, slot, sizeof dw);
      pm4(dw, kPacketBytes / 4, 0);
      break;
    }
    case kAgentDispatch:
      not_implemented("AQL", "agent dispatch packets");
    default:
      not_implemented("AQL", fmt::format("packet type {}", type));
  }
}

}  // namespace strobe::hip
