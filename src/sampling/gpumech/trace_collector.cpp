#include "sampling/gpumech/trace_collector.h"

#include <algorithm>
#include <bit>
#include <iterator>
#include <utility>

#include <fmt/format.h>

#include "common/error.h"
#include "sampling/profile/profiler.h"
#include "timing/cu/coalesce.h"

namespace strobe::sampling::gpumech {

TraceCollector::TraceCollector(const std::vector<StaticInst>& statics, const TraceOptions& o, std::string kernel,
                               LaunchTrace& out)
    : statics_(statics),
      opt_(o),
      line_bits_(uint32_t(std::countr_zero(o.line_bytes))),
      kernel_(std::move(kernel)),
      out_(&out),
      traced_(std::make_shared<std::atomic<uint64_t>>(0)) {
  out_->line_bytes = o.line_bytes;
}

TraceCollector TraceCollector::split() const {
  auto own = std::make_unique<LaunchTrace>();
  TraceCollector t(statics_, opt_, kernel_, *own);
  t.own_ = std::move(own);
  t.traced_ = traced_;
  return t;
}

void TraceCollector::join(TraceCollector&& part) {
  out_->instructions += part.out_->instructions;
  out_->workgroups += part.out_->workgroups;
  out_->waves.insert(out_->waves.end(), std::make_move_iterator(part.out_->waves.begin()),
                     std::make_move_iterator(part.out_->waves.end()));
}

void TraceCollector::check_cap() {
  const uint64_t n = std::exchange(unchecked_, 0);
  if (traced_->fetch_add(n, std::memory_order_relaxed) + n > opt_.max_instructions)
    throw InputError(fmt::format(
        "gpumech: launch of kernel {} runs more than {} wave instructions, the trace cap (its trace and the "
        "model's input cost about {} bytes per instruction)",
        kernel_, opt_.max_instructions, kBytesPerInstruction));
}

void TraceCollector::record(const profile::Instruction& i) {
  ++out_->instructions;
  if (i.wave >= group_.size()) group_.resize(i.wave + 1);
  Live& w = group_[i.wave];
  CollectedWave& t = w.trace;
  if (t.pc.empty()) w.last_writer.fill(0);
  const uint32_t index = uint32_t(t.pc.size());
  const StaticInst& s = statics_[i.pc];
  t.pc.push_back(i.pc);

  // Producers: the latest earlier writer of every register read, each named once.
  uint32_t found[64];
  uint32_t n = 0;
  for (uint8_t r = 0; r < s.regs.nreads; ++r) {
    const timing::RegRange& range = s.regs.reads[r];
    const uint32_t end = std::min<uint32_t>(512, uint32_t(range.first) + range.count);
    for (uint32_t code = range.first; code < end; ++code) {
      const uint32_t p = w.last_writer[code];
      if (p == 0) continue;
      bool seen = false;
      for (uint32_t k = 0; k < n && !seen; ++k) seen = found[k] == p - 1;
      if (!seen && n < 64) found[n++] = p - 1;
    }
  }
  t.nproducers.push_back(uint8_t(n));
  t.producers.insert(t.producers.end(), found, found + n);
  for (uint8_t r = 0; r < s.regs.nwrites; ++r) {
    const timing::RegRange& range = s.regs.writes[r];
    const uint32_t end = std::min<uint32_t>(512, uint32_t(range.first) + range.count);
    for (uint32_t code = range.first; code < end; ++code) w.last_writer[code] = index + 1;
  }

  if (s.cls == InstClass::VectorMemory) {
    // Global and scratch accesses go through the L1V; FLAT into the LDS aperture does not.
    uint64_t lines[timing::kMaxCoalescedLines];
    uint32_t count = 0;
    using Space = emu::MemAccessInfo::Space;
    if (i.mem && (i.mem->space == Space::Global || i.mem->space == Space::Scratch))
      count = timing::coalesce_lines(*i.mem, line_bits_, lines);
    t.lines.append(std::span<const uint64_t>(lines, count));
  }
}

void TraceCollector::workgroup_end(uint64_t linear_id, const profile::Counters&) {
  check_cap();  // every instruction is counted by its group's end, so a launch past the cap throws
  for (uint32_t k = 0; k < group_.size(); ++k) {
    CollectedWave& t = group_[k].trace;
    t.workgroup = linear_id;
    t.wave = k;
    t.pc.shrink_to_fit();
    t.nproducers.shrink_to_fit();
    t.producers.shrink_to_fit();
    t.lines.shrink();
    out_->waves.push_back(std::move(t));
  }
  group_.clear();  // the next group may have fewer waves
  ++out_->workgroups;
}

namespace {

/// The trace collector and the functional profile's column collector on one run.
struct TraceAndColumns : profile::Collector {
  static constexpr profile::Grain kGrain = profile::Grain::Instruction;
  TraceCollector trace;
  profile::ColumnCollector columns;

  TraceAndColumns(TraceCollector&& t, profile::ColumnCollector&& c) : trace(std::move(t)), columns(std::move(c)) {}
  /// Both can.
  bool can_split() const { return trace.can_split() && columns.can_split(); }
  /// Both split.
  TraceAndColumns split() const { return {trace.split(), columns.split()}; }
  /// Both join.
  void join(TraceAndColumns&& part) {
    trace.join(std::move(part.trace));
    columns.join(std::move(part.columns));
  }
  /// Both collectors' per-instruction hooks.
  void instruction(const profile::Instruction& i) {
    trace.instruction(i);
    columns.instruction(i);
  }
  /// The columns' per-wave row.
  void wave_end(uint32_t wave, const profile::Counters& c) { columns.wave_end(wave, c); }
  /// Both collectors' end of a group.
  void workgroup_end(uint64_t linear_id, const profile::Counters& c) {
    columns.workgroup_end(linear_id, c);
    trace.workgroup_end(linear_id, c);
  }
};

}  // namespace

LaunchTrace collect_trace(const emu::Dispatch& d, emu::GlobalMemory& mem, const std::vector<StaticInst>& statics,
                          const TraceOptions& o, emu::DispatchStats* stats, profile::LaunchRecord* columns,
                          profile::RangeCutter* ranges) {
  if (!std::has_single_bit(o.line_bytes)) throw InputError(fmt::format("gpumech: line size {} is not a power of two", o.line_bytes));
  LaunchTrace trace;
  trace.waves_per_group = std::max(1u, (d.local[0] * d.local[1] * d.local[2] + 63) / 64);
  TraceCollector c(statics, o, d.kernel_name, trace);
  profile::Profiler p(o.line_bytes);
  emu::DispatchStats s;
  if (columns) {
    profile::ColumnCollector cc(*columns, *d.program);
    cc.ranges = ranges;
    TraceAndColumns both(std::move(c), std::move(cc));
    s = p.run_launch(d, mem, both, o.threads);
    both.columns.finish(*d.program);
  } else {
    s = p.run_launch(d, mem, c, o.threads);
  }
  if (stats) *stats = s;
  return trace;
}

}  // namespace strobe::sampling::gpumech
