#include "timing/mem/dram.h"

#include <algorithm>
#include <bit>
#include <cmath>

#include <fmt/format.h>

#include "timing/config/gpu_config.h"

namespace strobe::timing {

namespace {
/// DRAM-clock cycles as core cycles, rounded up.
uint32_t core_cycles(int64_t dram_cycles, const GpuConfig& c) {
  return uint32_t(int64_t(std::ceil(double(dram_cycles) * c.clock_mhz / c.dram_clock_mhz - 1e-9)));
}
}  // namespace

DramParams DramParams::from_config(const GpuConfig& c) {
  DramParams p;
  p.channels = uint32_t(c.dram_channels);
  p.banks = uint32_t(c.dram_banks);
  p.line_bytes = uint32_t(c.line_bytes);
  p.row_bytes = uint32_t(c.dram_row_bytes);
  p.interleave_bytes = uint32_t(c.dram_interleave_bytes);
  p.tcl = core_cycles(c.dram_tcl, c);
  p.trcd = core_cycles(c.dram_trcd, c);
  p.trp = core_cycles(c.dram_trp, c);
  p.tccd = core_cycles(c.dram_tccd, c);
  p.controller_latency = uint32_t(c.dram_controller_cycles);
  const double bytes_per_cycle = c.dram_bandwidth_gbs * 1000.0 / c.clock_mhz / double(c.dram_channels);
  p.burst_fp = uint64_t(std::llround(double(c.line_bytes) / bytes_per_cycle * 256.0));
  p.open_page = choice<RowPolicy>(c, "dram.row_policy") == RowPolicy::Open;
  p.turnaround = core_cycles(c.dram_turnaround, c);
  p.scheduler = c.dram_scheduler;
  p.sched.bypass_cap = uint32_t(c.dram_frfcfs_cap);
  return p;
}

Dram::Dram(std::string name, const DramParams& p, Engine& engine, RequestPool& pool, StatsRegistry& stats)
    : Component(std::move(name)), p_(p), engine_(engine), pool_(pool), sched_(make_dram_scheduler(p.scheduler, p.sched)) {
  banks_.resize(size_t(p_.channels) * p_.banks);
  pow2_ = std::has_single_bit(p_.line_bytes) && std::has_single_bit(p_.interleave_bytes) &&
          std::has_single_bit(p_.channels) && std::has_single_bit(p_.row_bytes) && std::has_single_bit(p_.banks);
  if (pow2_) {
    line_shift_ = uint32_t(std::countr_zero(p_.line_bytes));
    interleave_shift_ = uint32_t(std::countr_zero(p_.interleave_bytes));
    channel_shift_ = uint32_t(std::countr_zero(p_.channels));
    row_shift_ = uint32_t(std::countr_zero(p_.row_bytes));
    bank_shift_ = uint32_t(std::countr_zero(p_.banks));
  }
  channels_.resize(p_.channels);
  const std::string& n = this->name();
  stats.add(n + ".reads", &c_.reads);
  stats.add(n + ".writes", &c_.writes);
  stats.add(n + ".bytes", &c_.bytes);
  stats.add(n + ".row_hits", &c_.row_hits);
  stats.add(n + ".row_misses", &c_.row_misses);
  stats.add(n + ".row_conflicts", &c_.row_conflicts);
  stats.add(n + ".queue_cycles", &c_.queue_cycles);
  stats.add(n + ".bypasses", &c_.bypasses);
}

void Dram::warm(uint64_t line) {
  if (!p_.open_page) return;
  const Location l = locate(line);
  banks_[size_t(l.channel) * p_.banks + l.bank].open_row = l.row;
}

Dram::Location Dram::locate(uint64_t line) const {
  if (pow2_) {  // the usual geometry: shifts and masks
    const uint64_t addr = line << line_shift_;
    const uint64_t chunk = addr >> interleave_shift_;
    const uint32_t channel = uint32_t(chunk & (p_.channels - 1));
    const uint64_t local = ((chunk >> channel_shift_) << interleave_shift_) | (addr & (p_.interleave_bytes - 1));
    const uint64_t row_index = local >> row_shift_;
    return {channel, uint32_t(row_index & (p_.banks - 1)), row_index >> bank_shift_};
  }
  const uint64_t addr = line * p_.line_bytes;
  const uint64_t chunk = addr / p_.interleave_bytes;
  const uint32_t channel = uint32_t(chunk % p_.channels);
  const uint64_t local = chunk / p_.channels * p_.interleave_bytes + addr % p_.interleave_bytes;
  const uint64_t row_index = local / p_.row_bytes;
  return {channel, uint32_t(row_index % p_.banks), row_index / p_.banks};
}

void Dram::handle(Cycle now, uint32_t kind, uint32_t arg) {
  if (kind == kMemRequest) return arrive(now, arg);
  if (kind != kDramDecide) unhandled(kind);
  Channel& ch = channels_[arg];
  if (now != ch.decide_at) return;  // superseded by an earlier decision
  ch.decide_at = Cycle::never();
  decide(now, arg);
}

void Dram::decide_by(uint32_t channel, Cycle at) {
  Channel& ch = channels_[channel];
  if (ch.decide_at <= at) return;
  ch.decide_at = at;
  engine_.schedule(at, this, kDramDecide, channel);
}

void Dram::arrive(Cycle now, uint32_t r) {
  MemReq& q = pool_[r];
  const Location loc = locate(q.line);
  Bank& b = banks_[size_t(loc.channel) * p_.banks + loc.bank];
  // The controller sees the request after the request half of its latency.
  const Cycle at = now + uint64_t(p_.controller_latency / 2);
  b.queue.push_back(DramQueued{loc.row, seq_++, 0, r, at.value(), q.kind == ReqKind::Write});
  if (b.queue.size() == 1) b.update_next();
  pool_.mark(q, MemStage::Dram);
  decide_by(loc.channel, b.next);
}

void Dram::decide(Cycle now, uint32_t channel) {
  picks_.clear();
  Bank* const first = &banks_[size_t(channel) * p_.banks];
  for (uint32_t bi = 0; bi < p_.banks; ++bi) {
    Bank& b = first[bi];
    if (b.next > now) continue;
    const uint64_t open = p_.open_page ? b.open_row : UINT64_MAX;
    const uint32_t i = sched_->pick(b.queue, open, now.value());
    picks_.push_back(Pick{bi, i, b.queue[i].row == open});
  }
  // Banks issuing in the same cycle take the data bus in the scheduler's order.
  std::sort(picks_.begin(), picks_.end(), [&](const Pick& x, const Pick& y) {
    return sched_->before(first[x.bank].queue[x.index], x.hit, first[y.bank].queue[y.index], y.hit);
  });
  for (const Pick& pk : picks_) issue(now, channel, pk);
  for (const Pick& pk : picks_) first[pk.bank].update_next();
  Cycle next = Cycle::never();
  for (uint32_t bi = 0; bi < p_.banks; ++bi) next = min(next, first[bi].next);
  if (!next.is_never()) decide_by(channel, next);
}

void Dram::issue(Cycle now, uint32_t channel, const Pick& pk) {
  Bank& b = banks_[size_t(channel) * p_.banks + pk.bank];
  const DramQueued d = b.queue[pk.index];
  if (pk.index > 0) {  // younger than some waiting request of this bank
    ++c_.bypasses;
    for (uint32_t j = 0; j < pk.index; ++j) ++b.queue[j].bypassed;
  }
  b.queue.erase(b.queue.begin() + pk.index);
  const Cycle start = now;
  uint64_t access;  // command latency until data can move
  if (p_.open_page && b.open_row == d.row) {
    ++c_.row_hits;
    access = p_.tcl;
    b.ready = start + uint64_t(p_.tccd);
  } else {
    if (p_.open_page && b.open_row != UINT64_MAX) {
      ++c_.row_conflicts;
      access = uint64_t(p_.trp) + p_.trcd + p_.tcl;
    } else {
      ++c_.row_misses;
      access = uint64_t(p_.trcd) + p_.tcl;
    }
    b.ready = start + (access - p_.tcl) + uint64_t(p_.tccd);
  }
  if (p_.open_page) {
    b.open_row = d.row;
  } else {
    b.ready = start + access + uint64_t(p_.trp);  // auto-precharge after the access
  }
  Channel& ch = channels_[channel];
  uint64_t data_fp = std::max<uint64_t>((start.value() + access) << 8, ch.bus_free_fp);
  if (ch.used && ch.last_write != d.write)  // the bus changes direction
    data_fp = std::max<uint64_t>(data_fp, ch.bus_free_fp + (uint64_t(p_.turnaround) << 8));
  ch.bus_free_fp = data_fp + p_.burst_fp;
  ch.last_write = d.write;
  ch.used = true;
  const Cycle done((ch.bus_free_fp + 255) >> 8);
  const uint64_t ideal = d.arrive + access + ((p_.burst_fp + 255) >> 8);
  const uint64_t waited = done.value() > ideal ? done.value() - ideal : 0;
  c_.queue_cycles += waited;
  MemReq& q = pool_[d.req];
  if (waited > 0) pool_.mark(q, MemStage::DramQueue);
  if (d.write) ++c_.writes; else ++c_.reads;
  c_.bytes += p_.line_bytes;
  pool_.respond(engine_, done + uint64_t(p_.controller_latency - p_.controller_latency / 2), d.req);
}

std::string Dram::describe_state() const {
  size_t queued = 0;
  for (const Bank& b : banks_) queued += b.queue.size();
  return fmt::format("{} reads, {} writes served, {} queued", c_.reads, c_.writes, queued);
}

}  // namespace strobe::timing
