// Launch histories (see history.h).
#include "capture/history.h"

#include <algorithm>
#include <bit>

#include <fmt/format.h>
#include <tbb/parallel_sort.h>

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
    auto [it, fresh] = page_of_.try_emplace(page, uint32_t(pages_.size()));
    if (fresh) pages_.emplace_back(size_t(1) << page_shift_, kNone);
    last_table_ = pages_[it->second].data();
    last_page_ = page;
  }
  uint32_t& index = last_table_[key & ((uint64_t(1) << page_shift_) - 1)];
  if (index == kNone) {
    index = uint32_t(slots_.size());
    slots_.push_back(Slot{key, 0, 0, kNoMore, {}});
  }
  return index;
}

void HistoryBuilder::touch(Slot& s, uint64_t seq, uint32_t group, uint32_t step) {
  // Instruction and scalar lines keep one group: a replay hands them to every shader array.
  const uint32_t keep = (s.key & 3) == timing::WarmAccess::L1v ? kGroupsPerLine : 1;
  // A line's groups are distinct, so the search may go newest first: the group touching a line
  // is mostly the one that touched it last, found at once and moved nowhere.
  uint32_t i = s.uses;
  for (uint32_t k = s.uses; k-- > 0;)
    if (use_at(s, k).group == group) {
      i = k;
      break;
    }
  if (i == s.uses && s.uses == keep) i = 0;  // a new group: the oldest makes room
  if (i == s.uses) {
    if (s.uses == kInline && s.more == kNoMore) {
      s.more = uint32_t(more_.size());
      more_.emplace_back();
    }
    ++s.uses;
  }
  for (; i + 1 < s.uses; ++i) use_at(s, i) = use_at(s, i + 1);  // keep oldest first
  use_at(s, s.uses - 1) = Use{seq, group, step};
}

void HistoryBuilder::add(const timing::WarmAccess& a) {
  const uint64_t key = a.line << 2 | a.path;
  if (key != last_key_) {
    last_slot_ = slot(key);
    last_key_ = key;
  }
  Slot& s = slots_[last_slot_];
  touch(s, seq_++, a.unit, a.step);
  s.flags |= flag_of(a.kind);
}

std::vector<HistoryBuilder::Ref> HistoryBuilder::in_order() const {
  // The order key travels with each reference, so sorting touches no slot.
  std::vector<Ref> v;
  v.reserve(slots_.size());
  for (size_t i = 0; i < slots_.size(); ++i)
    for (uint32_t u = 0; u < slots_[i].uses; ++u) v.push_back(Ref{use_at(slots_[i], u).seq, uint32_t(i), u});
  // Orders are distinct, so any sort gives the one order; large histories sort on host threads.
  tbb::parallel_sort(v.begin(), v.end(), [](const Ref& a, const Ref& b) { return a.seq < b.seq; });
  return v;
}

void HistoryBuilder::append(const HistoryBuilder& later) {
  // Later accesses come after every one here: their order numbers follow this builder's, so
  // each line takes the later builder's uses (oldest first) after its own, in any line order.
  const uint64_t base = seq_;
  for (const Slot& ls : later.slots_) {
    Slot& s = slots_[slot(ls.key)];
    for (uint32_t u = 0; u < ls.uses; ++u) {
      const Use& use = later.use_at(ls, u);
      touch(s, base + use.seq, use.group, use.step);
    }
    s.flags |= ls.flags;
  }
  seq_ = base + later.seq_;
  last_key_ = kEmpty;  // slots_ may have moved
}

std::vector<HistoryEntry> HistoryBuilder::entries() const {
  std::vector<HistoryEntry> out;
  const std::vector<Ref> refs = in_order();
  out.reserve(refs.size());
  for (const Ref& r : refs) {
    const Slot& s = slots_[r.slot];
    const Use& u = use_at(s, r.use);
    out.push_back(HistoryEntry{s.key >> 2, u.group, uint8_t(s.key & 3), s.flags, u.step});
  }
  return out;
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
