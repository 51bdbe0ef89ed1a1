#include "timing/mem/cache.h"

#include <algorithm>
#include <bit>
#include <stdexcept>

#include <fmt/format.h>

#include "timing/config/gpu_config.h"

namespace strobe::timing {

namespace {
constexpr uint32_t kWritebackTag = UINT32_MAX;

/// A cache's own seed: the configured seed mixed with the cache's name (FNV-1a), so every cache
/// draws a different, reproducible stream.
uint64_t cache_seed(const GpuConfig& c, const std::string& name) {
  uint64_t h = 0xcbf29ce484222325ull ^ uint64_t(c.seed);
  for (unsigned char ch : name) h = (h ^ ch) * 0x100000001b3ull;
  return h;
}

/// The fields every level sets alike: geometry, hit latency, MSHRs, one-way latency below.
CacheParams level_params(int64_t size_bytes, int64_t ways, int64_t line, int64_t latency, int64_t mshrs,
                         int64_t lower_latency, const std::string& replacement) {
  CacheParams p;
  p.geometry.replacement = replacement;
  p.geometry.ways = uint32_t(ways);
  p.geometry.sets = uint32_t(size_bytes / (ways * line));
  p.hit_latency = uint32_t(latency);
  p.fill_latency = uint32_t(latency);
  p.mshrs = uint32_t(mshrs);
  p.lower_latency = uint16_t(lower_latency);
  p.stage = MemStage::L1;
  return p;
}
}  // namespace

CacheParams CacheParams::from_config(const GpuConfig& c, CacheLevel level, const std::string& name) {
  const int64_t line = c.line_bytes;
  CacheParams p;
  switch (level) {
    case CacheLevel::L1V:
      p = level_params(c.l1v_size_kb * 1024, c.l1v_ways, line, c.l1v_latency, c.l1v_mshrs, c.noc_latency,
                       c.l1v_replacement);
      break;
    case CacheLevel::Scalar:
      p = level_params(c.scache_size_kb * 1024, c.scache_ways, line, c.scache_latency, c.scache_mshrs, c.noc_latency,
                       c.scache_replacement);
      break;
    case CacheLevel::L1I:
      p = level_params(c.l1i_size_kb * 1024, c.l1i_ways, line, c.l1i_latency, c.l1i_mshrs, c.noc_latency,
                       c.l1i_replacement);
      p.lookup_fp = uint32_t(256 / c.l1i_lookups_per_cycle);
      break;
    case CacheLevel::L2: {
      // One bank: DRAM sits right below (no interconnect), a miss leaves after the tag lookup,
      // a fill answers at once, writes carry a line through the bank's port, atomics happen here.
      p = level_params(c.l2_size_kb * 1024 / c.l2_banks, c.l2_ways, line, c.l2_latency, c.l2_mshrs, 0,
                       c.l2_replacement);
      const uint32_t data_fp = uint32_t(line * 256 / c.noc_bytes_per_cycle);
      p.geometry.index_divisor = uint32_t(c.l2_banks);
      p.miss_latency = uint32_t(c.l2_latency);
      p.fill_latency = 0;
      p.lookup_fp = uint32_t(256 / c.l2_lookups_per_cycle);
      p.write_in_fp = std::max(p.lookup_fp, data_fp);
      p.data_out_fp = data_fp;
      p.atomic_cycles = uint32_t(c.l2_atomic_cycles);
      p.write_back = true;
      p.atomics_here = true;
      p.stage = MemStage::L2;
      break;
    }
  }
  p.geometry.seed = cache_seed(c, name);
  return p;
}

Cache::Cache(std::string name, const CacheParams& p, Engine& engine, RequestPool& pool, StatsRegistry& stats)
    : Component(std::move(name)), p_(p), engine_(engine), pool_(pool), tags_(p.geometry) {
  set_mshrs_.assign(p_.geometry.sets, RequestPool::kNil);
  mshr_.resize(p_.mshrs);
  for (uint32_t i = p_.mshrs; i-- > 0;) free_mshrs_.push_back(i);
  blocked_.reserve(256);
  const std::string& n = this->name();
  stats.add(n + ".reads", &c_.reads);
  stats.add(n + ".read_hits", &c_.read_hits);
  stats.add(n + ".read_misses", &c_.read_misses);
  stats.add(n + ".mshr_merges", &c_.mshr_merges);
  stats.add(n + ".mshr_full", &c_.mshr_full);
  stats.add(n + ".writes", &c_.writes);
  stats.add(n + ".write_hits", &c_.write_hits);
  stats.add(n + ".write_misses", &c_.write_misses);
  stats.add(n + ".atomics", &c_.atomics);
  stats.add(n + ".writebacks", &c_.writebacks);
  stats.add(n + ".evictions", &c_.evictions);
}

void Cache::set_lower(std::vector<Component*> lowers) {
  lowers_ = std::move(lowers);
  lower_pow2_ = std::has_single_bit(lowers_.size());
  lower_mask_ = lowers_.empty() ? 0 : lowers_.size() - 1;
  lower_partition_ = lowers_.empty() ? partition() : lowers_[0]->partition();
  for (const Component* l : lowers_)
    if (l->partition() != lower_partition_)
      throw std::logic_error(fmt::format("{}: lower levels in different partitions", this->name()));
}

void Cache::send_lower(Cycle when, uint32_t r) {
  MemReq& q = pool_[r];
  q.return_latency = p_.lower_latency;
  Component* lower = lower_of(q.line);
  if (lower_partition_ != pool_.partition())
    return pool_.cross(lower_partition_, engine_.now(), when + uint64_t(p_.lower_latency), lower, r);
  engine_.schedule(when + uint64_t(p_.lower_latency), lower, kMemRequest, r);
}

uint32_t Cache::install(Cycle now, uint64_t line, uint32_t set) {
  CacheTags::Victim v;
  const uint32_t slot = tags_.install(line, set, v);
  if (v.valid) {
    ++c_.evictions;
    if (v.dirty && p_.write_back && !lowers_.empty()) {
      ++c_.writebacks;
      uint32_t wb = pool_.alloc();
      MemReq& q = pool_[wb];
      q.line = v.line;
      q.kind = ReqKind::Write;
      q.reply_to = this;
      q.tag = kWritebackTag;
      send_lower(now, wb);
    }
  }
  return slot;
}

Cycle Cache::data_out(Cycle when) {
  const uint64_t at = std::max(when.value() << 8, out_free_fp_);
  out_free_fp_ = at + p_.data_out_fp;
  return Cycle((at + 255) >> 8);
}

void Cache::respond(Cycle when, uint32_t r, bool data) {
  if (data) when = data_out(when);
  pool_.respond(engine_, when, r);
}

void Cache::handle(Cycle now, uint32_t kind, uint32_t arg) {
  if (kind == kMemRequest) return pool_[arg].is_batch() ? request_batch(now, arg) : request(now, arg);
  if (!is_response(kind)) unhandled(kind);
  if (arg != kWritebackTag) fill(now, arg);  // else a write-back was acknowledged
}

Cycle Cache::reserve_port(Cycle now, ReqKind kind) {
  const uint64_t start_fp = std::max(now.value() << 8, port_free_fp_);
  port_free_fp_ = start_fp + (kind == ReqKind::Write ? p_.write_in_fp : p_.lookup_fp);
  return Cycle((start_fp + 255) >> 8);
}

void Cache::request(Cycle now, uint32_t r, bool replay) {
  MemReq& q = pool_[r];
  const Cycle start = reserve_port(now, q.kind);
  pool_.mark(q, p_.stage);
  const uint32_t set = tags_.set_of(q.line);
  serve(start, r, set, tags_.find(q.line, set), replay);
}

void Cache::request_batch(Cycle now, uint32_t b) {
  const MemReq head = pool_[b];  // a copy: the pool may grow below
  const uint64_t* lines = pool_.lines(head.lines);
  pool_.mark(pool_[b], p_.stage);
  uint32_t hits = 0;
  Cycle hit_done{0};
  for (uint32_t i = 0; i < head.count; ++i) {
    const uint64_t line = lines[i];
    const Cycle start = reserve_port(now, head.kind);
    const uint32_t set = tags_.set_of(line);
    const int way = tags_.find(line, set);
    if (head.kind == ReqKind::Read && way >= 0) {
      // A read hit needs no request record: its response time only counts towards the batch's
      // (the data port serialises the hits, so the last is the latest).
      ++c_.reads;
      ++c_.read_hits;
      tags_.touch(set, uint32_t(way));
      hit_done = data_out(start + uint64_t(p_.hit_latency));
      ++hits;
      continue;
    }
    const uint32_t r = pool_.alloc();
    MemReq& q = pool_[r];
    q = head;
    q.line = line;
    q.lines = RequestPool::kNil;
    q.count = 1;
    serve(start, r, set, way, false);
  }
  pool_.release_lines(head.lines);
  if (hits == 0) return pool_.release(b);
  MemReq& q = pool_[b];
  q.lines = RequestPool::kNil;
  q.count = uint16_t(hits);
  pool_.respond(engine_, hit_done, b);
}

void Cache::serve(Cycle start, uint32_t r, uint32_t set, int way, bool replay) {
  MemReq& q = pool_[r];
  const uint32_t slot = tags_.slot(set, uint32_t(way < 0 ? 0 : way));
  if (q.kind == ReqKind::Write || (q.kind == ReqKind::Atomic && !p_.atomics_here)) {
    if (q.kind == ReqKind::Write) {
      ++c_.writes;
      ++(way >= 0 ? c_.write_hits : c_.write_misses);
    } else {
      ++c_.atomics;
    }
    if (!p_.write_back) {  // write-through: update a present line (atomics invalidate it), forward
      if (way >= 0) {
        if (q.kind == ReqKind::Atomic) tags_.invalidate(slot); else tags_.touch(set, uint32_t(way));
      }
      send_lower(start + uint64_t(p_.miss_latency), r);
      return;
    }
    tags_.set_dirty(install(start, q.line, set));  // write-allocate; byte masks make a fetch unnecessary
    respond(start + uint64_t(p_.hit_latency), r, false);
    return;
  }

  if (!replay) ++(q.kind == ReqKind::Atomic ? c_.atomics : c_.reads);
  if (way >= 0) {
    if (q.kind == ReqKind::Read) ++c_.read_hits;
    tags_.touch(set, uint32_t(way));
    uint64_t lat = p_.hit_latency;
    if (q.kind == ReqKind::Atomic) { tags_.set_dirty(slot); lat += p_.atomic_cycles; }
    respond(start + lat, r, true);
    return;
  }
  if (q.kind == ReqKind::Read && !replay) ++c_.read_misses;
  miss(start, r, set, replay);
}

void Cache::miss(Cycle start, uint32_t r, uint32_t set, bool replay) {
  MemReq& q = pool_[r];
  uint32_t merged = set_mshrs_[set];
  while (merged != RequestPool::kNil && mshr_[merged].line != q.line) merged = mshr_[merged].next_in_set;
  if (merged != RequestPool::kNil) {  // secondary miss: wait for the same fill
    Mshr& m = mshr_[merged];
    ++c_.mshr_merges;
    q.next = RequestPool::kNil;
    pool_[m.tail].next = r;
    m.tail = r;
    return;
  }
  if (mshr_used_ == p_.mshrs) {  // back-pressure: wait for an MSHR to free
    if (!replay) ++c_.mshr_full;
    pool_.mark(q, MemStage::MshrQueue);
    blocked_.push_back(r);
    return;
  }
  const uint32_t mi = free_mshrs_.back();
  free_mshrs_.pop_back();
  mshr_[mi] = Mshr{q.line, r, r, set_mshrs_[set]};
  set_mshrs_[set] = mi;
  q.next = RequestPool::kNil;
  ++mshr_used_;
  uint32_t f = pool_.alloc();
  MemReq& fq = pool_[f];
  const MemReq& oq = pool_[r];  // pool_ may have grown: re-read
  fq.line = oq.line;
  fq.kind = ReqKind::Read;
  fq.reply_to = this;
  fq.tag = mi;
  fq.progress = oq.progress;
  send_lower(start + uint64_t(p_.miss_latency), f);
}

void Cache::fill(Cycle now, uint32_t mi) {
  Mshr& m = mshr_[mi];
  const uint32_t set = tags_.set_of(m.line);
  const uint32_t slot = install(now, m.line, set);
  for (uint32_t r = m.head; r != RequestPool::kNil;) {
    const uint32_t next = pool_[r].next;
    uint64_t lat = p_.fill_latency;
    if (pool_[r].kind == ReqKind::Atomic) { tags_.set_dirty(slot); lat += p_.atomic_cycles; }
    respond(now + lat, r, true);
    r = next;
  }
  uint32_t* link = &set_mshrs_[set];  // unlink from the set's chain
  while (*link != mi) link = &mshr_[*link].next_in_set;
  *link = m.next_in_set;
  free_mshrs_.push_back(mi);
  --mshr_used_;
  // Replay requests that were waiting for an MSHR, in arrival order.
  while (blocked_head_ < blocked_.size() && mshr_used_ < p_.mshrs) request(now, blocked_[blocked_head_++], true);
  if (blocked_head_ == blocked_.size()) blocked_.clear(), blocked_head_ = 0;
}

bool Cache::warm(uint64_t line, ReqKind kind, uint64_t* writeback) {
  const uint32_t set = tags_.set_of(line);
  const int way = tags_.find(line, set);
  CacheTags::Victim victim;
  auto written_back = [&] {
    if (writeback) *writeback = victim.valid && victim.dirty && p_.write_back ? victim.line : UINT64_MAX;
  };
  if (kind == ReqKind::Write || (kind == ReqKind::Atomic && !p_.atomics_here)) {
    if (p_.write_back) {  // write-allocate, dirty (serve)
      if (way >= 0) tags_.touch(set, uint32_t(way));
      tags_.set_dirty(way >= 0 ? tags_.slot(set, uint32_t(way)) : tags_.install_absent(line, set, victim));
      written_back();
      return false;
    }
    if (way >= 0) {  // write-through: a present line is used, an atomic drops it; none allocated
      const uint32_t slot = tags_.slot(set, uint32_t(way));
      if (kind == ReqKind::Atomic) tags_.invalidate(slot); else tags_.touch(set, uint32_t(way));
    }
    written_back();
    return true;
  }
  if (way >= 0) {
    tags_.touch(set, uint32_t(way));
    if (kind == ReqKind::Atomic) tags_.set_dirty(tags_.slot(set, uint32_t(way)));
    written_back();
    return false;
  }
  // A miss: the fill installs the line (an atomic performed here dirties it) and the fetch goes below.
  const uint32_t slot = tags_.install_absent(line, set, victim);
  if (kind == ReqKind::Atomic) tags_.set_dirty(slot);
  written_back();
  return true;
}

std::string Cache::describe_state() const {
  return fmt::format("{} MSHRs in use, {} requests waiting for an MSHR", mshr_used_, blocked_.size() - blocked_head_);
}

}  // namespace strobe::timing
