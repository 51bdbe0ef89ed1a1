// The topology the thunk reports: a CPU node and one gfx803 GPU node whose compute units, SIMDs,
// wave slots, LDS, caches, clocks and memory come from the active configuration (STROBE_ARCH,
// STROBE_SET), with the FLAT apertures the emulator routes and a tile configuration ROCr's
// address library accepts.
#include <algorithm>
#include <cstring>
#include <thread>

#include "emu/dispatch_abi.h"
#include "hip/simulator.h"
#include "hip/thunk.h"

using strobe::hip::kGpuNode;
using strobe::hip::Simulator;

namespace {

constexpr HSAuint32 kCpuNode = 0;
constexpr HSAuint32 kCpuProcessorId = 0;
// Processor ids of the GPU's compute units start after the CPU cores, as the KFD numbers them.
constexpr HSAuint32 kGpuProcessorId = 0x80000000u;
constexpr HSAuint32 kGpuMemoryBanks = 3;  // frame buffer, LDS aperture, scratch aperture
constexpr HSAuint32 kGpuCaches = 4;       // L1 vector, scalar cache, L1 instruction, L2

void put_name(HsaNodeProperties* p, const std::string& s) {
  for (size_t i = 0; i < s.size() && i + 1 < HSA_PUBLIC_NAME_SIZE; ++i) {
    p->MarketingName[i] = HSAuint16(s[i]);
    p->AMDName[i] = HSAuint8(s[i]);
  }
}

HSAuint32 cpu_cores() { return std::max(1u, std::thread::hardware_concurrency()); }

}  // namespace

