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
    slots_.push_back(Slot{.key = key});
  }
  return index;
}

const uint32_t* HistoryBuilder::table_of(uint64_t page) const {
  const auto it = page_of_.find(page);
  return it == page_of_.end() ? nullptr : pages_[it->second].data();
}

void HistoryBuilder::touch(Slot& s, uint64_t seq, uint32_t group, uint32_t step) {
  // A line keeps the `keep` groups whose last accesses to it came last, each at its last access.
  // Kept in no order, this holds whatever order the accesses arrive in: a known group keeps its
  // later access, and a new one replaces the group whose last access came first, if it came
  // later. (Builders fed apart then join exactly; in order, it is the usual last-`keep` rule.)
  if (s.more == kNoMore) {
    if (s.uses == 0) {
      s.seq = seq, s.group = group, s.step = step, s.uses = 1;
      return;
    }
    if (s.group == group) {
      if (seq > s.seq) s.seq = seq, s.step = step;
      return;
    }
    // A second group: the uses move to a block.
    s.more = uint32_t(blocks_.size());
    Block& b = blocks_.emplace_back();
    b.group[0] = s.group, b.step[0] = s.step, b.seq[0] = s.seq;
    b.group[1] = group, b.step[1] = step, b.seq[1] = seq;
    s.uses = 2, s.newest = 1;
    return;
  }
  Block& b = blocks_[s.more];
  uint32_t k = s.newest;
  if (b.group[k] != group) {
    // Mostly absent (a new group): compare every group without branching on each.
    uint32_t found = kGroupsPerLine;
    for (uint32_t i = 0; i < kGroupsPerLine; ++i) found = b.group[i] == group && i < s.uses ? i : found;
    k = found;
  }
  if (k < s.uses) {
    if (seq > b.seq[k]) b.seq[k] = seq, b.step[k] = step, s.newest = uint8_t(k);
    return;
  }
  if (s.uses < kGroupsPerLine) {
    k = s.uses++;
  } else {
    k = 0;
    for (uint32_t i = 1; i < kGroupsPerLine; ++i) k = b.seq[i] < b.seq[k] ? i : k;
    if (seq < b.seq[k]) return;  // a later group of each kept one touched the line after this access
  }
  b.group[k] = group, b.step[k] = step, b.seq[k] = seq;
  s.newest = uint8_t(k);
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

void HistoryBuilder::add_all(std::span<const timing::WarmAccess> a, uint64_t seq) {
  if (a.size() < 4) {
    for (const timing::WarmAccess& x : a) add(x, seq++);
    return;
  }
  // An instruction's accesses: its code line and at most two lines per lane.
  constexpr size_t kBatch = 2 * emu::kWaveSize + 2;
  uint32_t at[kBatch];
  for (size_t from = 0; from < a.size(); from += kBatch) {
    const size_t n = std::min(kBatch, a.size() - from);
    const timing::WarmAccess* x = a.data() + from;
    for (size_t i = 0; i < n; ++i) {
      const uint64_t key = x[i].line << 2 | x[i].path;
      if (key != last_key_) last_slot_ = slot(key), last_key_ = key;
      at[i] = last_slot_;
    }
    // Slots first (slots_ no longer moves), then the blocks of the shared lines they name.
    for (size_t i = 0; i < n; ++i) __builtin_prefetch(&slots_[at[i]], 1);
    for (size_t i = 0; i < n; ++i)
      if (const uint32_t m = slots_[at[i]].more; m != kNoMore) __builtin_prefetch(blocks_[m].group, 1);
    for (size_t i = 0; i < n; ++i) {
      Slot& s = slots_[at[i]];
      touch(s, seq++, x[i].unit, x[i].step);
      s.flags |= flag_of(x[i].kind);
    }
  }
}

template <class Out>
void HistoryBuilder::each_use(const Slot& s, Out&& out) const {
  if (s.more == kNoMore) {
    if (s.uses) out(s.seq, s.group, s.step);
    return;
  }
  const Block& b = blocks_[s.more];
  for (uint32_t u = 0; u < s.uses; ++u) out(b.seq[u], b.group[u], b.step[u]);
}

template <class Out>
void HistoryBuilder::each_entry(Out&& out) const {
  for (const Slot& s : slots_)
    each_use(s, [&](uint64_t seq, uint32_t group, uint32_t step) {
      out(seq, HistoryEntry{s.key >> 2, group, uint8_t(s.key & 3), s.flags, step});
    });
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

std::vector<HistoryEntry> HistoryBuilder::merged_entries(std::span<const HistoryBuilder* const> given, size_t* lines) {
  // A part that saw no access (a thread that took no group) joins nothing.
  std::vector<const HistoryBuilder*> parts;
  for (const HistoryBuilder* p : given)
    if (p->size() > 0) parts.push_back(p);
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
    // Most lines are in one part only (the groups that touch them ran on one thread): their uses
    // are the part's as they are. A line in several parts is joined in `b` by the part that holds
    // it first, and skipped by the later ones.
    HistoryBuilder b;
    b.page_shift_ = shift;
    std::vector<Numbered>& o = out[s];
    size_t alone = 0;
    std::vector<uint32_t> in(parts.size());
    // Each part's table of the page last looked up: a part's lines come a page at a time.
    std::vector<uint64_t> page(parts.size(), kEmpty);
    std::vector<const uint32_t*> table(parts.size(), nullptr);
    const uint64_t line_mask = (uint64_t(1) << shift) - 1;
    auto find = [&](size_t q, uint64_t key) {
      if (key >> shift != page[q]) page[q] = key >> shift, table[q] = parts[q]->table_of(page[q]);
      return table[q] ? table[q][key & line_mask] : kNone;
    };
    for (size_t p = 0; p < parts.size(); ++p) {
      const HistoryBuilder& part = *parts[p];
      for (uint32_t i : by_shard[p][s]) {
        const Slot& from = part.slots_[i];
        bool earlier = false, later = false;
        for (size_t q = 0; q < parts.size() && !earlier; ++q) {
          in[q] = q == p ? i : find(q, from.key);
          if (q != p && in[q] != kNone) (q < p ? earlier : later) = true;
        }
        if (earlier) continue;  // joined with the first part that has it
        if (!later) {
          ++alone;
          part.each_use(from, [&](uint64_t seq, uint32_t group, uint32_t step) {
            o.push_back(Numbered{seq, HistoryEntry{from.key >> 2, group, uint8_t(from.key & 3), from.flags, step}});
          });
          continue;
        }
        Slot& to = b.slots_[b.slot(from.key)];
        for (size_t q = p; q < parts.size(); ++q) {
          if (in[q] == kNone) continue;
          const Slot& f = parts[q]->slots_[in[q]];
          parts[q]->each_use(f, [&](uint64_t seq, uint32_t group, uint32_t step) { b.touch(to, seq, group, step); });
          to.flags |= f.flags;
        }
      }
    }
    sizes[s] = alone + b.size();
    b.each_entry([&o](uint64_t seq, const HistoryEntry& e) { o.push_back(Numbered{seq, e}); });
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
