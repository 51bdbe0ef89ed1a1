#include "timing/mem/dram.h"

#include <fmt/format.h>

namespace strobe::timing {

Dram::Dram(std::string name, const DramParams& p, Engine& engine, RequestPool& pool, StatsRegistry& stats)
    : Component(std::move(name)), p_(p), engine_(engine), pool_(pool) {
  banks_.resize(size_t(p_.channels) * p_.banks);
  bus_free_.assign(p_.channels, 0);
  const std::string& n = this->name();
  stats.add(n + ".reads", &c_.reads);
  stats.add(n + ".writes", &c_.writes);
  stats.add(n + ".bytes", &c_.bytes);
  stats.add(n + ".row_hits", &c_.row_hits);
  stats.add(n + ".row_misses", &c_.row_misses);
  stats.add(n + ".row_conflicts", &c_.row_conflicts);
  stats.add(n + ".queue_cycles", &c_.queue_cycles);
}

Dram::Location Dram::locate(uint64_t line) const {
  const uint64_t addr = line * p_.line_bytes;
  const uint64_t chunk = addr / p_.interleave_bytes;
  const uint32_t channel = uint32_t(chunk % p_.channels);
  const uint64_t local = chunk / p_.channels * p_.interleave_bytes + addr % p_.interleave_bytes;
  const uint64_t row_index = local / p_.row_bytes;
  return {channel, uint32_t(row_index % p_.banks), row_index / p_.banks};
}

void Dram::handle(Cycle now, uint32_t kind, uint32_t r) {
  MemReq& q = pool_[r];
  const Location loc = locate(q.line);
  Bank& b = banks_[size_t(loc.channel) * p_.banks + loc.bank];
  const Cycle arrive = now + uint64_t(p_.controller_latency / 2);
  const Cycle start = max(arrive, b.ready);
  uint64_t access;  // command latency until data can move
  if (p_.open_page && b.open_row == loc.row) {
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
    b.open_row = loc.row;
  } else {
    b.ready = start + access + uint64_t(p_.trp);  // auto-precharge after the access
  }
  uint64_t& bus = bus_free_[loc.channel];
  const uint64_t data_fp = std::max<uint64_t>((start.value() + access) << 8, bus);
  bus = data_fp + p_.burst_fp;
  const Cycle done((bus + 255) >> 8);
  const uint64_t ideal = arrive.value() + access + ((p_.burst_fp + 255) >> 8);
  const uint64_t waited = done.value() > ideal ? done.value() - ideal : 0;
  c_.queue_cycles += waited;
  q.mark(waited > 0 ? MemStage::DramQueue : MemStage::Dram);
  if (q.kind == ReqKind::Write) ++c_.writes; else ++c_.reads;
  c_.bytes += p_.line_bytes;
  pool_.respond(engine_, done + uint64_t(p_.controller_latency - p_.controller_latency / 2), r);
}

std::string Dram::describe_state() const { return fmt::format("{} reads, {} writes served", c_.reads, c_.writes); }

}  // namespace strobe::timing