extern "C" {

HSAKMT_STATUS HSAKMTAPI hsaKmtOpenKFD(void) {
  (void)Simulator::instance();  // a bad configuration ends the process here, with its reason
  return HSAKMT_STATUS_SUCCESS;
}

HSAKMT_STATUS HSAKMTAPI hsaKmtCloseKFD(void) { return HSAKMT_STATUS_SUCCESS; }

HSAKMT_STATUS HSAKMTAPI hsaKmtGetVersion(HsaVersionInfo* v) {
  if (!v) return HSAKMT_STATUS_INVALID_PARAMETER;
  v->KernelInterfaceMajorVersion = 1;  // the KFD ioctl interface ROCm 5.2 expects
  v->KernelInterfaceMinorVersion = 8;
  return HSAKMT_STATUS_SUCCESS;
}

HSAKMT_STATUS HSAKMTAPI hsaKmtRuntimeEnable(void*, bool) { return HSAKMT_STATUS_SUCCESS; }
HSAKMT_STATUS HSAKMTAPI hsaKmtRuntimeDisable(void) { return HSAKMT_STATUS_SUCCESS; }

HSAKMT_STATUS HSAKMTAPI hsaKmtAcquireSystemProperties(HsaSystemProperties* p) {
  if (!p) return HSAKMT_STATUS_INVALID_PARAMETER;
  std::memset(p, 0, sizeof *p);
  p->NumNodes = 2;
  return HSAKMT_STATUS_SUCCESS;
}

HSAKMT_STATUS HSAKMTAPI hsaKmtReleaseSystemProperties(void) { return HSAKMT_STATUS_SUCCESS; }

HSAKMT_STATUS HSAKMTAPI hsaKmtGetNodeProperties(HSAuint32 node, HsaNodeProperties* p) {
  if (!p) return HSAKMT_STATUS_INVALID_PARAMETER;
  std::memset(p, 0, sizeof *p);
  if (node == kCpuNode) {
    p->NumCPUCores = cpu_cores();
    p->CComputeIdLo = kCpuProcessorId;
    p->NumMemoryBanks = 1;
    p->NumCaches = 1;
    p->MaxEngineClockMhzCCompute = 2000;
    put_name(p, "strobe host CPU");
    return HSAKMT_STATUS_SUCCESS;
  }
  if (node != kGpuNode) return HSAKMT_STATUS_INVALID_NODE_UNIT;
  const strobe::timing::GpuConfig& c = Simulator::instance().config();
  const auto arrays = HSAuint32(c.num_cus / c.cus_per_shader_array);
  p->NumFComputeCores = HSAuint32(c.num_cus * c.simds_per_cu);  // the KFD counts SIMDs here
  p->NumSIMDPerCU = HSAuint32(c.simds_per_cu);
  p->NumShaderBanks = arrays % 4 == 0 ? 4 : 1;  // shader engines: Fiji has four
  p->NumArrays = arrays;
  p->NumCUPerArray = HSAuint32(c.cus_per_shader_array);
  p->MaxWavesPerSIMD = HSAuint32(c.wave_slots_per_simd);
  p->LDSSizeInKB = HSAuint32(c.lds_bytes_per_cu / 1024);
  p->WaveFrontSize = 64;
  p->MaxSlotsScratchCU = 32;
  p->FComputeIdLo = kGpuProcessorId;
  p->NumMemoryBanks = kGpuMemoryBanks;
  p->NumCaches = kGpuCaches;
  p->EngineId.ui32.Major = 8;  // gfx803: the only ISA the emulator executes
  p->EngineId.ui32.Minor = 0;
  p->EngineId.ui32.Stepping = 3;
  p->EngineId.ui32.uCode = 730;
  p->VendorId = 0x1002;
  p->DeviceId = 0x7300;  // Fiji
  p->LocationId = 0x0100;
  p->LocalMemSize = HSAuint64(c.dram_size_gb) << 30;
  p->MaxEngineClockMhzFCompute = HSAuint32(c.clock_mhz);
  p->DrmRenderMinor = 128;
  p->Capability.ui32.DoorbellType = 1;
  p->Capability.ui32.QueueSizePowerOfTwo = 1;
  p->Capability.ui32.QueueSize32bit = 1;
  p->NumSdmaEngines = 2;
  p->NumSdmaQueuesPerEngine = 2;
  p->NumCpQueues = 24;
  p->UniqueID = 0x5712;
  p->VGPRSizePerCU = HSAuint32(c.vgprs_per_simd * c.simds_per_cu * 64 * 4);
  p->SGPRSizePerCU = HSAuint32(c.sgprs_per_simd * c.simds_per_cu * 4);
  put_name(p, "gfx803 (strobe " + c.name + ")");
  return HSAKMT_STATUS_SUCCESS;
}

HSAKMT_STATUS HSAKMTAPI hsaKmtGetNodeMemoryProperties(HSAuint32 node, HSAuint32 n, HsaMemoryProperties* m) {
  if (!m && n) return HSAKMT_STATUS_INVALID_PARAMETER;
  if (n) std::memset(m, 0, n * sizeof *m);
  if (node == kCpuNode) {
    if (n >= 1) {
      m[0].HeapType = HSA_HEAPTYPE_SYSTEM;
      m[0].SizeInBytes = HSAuint64(::sysconf(_SC_PHYS_PAGES)) * HSAuint64(::sysconf(_SC_PAGESIZE));
      m[0].Width = 64;
    }
    return HSAKMT_STATUS_SUCCESS;
  }
  if (node != kGpuNode) return HSAKMT_STATUS_INVALID_NODE_UNIT;
  const strobe::timing::GpuConfig& c = Simulator::instance().config();
  if (n >= 1) {
    m[0].HeapType = HSA_HEAPTYPE_FRAME_BUFFER_PUBLIC;
    m[0].SizeInBytes = HSAuint64(c.dram_size_gb) << 30;
    // Bus width from bandwidth and clock (double data rate): 512 GB/s at 500 MHz is 4096 bits.
    m[0].Width = HSAuint32(c.dram_bandwidth_gbs * 8e3 / (c.dram_clock_mhz * 2) + 0.5);
    m[0].MemoryClockMax = HSAuint32(c.dram_clock_mhz);
  }
  // The apertures must be the emulator's: kernels turn LDS and private pointers into FLAT
  // addresses with the bases ROCr copies from here into amd_queue_t.
  if (n >= 2) {
    m[1].HeapType = HSA_HEAPTYPE_GPU_LDS;
    m[1].SizeInBytes = 4ull << 30;
    m[1].VirtualBaseAddress = strobe::emu::kSharedApertureBase;
  }
  if (n >= 3) {
    m[2].HeapType = HSA_HEAPTYPE_GPU_SCRATCH;
    m[2].SizeInBytes = 4ull << 30;
    m[2].VirtualBaseAddress = strobe::emu::kPrivateApertureBase;
  }
  return HSAKMT_STATUS_SUCCESS;
}

HSAKMT_STATUS HSAKMTAPI hsaKmtGetNodeCacheProperties(HSAuint32 node, HSAuint32 processor, HSAuint32 n,
                                                     HsaCacheProperties* caches) {
  if (!caches && n) return HSAKMT_STATUS_INVALID_PARAMETER;
  if (n) std::memset(caches, 0, n * sizeof *caches);
  // ROCr (built with asserts) requires non-empty cache properties on every node.
  if (node == kCpuNode) {
    if (n >= 1) {
      caches[0].ProcessorIdLow = processor;
      caches[0].CacheLevel = 1;
      caches[0].CacheSize = 32;
      caches[0].CacheLineSize = 64;
      caches[0].CacheType.ui32.Data = 1;
      caches[0].CacheType.ui32.CPU = 1;
    }
    return HSAKMT_STATUS_SUCCESS;
  }
  if (node != kGpuNode) return HSAKMT_STATUS_INVALID_NODE_UNIT;
  const strobe::timing::GpuConfig& c = Simulator::instance().config();
  struct Level { HSAuint32 level; int64_t kb, ways, latency; bool data, instruction; };
  const Level levels[kGpuCaches] = {
      {1, c.l1v_size_kb, c.l1v_ways, c.l1v_latency, true, false},
      {1, c.scache_size_kb, c.scache_ways, c.scache_latency, true, false},
      {1, c.l1i_size_kb, c.l1i_ways, c.l1i_latency, false, true},
      {2, c.l2_size_kb, c.l2_ways, c.l2_latency, true, false},
  };
  for (HSAuint32 i = 0; i < n && i < kGpuCaches; ++i) {
    HsaCacheProperties& p = caches[i];
    p.ProcessorIdLow = processor;
    p.CacheLevel = levels[i].level;
    p.CacheSize = HSAuint32(levels[i].kb);
    p.CacheLineSize = HSAuint32(c.line_bytes);
    p.CacheLinesPerTag = 1;
    p.CacheAssociativity = HSAuint32(levels[i].ways);
    p.CacheLatency = HSAuint32(levels[i].latency);
    p.CacheType.ui32.Data = levels[i].data;
    p.CacheType.ui32.Instruction = levels[i].instruction;
    p.CacheType.ui32.HSACU = 1;
  }
  return HSAKMT_STATUS_SUCCESS;
}

HSAKMT_STATUS HSAKMTAPI hsaKmtGetNodeIoLinkProperties(HSAuint32 node, HSAuint32 n, HsaIoLinkProperties* links) {
  if (node > kGpuNode) return HSAKMT_STATUS_INVALID_NODE_UNIT;
  if (n) std::memset(links, 0, n * sizeof *links);  // no links: NumIOLinks is 0 on both nodes
  return HSAKMT_STATUS_SUCCESS;
}

HSAKMT_STATUS HSAKMTAPI hsaKmtGetXNACKMode(HSAint32* enable) {
  if (!enable) return HSAKMT_STATUS_INVALID_PARAMETER;
  *enable = 0;  // gfx803 has no XNACK replay
  return HSAKMT_STATUS_SUCCESS;
}

HSAKMT_STATUS HSAKMTAPI hsaKmtSetXNACKMode(HSAint32 enable) {
  if (enable) strobe::hip::not_implemented("hsaKmtSetXNACKMode", "XNACK (gfx803 has no page-fault replay)");
  return HSAKMT_STATUS_SUCCESS;
}

HSAKMT_STATUS HSAKMTAPI hsaKmtGetClockCounters(HSAuint32 node, HsaClockCounters* c) {
  if (!c) return HSAKMT_STATUS_INVALID_PARAMETER;
  if (node > kGpuNode) return HSAKMT_STATUS_INVALID_NODE_UNIT;
  // GPU and system counters are one nanosecond clock, so ROCr's tick-to-time translation is
  // the identity and signal timestamps (simulated time in timing mode) pass through unchanged.
  const HSAuint64 ns = Simulator::host_now_ns();
  c->GPUClockCounter = ns;
  c->CPUClockCounter = ns;
  c->SystemClockCounter = ns;
  c->SystemClockFrequencyHz = 1000000000ull;
  return HSAKMT_STATUS_SUCCESS;
}

HSAKMT_STATUS HSAKMTAPI hsaKmtGetTileConfig(HSAuint32 node, HsaGpuTileConfig* c) {
  if (!c) return HSAKMT_STATUS_INVALID_PARAMETER;
  if (node != kGpuNode) return HSAKMT_STATUS_INVALID_NODE_UNIT;
  // ROCr's gfx8 image manager hands this to addrlib, which checks it against a real board:
  // every mode ARRAY_LINEAR_ALIGNED with pipe config P16_32x32_16x16 (Fiji), 16 banks, 1 rank.
  for (HSAuint32 i = 0; i < c->NumTileConfigs; ++i) c->TileConfig[i] = (1u << 2) | (0x11u << 6);
  for (HSAuint32 i = 0; i < c->NumMacroTileConfigs; ++i) c->MacroTileConfig[i] = 0;
  c->NumTileConfigs = std::min<HSAuint32>(c->NumTileConfigs, 32);
  c->NumMacroTileConfigs = std::min<HSAuint32>(c->NumMacroTileConfigs, 16);
  c->GbAddrConfig = 0x22011003;
  c->NumBanks = 2;  // register encodings: 16 banks
  c->NumRanks = 0;  // 1 rank
  return HSAKMT_STATUS_SUCCESS;
}

}  // extern "C"
