// The functional executor: a tight fetch-dispatch loop over pre-decoded instructions.
#include "emu/executor.h"

#include <algorithm>
#include <bit>
#include <cerrno>
#include <cstdlib>
#include <cstring>

#include <fmt/format.h>

#include "common/error.h"
#include "emu/memory.h"
#include "emu/workgroup_threads.h"

namespace strobe::emu {

namespace {
// Which DispatchStats counter an encoding bumps: 0 none, 1 vector memory, 2 scalar memory, 3 LDS.
constexpr uint8_t kMemClass[] = {
    /*SOP2*/ 0, /*SOPK*/ 0, /*SOP1*/ 0, /*SOPC*/ 0, /*SOPP*/ 0, /*SMEM*/ 2, /*VOP2*/ 0, /*VOP1*/ 0, /*VOPC*/ 0,
    /*VOP3*/ 0, /*VINTRP*/ 0, /*DS*/ 3, /*FLAT*/ 1, /*MUBUF*/ 1, /*MTBUF*/ 1, /*MIMG*/ 1, /*EXP*/ 0,
    /*VOP3P*/ 0, /*GLOBAL*/ 1, /*SCRATCH*/ 1, /*Invalid*/ 0};
static_assert(std::size(kMemClass) == size_t(isa::Encoding::Invalid) + 1);

constexpr uint32_t kMaxWorkgroupSize = 1024;

uint32_t div_up(uint32_t a, uint32_t b) { return (a + b - 1) / b; }
}  // namespace

Executor::Executor(const Dispatch& d, GlobalMemory& mem, uint32_t slots) : d_(d), mem_(mem), slots_(std::max(slots, 1u)) {
  if (!d_.program || d_.program->insts.empty())
    throw InputError(fmt::format("kernel {}: no decoded code to execute", d_.kernel_name));
  uint64_t wg_items = 1;
  for (int i = 0; i < 3; ++i) {
    if (d_.grid[i] == 0 || d_.local[i] == 0)
      throw InputError(fmt::format("kernel {}: grid and work-group sizes must be positive (dimension {})",
                                   d_.kernel_name, i));
    groups_[i] = div_up(d_.grid[i], d_.local[i]);
    wg_items *= d_.local[i];
  }
  if (wg_items > kMaxWorkgroupSize)
    throw InputError(fmt::format("kernel {}: work-group of {} work-items exceeds {}", d_.kernel_name, wg_items,
                                 kMaxWorkgroupSize));
  waves_per_group_ = uint32_t(div_up(uint32_t(wg_items), kWaveSize));
  lds_bytes_ = std::max(d_.lds_bytes, d_.kd.group_segment_fixed_size);
  if (lds_bytes_ > d_.lds_limit_bytes)
    throw InputError(fmt::format("kernel {}: {} bytes of LDS exceed the {} bytes of a CU", d_.kernel_name,
                                 lds_bytes_, d_.lds_limit_bytes));
  const uint64_t base = d_.program->base_address;
  if (d_.entry_address) {
    int32_t pc = d_.entry_address >= base ? d_.program->index_at(d_.entry_address - base) : -1;
    if (pc < 0)
      throw InputError(fmt::format("kernel {}: entry 0x{:x} is not an instruction boundary of the decoded code",
                                   d_.kernel_name, d_.entry_address));
    entry_pc_ = uint32_t(pc);
  }

  vgpr_storage_ = vgprs_referenced(*d_.program);

  // Scratch: per-lane size rounded to 16 bytes so a wave's slice is a whole 1 KiB granule.
  uint32_t priv = std::max(d_.private_bytes_per_lane, d_.kd.private_segment_fixed_size);
  scratch_.bytes_per_lane = (priv + 15) & ~15u;
  scratch_.bytes_per_wave = scratch_.bytes_per_lane * kWaveSize;
  if (scratch_.bytes_per_wave)
    scratch_.base = mem_.allocate(uint64_t(scratch_.bytes_per_wave) * waves_per_group_ * slots_, 4096,
                                  d_.kernel_name + ":scratch");
  // Kernels that read the packet or queue need them in device memory even if the caller made none.
  if (!d_.packet_address) {
    owned_packet_ = d_.packet_address = mem_.allocate(64, 64, d_.kernel_name + ":packet");
    write_dispatch_packet(mem_, d_.packet_address, d_);
  }
  if (!d_.queue_address) {
    owned_queue_ = d_.queue_address = mem_.allocate(amd_queue::kSize, 64, d_.kernel_name + ":queue");
    write_queue_descriptor(mem_, d_.queue_address);
  }
}

Executor::~Executor() {
  // Never throw from a destructor: the allocations are ours, so free cannot fail.
  if (scratch_.base) mem_.free(scratch_.base);
  if (owned_packet_) mem_.free(owned_packet_);
  if (owned_queue_) mem_.free(owned_queue_);
}

void Executor::init_workgroup(WorkGroup& wg, uint64_t linear_id, uint32_t slot) {
  wg.id = {uint32_t(linear_id % groups_[0]), uint32_t(linear_id / groups_[0] % groups_[1]),
           uint32_t(linear_id / (uint64_t(groups_[0]) * groups_[1]))};
  uint32_t items = 1;
  for (int i = 0; i < 3; ++i) {
    wg.size[i] = std::min(d_.local[i], d_.grid[i] - wg.id[i] * d_.local[i]);
    items *= wg.size[i];
  }
  const uint32_t nwaves = div_up(items, kWaveSize);
  wg.waves.resize(nwaves);
  wg.lds.assign(lds_bytes_, 0);
  ExecContext& c = wg.ctx;
  c = ExecContext{};
  c.memory = &mem_;
  c.lds = std::span<uint8_t>(wg.lds.data(), wg.lds.size());
  c.dispatch = &d_;
  c.program = d_.program;
  c.private_base = scratch_.base;
  c.private_size = uint64_t(scratch_.bytes_per_wave) * waves_per_group_ * slots_;
  for (int i = 0; i < 3; ++i) c.workgroup_id[i] = wg.id[i];
  WaveSlot s;
  s.workgroup_id = wg.id;
  s.workgroup_size = wg.size;
  s.waves_in_group = nwaves;
  for (uint32_t i = 0; i < nwaves; ++i) {
    s.wave_in_group = i;
    s.scratch_wave_offset = (slot % slots_ * waves_per_group_ + i) * scratch_.bytes_per_wave;
    init_wave(wg.waves[i], d_, scratch_, s, vgpr_storage_);
    wg.waves[i].pc = entry_pc_;
  }
}

void Executor::run_wave(Wave& w, WorkGroup& wg, DispatchStats& stats) const {
  // Hot loop: locals for everything, one indirect call per instruction, no allocation.
  const Handler* fn = handlers().fn.data();
  const isa::Inst* insts = d_.program->insts.data();
  const uint32_t n = uint32_t(d_.program->insts.size());
  ExecContext& ctx = wg.ctx;
  uint64_t wi = 0, ti = 0, cls[4] = {0, 0, 0, 0};
  const uint64_t left = wave_budget_ > w.executed ? wave_budget_ - w.executed : 0;
  while (!w.halted && !w.at_barrier) {
    if (w.pc >= n) [[unlikely]] {
      stats.wave_instructions += wi;
      fault(w, isa::Inst{}, ctx, "program counter left the kernel's code");
    }
    if (wi == left) [[unlikely]] {
      stats.wave_instructions += wi;
      w.executed += wi;
      over_budget(w, insts[w.pc], ctx);
    }
    const isa::Inst& in = insts[w.pc];
    ++wi;
    ti += std::popcount(w.exec());
    ++cls[kMemClass[size_t(in.enc)]];
    ctx.branch_taken = false;
    fn[size_t(in.op)](w, in, ctx);
    w.pc = ctx.branch_taken ? ctx.branch_target : w.pc + 1;
  }
  w.executed += wi;
  stats.wave_instructions += wi;
  stats.thread_instructions += ti;
  stats.vector_memory_instructions += cls[1];
  stats.scalar_memory_instructions += cls[2];
  stats.lds_instructions += cls[3];
}

void Executor::run_wave_blocks(Wave& w, WorkGroup& wg, DispatchStats& stats, const uint8_t* ends, BlockFn on_block,
                               void* block_ctx) const {
  // run_wave()'s loop plus one byte load per instruction and a call per block.
  const Handler* fn = handlers().fn.data();
  const isa::Inst* insts = d_.program->insts.data();
  const uint32_t n = uint32_t(d_.program->insts.size());
  ExecContext& ctx = wg.ctx;
  uint64_t wi = 0, ti = 0, cls[4] = {0, 0, 0, 0};
  uint32_t start = w.pc, len = 0;
  const uint64_t left = wave_budget_ > w.executed ? wave_budget_ - w.executed : 0;
  while (!w.halted && !w.at_barrier) {
    const uint32_t pc = w.pc;
    if (pc >= n) [[unlikely]] {
      stats.wave_instructions += wi;
      fault(w, isa::Inst{}, ctx, "program counter left the kernel's code");
    }
    if (wi == left) [[unlikely]] {
      stats.wave_instructions += wi;
      w.executed += wi;
      over_budget(w, insts[pc], ctx);
    }
    const isa::Inst& in = insts[pc];
    if (len == 0) start = pc;
    ++wi, ++len;
    ti += std::popcount(w.exec());
    ++cls[kMemClass[size_t(in.enc)]];
    ctx.branch_taken = false;
    fn[size_t(in.op)](w, in, ctx);
    w.pc = ctx.branch_taken ? ctx.branch_target : pc + 1;
    if (ends[pc]) {
      on_block(block_ctx, start, len);
      len = 0;
    }
  }
  if (len) on_block(block_ctx, start, len);
  w.executed += wi;
  stats.wave_instructions += wi;
  stats.thread_instructions += ti;
  stats.vector_memory_instructions += cls[1];
  stats.scalar_memory_instructions += cls[2];
  stats.lds_instructions += cls[3];
}

void Executor::over_budget(Wave& w, const isa::Inst& next, ExecContext& ctx) const {
  fault(w, next, ctx,
        fmt::format("the wave executed {} instructions without ending (a kernel that never ends?); a longer one "
                    "needs --max-wave-instructions or STROBE_MAX_WAVE_INSTRUCTIONS above {}",
                    w.executed, wave_budget_));
}

uint64_t max_wave_instructions() {
  // Read once: every executor of the process takes the same budget.
  static const uint64_t budget = [] {
    const char* text = std::getenv("STROBE_MAX_WAVE_INSTRUCTIONS");
    if (!text) return kDefaultMaxWaveInstructions;
    char* end = nullptr;
    errno = 0;
    const unsigned long long v = std::strtoull(text, &end, 10);
    if (errno != 0 || end == text || *end != '\0' || v == 0 || text[0] == '-')
      throw InputError(fmt::format("STROBE_MAX_WAVE_INSTRUCTIONS '{}': expected a positive whole number", text));
    return uint64_t(v);
  }();
  return budget;
}

void Executor::step(Wave& w, WorkGroup& wg, DispatchStats& stats) const {
  if (w.halted || w.at_barrier) return;
  if (w.pc >= d_.program->insts.size()) fault(w, isa::Inst{}, wg.ctx, "program counter left the kernel's code");
  const isa::Inst& in = d_.program->insts[w.pc];
  if (w.executed == wave_budget_) [[unlikely]] over_budget(w, in, wg.ctx);
  ++w.executed;
  ++stats.wave_instructions;
  stats.thread_instructions += std::popcount(w.exec());
  switch (kMemClass[size_t(in.enc)]) {
    case 1: ++stats.vector_memory_instructions; break;
    case 2: ++stats.scalar_memory_instructions; break;
    case 3: ++stats.lds_instructions; break;
    default: break;
  }
  wg.ctx.branch_taken = false;
  handlers().fn[size_t(in.op)](w, in, wg.ctx);
  w.pc = wg.ctx.branch_taken ? wg.ctx.branch_target : w.pc + 1;
}

bool Executor::try_release_barrier(WorkGroup& wg) {
  bool any = false;
  for (const Wave& w : wg.waves) {
    if (w.halted) continue;
    if (!w.at_barrier) return false;
    any = true;
  }
  for (Wave& w : wg.waves) w.at_barrier = false;
  return any;
}

void Executor::run_workgroup(WorkGroup& wg, DispatchStats& stats) const {
  // Each pass runs every wave up to its next barrier (or the end); then the barrier opens.
  do {
    for (Wave& w : wg.waves) run_wave(w, wg, stats);
  } while (try_release_barrier(wg));
  stats.wavefronts += wg.waves.size();
  ++stats.workgroups;
}

DispatchStats Executor::run(uint32_t threads) {
  threads = std::min(threads, slots_);
  if (threads > 1 && threads_keep_order(*this)) return run_threads(threads);
  DispatchStats stats;
  WorkGroup wg;
  const uint64_t n = workgroup_count();
  for (uint64_t g = 0; g < n; ++g) {
    init_workgroup(wg, g, 0);
    run_workgroup(wg, stats);
  }
  return stats;
}

DispatchStats run_dispatch(const Dispatch& d, GlobalMemory& mem, uint32_t threads) {
  Executor ex(d, mem, thread_slots(d, threads));
  return ex.run(threads);
}

}  // namespace strobe::emu
