// Launch histories (see history.h).
#include "capture/history.h"

#include <algorithm>
#include <bit>

#include <fmt/format.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_sort.h>
#include <tbb/task_arena.h>

#include "common/error.h"

namespace strobe::capture {

namespace {

uint8_t flag_of(timing::ReqKind k) {
  return k == timing::ReqKind::Atomic ? kAtomic : k == timing::ReqKind::Write ? kWrite : kRead;
}

void put_varint(std::string& out, uint64_t v) {
  while (v >= 0x80) {
    out.push_back(char(uint8_t(v) | 0x80));
    v >>= 7;
  }
  out.push_back(char(v));
}
uint64_t zigzag(int64_t v) { return (uint64_t(v) << 1) ^ uint64_t(v >> 63); }
int64_t unzigzag(uint64_t v) { return int64_t(v >> 1) ^ -int64_t(v & 1); }

}  // namespace

HistoryBuilder::HistoryBuilder(size_t lines, uint32_t granule_bytes)
    : page_shift_(2 + 16 - uint32_t(std::countr_zero(granule_bytes))) {
  slots_.reserve(lines);
}

uint32_t HistoryBuilder::slot(uint64_t key) {
  const uint64_t page = key >> page_shift_;
  if (page != last_page_) {
    RecentPage& r = recent_[(page * 0x9E3779B97F4A7C15ull) >> 58];
    if (r.page != page) {
      auto [it, fresh] = page_of_.try_emplace(page, uint32_t(pages_.size()));
      if (fresh) pages_.emplace_back(size_t(1) << page_shift_, kNone);
      r = RecentPage{page, pages_[it->second].data()};
    }
    last_table_ = r.table;
    last_page_ = page;
  }
  uint32_t& index = last_table_[key & ((uint64_t(1) << page_shift_) - 1)];
  if (index == kNone) {
    index = uint32_t(slots_.size());
    slots_.push_back(Slot{key, 0, 0, 0, kNoMore, {}});
  }
  return index;
}

void HistoryBuilder::touch(Slot& s, uint64_t seq, uint32_t group, uint32_t step) {
  // A line keeps the `keep` groups whose last accesses to it came last, each at its last access.
  // Kept in no order, this holds whatever order the accesses arrive in: a known group keeps its
  // later access, and a new one replaces the group whose last access came first, if it came
  // later. (Builders fed apart then join exactly; in order, it is the usual last-`keep` rule.)
  if (s.uses) {
    Use& u = use_at(s, s.newest);
    if (u.group == group) {
      if (seq > u.seq) u = Use{seq, group, step};
      return;
    }
  }
  // Instruction and scalar lines keep one group: a replay hands them to every shader array.
  const uint32_t keep = (s.key & 3) == timing::WarmAccess::L1v ? kGroupsPerLine : 1;
  uint32_t oldest = 0;
  uint64_t oldest_seq = UINT64_MAX;
  for (uint32_t k = 0; k < s.uses; ++k) {
    Use& u = use_at(s, k);
    if (u.group == group) {
      if (seq > u.seq) u = Use{seq, group, step}, s.newest = uint8_t(k);
      return;
    }
    if (u.seq < oldest_seq) oldest_seq = u.seq, oldest = k;
  }
  if (s.uses < keep) {
    if (s.uses == kInline && s.more == kNoMore) {
      s.more = uint32_t(more_.size());
      more_.emplace_back();
    }
    oldest = s.uses++;
  } else if (seq < oldest_seq) {
    return;  // a later group of each kept one touched the line after this access
  }
  use_at(s, oldest) = Use{seq, group, step};
  s.newest = uint8_t(oldest);
}

void HistoryBuilder::add(const timing::WarmAccess& a, uint64_t seq) {
  const uint64_t key = a.line << 2 | a.path;
  if (key != last_key_) {
    last_slot_ = slot(key);
    last_key_ = key;
  }
  Slot& s = slots_[last_slot_];
  touch(s, seq, a.unit, a.step);
  s.flags |= flag_of(a.kind);
}

template <class Out>
void HistoryBuilder::each_entry(Out&& out) const {
  for (const Slot& s : slots_)
    for (uint32_t u = 0; u < s.uses; ++u) {
      const Use& use = use_at(s, u);
      out(use.seq, HistoryEntry{s.key >> 2, use.group, uint8_t(s.key & 3), s.flags, use.step});
    }
}

namespace {

/// An entry with its access's number.
struct Numbered {
  uint64_t seq;
  HistoryEntry e;
};

/// The entries of `v` in access order: numbers are distinct, so any sort gives the one order, and
/// large histories sort on host threads.
std::vector<HistoryEntry> in_access_order(std::vector<Numbered>& v) {
  tbb::parallel_sort(v.begin(), v.end(), [](const Numbered& a, const Numbered& b) { return a.seq < b.seq; });
  std::vector<HistoryEntry> out;
  out.reserve(v.size());
  for (const Numbered& n : v) out.push_back(n.e);
  return out;
}

}  // namespace

std::vector<HistoryEntry> HistoryBuilder::entries() const {
  std::vector<Numbered> v;
  v.reserve(slots_.size());
  each_entry([&v](uint64_t seq, const HistoryEntry& e) { v.push_back(Numbered{seq, e}); });
  return in_access_order(v);
}

std::vector<HistoryEntry> HistoryBuilder::merged_entries(std::span<const HistoryBuilder* const> parts, size_t* lines) {
  if (parts.size() <= 1) {
    if (lines) *lines = parts.empty() ? 0 : parts[0]->size();
    return parts.empty() ? std::vector<HistoryEntry>{} : parts[0]->entries();
  }
  // Joining the parts one after another was serial, an eighth of an irregular workload's
  // capture. A line's uses and flags depend only on its own accesses, so each shard of the pages
  // is joined apart, over every part: the same uses, whatever the order (touch()).
  const uint32_t shift = parts[0]->page_shift_;
  const size_t shards = size_t(std::max(1, tbb::this_task_arena::max_concurrency())) * 4;
  auto shard_of = [&](uint64_t key) { return size_t((((key >> shift) * 0x9E3779B97F4A7C15ull) >> 32) % shards); };
  std::vector<std::vector<std::vector<uint32_t>>> by_shard(parts.size(), std::vector<std::vector<uint32_t>>(shards));
  tbb::parallel_for(size_t(0), parts.size(), [&](size_t p) {
    const std::vector<Slot>& slots = parts[p]->slots_;
    for (uint32_t i = 0; i < slots.size(); ++i) by_shard[p][shard_of(slots[i].key)].push_back(i);
  });
  std::vector<std::vector<Numbered>> out(shards);
  std::vector<size_t> sizes(shards, 0);
  tbb::parallel_for(size_t(0), shards, [&](size_t s) {
    HistoryBuilder b;
    b.page_shift_ = shift;
    for (size_t p = 0; p < parts.size(); ++p) {
      const HistoryBuilder& part = *parts[p];
      for (uint32_t i : by_shard[p][s]) {
        const Slot& from = part.slots_[i];
        const uint32_t to = b.slot(from.key);
        for (uint32_t u = 0; u < from.uses; ++u) {
          const Use& use = part.use_at(from, u);
          b.touch(b.slots_[to], use.seq, use.group, use.step);
        }
        b.slots_[to].flags |= from.flags;
      }
    }
    sizes[s] = b.size();
    b.each_entry([&o = out[s]](uint64_t seq, const HistoryEntry& e) { o.push_back(Numbered{seq, e}); });
  });
  std::vector<Numbered> all;
  size_t total = 0;
  for (const auto& o : out) total += o.size();
  all.reserve(total);
  for (auto& o : out) {
    all.insert(all.end(), o.begin(), o.end());
    std::vector<Numbered>().swap(o);
  }
  if (lines) {
    *lines = 0;
    for (size_t n : sizes) *lines += n;
  }
  return in_access_order(all);
}

std::string encode_history(const std::vector<HistoryEntry>& entries) {
  std::string out;
  out.reserve(entries.size() * 4);
  uint64_t granule = 0;
  uint32_t group = 0;
  for (const HistoryEntry& e : entries) {
    put_varint(out, zigzag(int64_t(e.granule - granule)));
    put_varint(out, zigzag(int64_t(e.group) - int64_t(group)));
    out.push_back(char(e.path | e.flags << 2));
    put_varint(out, e.step);
    granule = e.granule;
    group = e.group;
  }
  return out;
}

std::vector<HistoryEntry> decode_history(std::string_view bytes, uint64_t count, const std::string& what) {
  std::vector<HistoryEntry> out;
  out.reserve(std::min<uint64_t>(count, bytes.size() / 3 + 1));
  size_t i = 0;
  auto fail = [&]() { return InputError(fmt::format("{}: malformed history at byte {} (corrupt file)", what, i)); };
  auto varint = [&]() {
    uint64_t v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      if (i >= bytes.size()) throw fail();
      const uint8_t b = uint8_t(bytes[i++]);
      v |= uint64_t(b & 0x7f) << shift;
      if (!(b & 0x80)) return v;
    }
    throw fail();
  };
  uint64_t granule = 0;
  int64_t group = 0;
  while (i < bytes.size()) {
    granule += uint64_t(unzigzag(varint()));
    group += unzigzag(varint());
    if (i >= bytes.size() || group < 0 || group > int64_t(UINT32_MAX)) throw fail();
    const uint8_t pf = uint8_t(bytes[i++]);
    const uint8_t path = pf & 3, flags = pf >> 2;
    if (path > timing::WarmAccess::L2 || flags == 0 || flags > 7) throw fail();
    const uint64_t step = varint();
    if (step > UINT32_MAX) throw fail();
    out.push_back(HistoryEntry{granule, uint32_t(group), path, flags, uint32_t(step)});
  }
  if (out.size() != count)
    throw InputError(fmt::format("{}: history holds {} entries, the index says {} (corrupt file)", what, out.size(),
                                 count));
  return out;
}

void apply_history_entry(timing::Warmer& w, uint64_t line, uint32_t unit, const HistoryEntry& e) {
  const auto path = timing::WarmAccess::Path(e.path);
  if (e.flags & kAtomic) {
    w.apply(timing::WarmAccess{line, unit, path, timing::ReqKind::Atomic});
    return;
  }
  if (e.flags & kRead) w.apply(timing::WarmAccess{line, unit, path, timing::ReqKind::Read});
  if (e.flags & kWrite) w.apply(timing::WarmAccess{line, unit, path, timing::ReqKind::Write});
}

}  // namespace strobe::capture
