// Configuration-free warm state. A capture keeps, per launch, the distinct lines the launch
// touched at a fixed granule, in the order of their last access, each with the work-group that
// last touched it, the path it took (vector, scalar or instruction) and what the launch did to
// it. Like a memory timestamp record (Barr et al.) or a TurboSMARTS live-point, this holds no
// cache: a replay walks the histories of the launches before the one it runs, newest first,
// until it has a bounded number of distinct bytes, and applies them oldest first to the caches
// of whatever GPU it simulates: its line size, sets, ways, replacement and CU count, each
// group's lines on the CU the dispatcher's rule gives that group there (timing/gpu/placement.h).
// With LRU replacement the tags and order this leaves are those a full run of the same accesses
// would leave, up to the order of accesses inside one launch, which a detailed run interleaves.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <unordered_map>
#include <string_view>
#include <vector>

#include "timing/gpu/access_walk.h"
#include "timing/gpu/warmer.h"

namespace strobe::capture {

/// What a launch did to a line (HistoryEntry::flags).
enum HistoryFlag : uint8_t { kRead = 1, kWrite = 2, kAtomic = 4 };

/// One distinct line (and path) of a launch, at its last access there.
struct HistoryEntry {
  uint64_t granule = 0;  ///< address / granule bytes
  uint32_t group = 0;    ///< the work-group (linear dispatch id) that last touched it
  uint8_t path = 0;      ///< timing::WarmAccess::Path of that access
  uint8_t flags = 0;     ///< HistoryFlag bits over the whole launch
  /// Instructions its wave had executed before that access: where in the group's lifetime it
  /// came, so a replay can interleave the groups a GPU runs at once (history.h, Replayer::warm).
  uint32_t step = 0;
  bool operator==(const HistoryEntry&) const = default;
};

/// Folds accesses into the distinct lines they touched, in last-access order. A line keeps the
/// last kGroupsPerLine distinct groups that touched it: each one's CU has a vector line in its
/// L1, each one's shader array an instruction or scalar line (a branch taken by few groups leaves
/// its code in their arrays' instruction caches only).
/// Each access carries its number in the order of the whole run; a line keeps the groups with
/// the highest numbers whatever order the accesses arrive in, so builders fed apart (one per host
/// thread, each taking runs of groups in any order) join with merged_entries() into what one
/// builder fed every access in order gives.
class HistoryBuilder {
 public:
  /// Distinct groups a line remembers.
  static constexpr uint32_t kGroupsPerLine = 16;
  /// An empty builder for accesses at `granule_bytes` lines (a power of two, 16 to 1024), that
  /// expects about `lines` distinct lines (it grows past them).
  explicit HistoryBuilder(size_t lines = 0, uint32_t granule_bytes = 64);
  // A copy's cached table pointers would point into the original's tables; a move keeps them.
  HistoryBuilder(const HistoryBuilder&) = delete;
  HistoryBuilder& operator=(const HistoryBuilder&) = delete;
  HistoryBuilder(HistoryBuilder&&) = default;
  HistoryBuilder& operator=(HistoryBuilder&&) = default;
  /// One access, its `unit` being the work-group, numbered `seq` in the order of the run's
  /// accesses (numbers are distinct).
  void add(const timing::WarmAccess& a, uint64_t seq);
  /// add(a[i], seq + i) for each access in turn. The lines of a gather are scattered: their
  /// table entries are fetched together before any is updated, so their cache misses overlap.
  void add_all(std::span<const timing::WarmAccess> a, uint64_t seq);
  /// Every (line, path, group) kept, in last-access order.
  std::vector<HistoryEntry> entries() const;
  /// What entries() gives of one builder fed every access of `parts` (builders at one granule
  /// fed apart with distinct access numbers), found on the calling arena's host threads: a
  /// line's uses depend only on that line's accesses, so each thread joins a share of the pages.
  /// With `lines`, sets it to the distinct lines (and paths).
  static std::vector<HistoryEntry> merged_entries(std::span<const HistoryBuilder* const> parts,
                                                  size_t* lines = nullptr);
  /// Distinct lines (and paths) so far.
  size_t size() const { return slots_.size(); }

