// The functional profile collector and runner (see functional_profile.h).
#include "sampling/profile/functional_profile.h"

#include <stdexcept>
#include <string>

#include "common/error.h"
#include "sampling/profile/profiler.h"
#include "timing/cu/inst_info.h"
#include "timing/gpu/gpu.h"

namespace strobe::sampling::profile {

namespace {

/// The columns every functional profile has, created empty so a launch without groups still
/// names them.
void init_columns(LaunchRecord& r) {
  for (const char* c : column::kUnitColumns) {
    r.workgroups.u64[c];
    r.waves.u64[c];
  }
  r.waves.u64[column::kWorkGroup];
  r.waves.u64[column::kWave];
  r.blocks.u64[column::kStartPc];
  r.blocks.u64[column::kWaveInsts];
}

void append(FeatureTable& t, const Counters& c) {
  t.u64[column::kWaveInsts].push_back(c.wave_instructions);
  t.u64[column::kThreadInsts].push_back(c.thread_instructions);
  t.u64[column::kGlobalReqs].push_back(c.global_requests);
  t.u64[column::kScratchReqs].push_back(c.scratch_requests);
  t.u64[column::kMemReqs].push_back(c.global_requests + c.scratch_requests);
  ++t.rows;
}

/// Appends the rows of `from`, a table with the same u64 columns, to `to`.
void append_rows(FeatureTable& to, const FeatureTable& from) {
  for (const auto& [name, col] : from.u64) {
    std::vector<uint64_t>& dst = to.u64[name];
    dst.insert(dst.end(), col.begin(), col.end());
  }
  to.rows += from.rows;
}

/// FNV-1a of the program's code bytes as loaded in `mem`; a program that is not in device
/// memory (decoded from a buffer, as tools and tests do) hashes its decoded instructions instead,
/// which is as stable within one build of strobe.
uint64_t code_hash(const isa::Program& prog, const emu::GlobalMemory& mem) {
  std::string code(prog.index_by_dword.size() * 4, '\0');
  try {
    if (!code.empty()) mem.read(prog.base_address, code.data(), code.size());
    return fnv1a(code);
  } catch (const Error&) {
  }
  uint64_t h = fnv1a({});
  for (const isa::Inst& in : prog.insts) {
    const uint64_t f[] = {uint64_t(in.enc), in.opcode, in.size, in.dst, in.sdst, in.src[0], in.src[1], in.src[2],
                          in.literal};
    h = fnv1a(std::string_view(reinterpret_cast<const char*>(f), sizeof f), h);
  }
  return h;
}

}  // namespace

ColumnCollector::ColumnCollector(LaunchRecord& r, const isa::Program& program)
    : record(&r), pc_insts(program.insts.size(), 0), started_(true) {}

ColumnCollector::ColumnCollector(std::unique_ptr<LaunchRecord> own, size_t program_size)
    : record(own.get()), pc_insts(program_size, 0), own_(std::move(own)) {
  init_columns(*record);
}

ColumnCollector ColumnCollector::split() const {
  if (ranges) throw std::logic_error("ColumnCollector::split with ranges");
  return ColumnCollector(std::make_unique<LaunchRecord>(), pc_insts.size());
}

void ColumnCollector::join(ColumnCollector&& part) {
  if (part.record->workgroups.rows == 0) return;
  check_order(part.next_group_ - part.record->workgroups.rows);
  next_group_ = part.next_group_;
  append_rows(record->workgroups, part.record->workgroups);
  append_rows(record->waves, part.record->waves);
  for (size_t pc = 0; pc < pc_insts.size(); ++pc) pc_insts[pc] += part.pc_insts[pc];
}

void ColumnCollector::check_order(uint64_t linear_id) {
  if (!started_) next_group_ = linear_id, started_ = true;
  if (linear_id != next_group_)
    throw FaultError("profile: work-group " + std::to_string(linear_id) + " ran out of dispatch order");
  ++next_group_;
}

void ColumnCollector::finish(const isa::Program& program) {
  const std::vector<uint8_t> ends = timing::basic_block_ends(program);
  auto& starts = record->blocks.u64[column::kStartPc];
  block_vector(ends, pc_insts, starts, record->blocks.u64[column::kWaveInsts]);
  record->blocks.rows = starts.size();
  if (ranges) ranges->finish(pc_insts);
}

void ColumnCollector::wave_end(uint32_t wave, const Counters& c) {
  append(record->waves, c);
  record->waves.u64[column::kWave].push_back(wave);
  ++pending_waves;
}

void ColumnCollector::workgroup_end(uint64_t linear_id, const Counters& c) {
  // Profiler::run_launch runs groups in dispatch order, so the row index is the flattened id.
  check_order(linear_id);
  append(record->workgroups, c);
  if (ranges) ranges->workgroup_end(linear_id, c.wave_instructions, pc_insts);
  auto& owner = record->waves.u64[column::kWorkGroup];
  owner.insert(owner.end(), pending_waves, linear_id);
  pending_waves = 0;
}

LaunchIdentity identify(const emu::Dispatch& d, const emu::GlobalMemory& mem) {
  LaunchIdentity id;
  id.kernel = d.kernel_name;
  id.grid = d.grid;
  id.local = d.local;
  if (d.program) id.code_hash = code_hash(*d.program, mem);
  std::string args(d.kd.kernarg_size, '\0');
  if (!args.empty()) mem.read(d.kernarg_address, args.data(), args.size());
  id.kernarg_hash = fnv1a(args);
  return id;
}

LaunchRecord begin_record(const emu::Dispatch& d, const emu::GlobalMemory& mem) {
  LaunchRecord r;
  r.id = identify(d, mem);
  init_columns(r);
  return r;
}

LaunchRecord profile_launch(const emu::Dispatch& d, emu::GlobalMemory& mem, uint32_t line_bytes,
                            emu::DispatchStats& stats, RangeCutter* ranges, uint32_t threads) {
  LaunchRecord r = begin_record(d, mem);
  Profiler p(line_bytes);
  ColumnCollector c(r, *d.program);
  c.ranges = ranges;
  stats = p.run_launch(d, mem, c, threads);
  c.finish(*d.program);
  return r;
}

runtime::LaunchResult ProfileRunner::run(const emu::Dispatch& d, emu::GlobalMemory& mem, timing::Gpu& gpu) {
  runtime::LaunchResult res;
  launches_.push_back(how_(d, mem, line_bytes_, gpu.host_threads(), res.stats));
  return res;
}

}  // namespace strobe::sampling::profile