 private:
  /// The uses of a line that more than one group touched, a field to an array: finding a group
  /// reads one cache line of groups, and the earliest use two of numbers.
  struct alignas(64) Block {
    uint32_t group[kGroupsPerLine];
    uint32_t step[kGroupsPerLine];
    uint64_t seq[kGroupsPerLine];  // the number of each group's last access to the line
  };
  static constexpr uint32_t kNoMore = UINT32_MAX;
  // Half a cache line: most lines are touched by one group, whose use the slot holds itself.
  struct Slot {
    uint64_t key = 0;          // granule << 2 | path
    uint64_t seq = 0;          // the one use, while more is kNoMore
    uint32_t group = 0;
    uint32_t step = 0;
    uint32_t more = kNoMore;   // its block in blocks_, from the second group on
    uint8_t flags = 0;
    uint8_t uses = 0;          // valid uses: inline (0 or 1), or the block's first `uses`
    uint8_t newest = 0;        // the block's use last written: mostly the group that touches next
  };
  static_assert(sizeof(Slot) == 32);
  static constexpr uint64_t kEmpty = UINT64_MAX;
  static constexpr uint32_t kNone = UINT32_MAX;
  /// The index in slots_ of `key`, inserted (empty) if absent.
  uint32_t slot(uint64_t key);
  /// The table of slot indices of `page` (a key >> page_shift_), or null if no line of it is held.
  const uint32_t* table_of(uint64_t page) const;
  /// Notes that `group` (at `step`) touched the line of `s` in access number seq.
  void touch(Slot& s, uint64_t seq, uint32_t group, uint32_t step);
  /// Calls out(seq, group, step) for every use `s` keeps.
  template <class Out>
  void each_use(const Slot& s, Out&& out) const;
  /// Every kept use as an entry, with its access number.
  template <class Out>
  void each_entry(Out&& out) const;
  // Lines are found through their 64 KiB page: a page's table of slot indices, one per line and
  // path, keeps a wave's accesses to neighbouring lines in one small, cached block.
  uint32_t page_shift_;                                     // key >> page_shift_: the page
  std::unordered_map<uint64_t, uint32_t> page_of_;          // page -> its table in pages_
  std::vector<std::vector<uint32_t>> pages_;                // per page: slot index per line and path (kNone)
  std::vector<Slot> slots_;                                 // every line, in the order first seen
  std::vector<Block> blocks_;                               // the uses of lines shared by groups
  // The last page and line looked up: a wave's consecutive accesses mostly stay in one.
  uint64_t last_page_ = kEmpty, last_key_ = kEmpty;
  uint32_t* last_table_ = nullptr;
  uint32_t last_slot_ = 0;
  /// A page recently looked up, and its table (tables stay where they are as pages_ grows).
  struct RecentPage {
    uint64_t page = kEmpty;
    uint32_t* table = nullptr;
  };
  // Pages recently looked up, by a hash of the page: lanes that gather from scattered pages
  // find their tables without the map.
  std::array<RecentPage, 64> recent_{};
};

/// Warms `w` with what entry `e` records, at `line` (its granule at the simulated line size) from
/// unit `unit` (a CU, for the L1 paths), in the request kinds that rebuild what the work did to
/// the line: a read installs it, a write dirties it where the level writes back, an atomic is
/// performed where atomics are.
void apply_history_entry(timing::Warmer& w, uint64_t line, uint32_t unit, const HistoryEntry& e);

/// The entries as bytes: delta-coded variable-length integers (zstd compresses them further).
std::string encode_history(const std::vector<HistoryEntry>& entries);
/// Reads what encode_history() wrote; InputError naming `what` if the bytes are malformed or do
/// not hold exactly `count` entries.
std::vector<HistoryEntry> decode_history(std::string_view bytes, uint64_t count, const std::string& what);

}  // namespace strobe::capture
