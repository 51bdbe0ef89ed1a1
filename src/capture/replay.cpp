// Replaying a capture (see replay.h).
#include "capture/replay.h"

#include <algorithm>
#include <bit>
#include <charconv>
#include <chrono>
#include <cstring>
#include <filesystem>

#include <fmt/format.h>

#include "capture/checkpoint.h"
#include "capture/history.h"
#include "common/atomic_file.h"
#include "common/error.h"
#include "sampling/numeric/key_set.h"
#include "timing/gpu/gpu.h"
#include "timing/gpu/placement.h"

namespace strobe::capture {

namespace {

double since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

std::vector<uint64_t> parse_launch_list(const std::string& list, uint64_t count) {
  auto fail = [&](const std::string& why) {
    return InputError(fmt::format("--launches '{}': {}", list.size() > 64 ? list.substr(0, 64) + "..." : list, why));
  };
  auto number = [&](std::string_view s) {
    uint64_t v = 0;
    const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (s.empty() || ec != std::errc() || p != s.data() + s.size())
      throw fail(fmt::format("'{}' is not a launch index", s.size() > 24 ? std::string(s.substr(0, 24)) + "..." : s));
    if (v >= count)
      throw fail(fmt::format("launch {} is out of range: the capture holds {} launch{} (0 to {})", v, count,
                             count == 1 ? "" : "es", count - 1));
    return v;
  };
  std::vector<uint64_t> out;
  size_t start = 0;
  if (list.empty()) throw fail("empty");
  while (start <= list.size()) {
    const size_t comma = std::min(list.find(',', start), list.size());
    const std::string_view item(list.data() + start, comma - start);
    const size_t dash = item.find('-');
    if (dash == std::string_view::npos) {
      out.push_back(number(item));
    } else {
      const uint64_t a = number(item.substr(0, dash)), b = number(item.substr(dash + 1));
      if (b < a) throw fail(fmt::format("range {}-{} is reversed", a, b));
      for (uint64_t i = a; i <= b; ++i) out.push_back(i);
    }
    start = comma + 1;
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

Replayer::Replayer(const CaptureFile& cap, runtime::Device& dev)
    : cap_(cap), dev_(dev), modules_(cap.index().code_objects.size(), nullptr),
      programs_(cap.index().code_objects.size()),
      ran_(new std::atomic<bool>[cap.index().launches.size()]()),
      fetched_(new std::atomic<bool>[cap.index().launches.size()]()) {
  // A host program's capture lies at that program's addresses: the device places them.
  if (dev.memory().host_addresses() != cap.index().host_addresses) dev.reset_memory(cap.index().host_addresses);
}

const isa::Program& Replayer::loaded_program(uint32_t i) {
  if (!programs_[i]) {
    const CodeObjectRecord& c = cap_.index().code_objects[i];
    const std::string bytes = cap_.blob(c.blob, BlobKind::CodeObject);
    const isa::ByteRange all{0, bytes.size()};
    programs_[i] = std::make_unique<isa::Program>(isa::decode_program(
        std::span(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()), c.load_base, std::span(&all, 1)));
    programs_[i]->load_bias = c.load_bias;
  }
  return *programs_[i];
}

runtime::Module& Replayer::module(uint32_t i) {
  if (!modules_[i]) {
    const CodeObjectRecord& c = cap_.index().code_objects[i];
    const std::string image = cap_.blob(c.blob, BlobKind::CodeObject);
    loader::CodeObject co = loader::CodeObject::parse(std::vector<uint8_t>(image.begin(), image.end()),
                                                      fmt::format("{} (in capture {})", c.name, cap_.path()));
    modules_[i] = &dev_.adopt(std::move(co), c.load_base);
  }
  return *modules_[i];
}

emu::Dispatch Replayer::dispatch(uint64_t i) {
  const LaunchRecord& l = cap_.launch(i);
  if (cap_.index().code_objects[l.code_object].loaded) {
    emu::Dispatch d = l.dispatch;  // its entry and descriptor as the runtime gave them
    d.program = &loaded_program(l.code_object);
    return d;
  }
  runtime::Module& m = module(l.code_object);
  const loader::KernelInfo& k = m.code_object().kernel(l.dispatch.kernel_name);
  emu::Dispatch d = l.dispatch;
  d.program = &m.program();
  d.entry_address = m.load_base() + k.entry_address;
  d.kd = k.kd;
  return d;
}

void Replayer::install_page_source() {
  emu::GlobalMemory& mem = dev_.memory();
  if (sourced_ == &mem) return;
  mem.set_page_source([this](uint64_t page, uint8_t* dst) {
    auto it = pending_.find(page);
    if (it == pending_.end()) return false;  // not a checkpoint page: it reads as zero
    const uint32_t blob = it->second;
    if (blob == kDroppedPage) throw dropped(preparing_);
    fetched_[preparing_].store(true, std::memory_order_relaxed);
    pending_.erase(it);
    if (blob == kZeroPage) return false;
    std::memcpy(dst, cap_.shared_blob(blob, BlobKind::Page)->data(), kPageBytes);
    return true;
  });
  sourced_ = &mem;
}

void Replayer::prepare(uint64_t i, bool fresh_memory) {
  const auto t0 = std::chrono::steady_clock::now();
  const LaunchRecord& l = cap_.launch(i);
  if (l.calls_host)
    throw NotImplementedError(fmt::format("replaying launch {} ({}) of capture {}: it called the host while it ran "
                                          "(device printf or malloc through hostcall), and a replay has no host "
                                          "program to answer",
                                          i, l.dispatch.kernel_name, cap_.path()));
  const bool host = cap_.index().host_addresses;
  preparing_ = i;
  if (fresh_memory) {
    dev_.reset_memory(host);
    current_.clear();
    pending_.clear();
  }
  if (!host) install_page_source();
  emu::GlobalMemory& mem = dev_.memory();
  // The allocation map: what the launch saw live, at the same addresses.
  const std::vector<AllocationRecord>& map = cap_.index().allocation_maps[l.allocations];
  auto in_map = [&map](const emu::GlobalMemory::LiveAllocation& a) {
    auto it = std::lower_bound(map.begin(), map.end(), a.addr,
                               [](const AllocationRecord& r, uint64_t addr) { return r.addr < addr; });
    return it != map.end() && it->addr == a.addr && it->bytes == a.bytes;
  };
  std::vector<emu::GlobalMemory::LiveAllocation> live = mem.allocations();
  for (const auto& a : live) {
    if (in_map(a)) continue;
    mem.free(a.addr);
    for (uint64_t p = a.addr & ~(kPageBytes - 1); p < a.addr + a.bytes; p += kPageBytes)
      current_.erase(p), pending_.erase(p);
  }
  live = mem.allocations();
  for (const AllocationRecord& r : map) {
    auto it = std::lower_bound(live.begin(), live.end(), r.addr,
                               [](const emu::GlobalMemory::LiveAllocation& a, uint64_t addr) { return a.addr < addr; });
    if (it == live.end() || it->addr != r.addr) mem.allocate_at(r.addr, r.bytes, r.tag);
  }
  if (host) {
    // A host program's ranges need not start on a page of their own, so a page may be shared:
    // each is written whole, now, the parts its ranges map.
    std::vector<uint8_t> zeros;
    for (const PageRef& p : l.pages) {
      auto it = current_.find(p.addr);
      if (it != current_.end() && it->second == p.blob) continue;
      if (p.blob == kDroppedPage) throw dropped(i);
      if (p.blob == kZeroPage) {
        zeros.resize(kPageBytes);
        mem.write_host_page(p.addr, zeros.data());
      } else {
        mem.write_host_page(p.addr, reinterpret_cast<const uint8_t*>(cap_.shared_blob(p.blob, BlobKind::Page)->data()));
      }
      current_[p.addr] = p.blob;
    }
    restore_seconds_ += since(t0);
    return;
  }
  mem.set_next_address(l.next_address);
  // The checkpoint's pages, fetched when first touched; pages already holding (or about to
  // receive) the same content stay as they are.
  for (const PageRef& p : l.pages) {
    auto it = current_.find(p.addr);
    if (it != current_.end() && it->second == p.blob) continue;
    mem.drop_page(p.addr);
    pending_[p.addr] = p.blob;
    current_[p.addr] = p.blob;
  }
  restore_seconds_ += since(t0);
}

uint64_t Replayer::fitted_granules(const timing::GpuConfig& cfg) const {
  return capture::fitted_granules(cfg, cap_.index().granule_bytes);
}

uint64_t fitted_granules(const timing::GpuConfig& cfg, uint32_t granule_bytes) {
  const uint64_t arrays = (uint64_t(cfg.num_cus) + cfg.cus_per_shader_array - 1) / cfg.cus_per_shader_array;
  const uint64_t bytes = uint64_t(cfg.l2_size_kb) * 1024 + uint64_t(cfg.num_cus) * cfg.l1v_size_kb * 1024 +
                         arrays * uint64_t(cfg.scache_size_kb) * 1024;
  return std::max<uint64_t>(1, 4 * bytes / std::max<uint64_t>(1, granule_bytes));
}

namespace {

/// Where Replayer::warm puts an instruction or scalar line's use (shared_line_spread).
enum Spread : uint8_t { kOwnArray, kEveryArray, kSkip };

/// Per entry of a launch's history: a vector line's use is its own (kOwnArray, unused); an
/// instruction or scalar line's goes to its group's shader array while the line's kept groups
/// are fewer than the history keeps. A line that kept all kGroupsPerLine was touched by more
/// groups than that, likely by most of them: its newest use goes to every array that ran the
/// launch and the others are skipped. Captures before version 7 kept one group of such a line,
/// which then always goes to every array.
std::vector<uint8_t> shared_line_spread(const std::vector<HistoryEntry>& entries, uint32_t version) {
  std::vector<uint8_t> spread(entries.size(), kOwnArray);
  std::unordered_map<uint64_t, std::pair<uint32_t, size_t>> uses;  // line and path -> uses, newest entry
  for (size_t k = 0; k < entries.size(); ++k) {
    const HistoryEntry& e = entries[k];
    if (e.path == timing::WarmAccess::L1v) continue;
    auto& u = uses[e.granule << 2 | e.path];
    ++u.first;
    u.second = k;  // entries are in last-access order: the last one seen is the newest
  }
  for (size_t k = 0; k < entries.size(); ++k) {
    const HistoryEntry& e = entries[k];
    if (e.path == timing::WarmAccess::L1v) continue;
    const auto& u = uses.at(e.granule << 2 | e.path);
    if (version < 7 || u.first >= HistoryBuilder::kGroupsPerLine) spread[k] = u.second == k ? kEveryArray : kSkip;
  }
  return spread;
}

}  // namespace

void Replayer::warm(uint64_t from, uint64_t to, uint64_t max_granules) {
  timing::Gpu* gpu = dev_.gpu();
  if (!gpu || from >= to) return;
  const auto t0 = std::chrono::steady_clock::now();
  const CaptureIndex& x = cap_.index();
  const uint32_t line = uint32_t(gpu->config().line_bytes);
  if (line < x.granule_bytes)
    throw InputError(fmt::format("capture {}: its history was recorded at {}-byte lines, and mem.line_bytes = {} is "
                                 "smaller; capture with --granule {} or smaller",
                                 cap_.path(), x.granule_bytes, line, line));
  const uint32_t shift = uint32_t(std::countr_zero(line) - std::countr_zero(x.granule_bytes));
  // Newest first, until the bound's distinct granules are found; each launch keeps its newest part.
  uint64_t budget = std::max<uint64_t>(1, x.history_bytes / x.granule_bytes);
  if (max_granules > 0) budget = std::min(budget, max_granules);
  // Sized for the granules the launches can give, which a bound far above them does not change.
  uint64_t entries = 0;
  for (uint64_t j = from; j < to && entries < budget; ++j) entries += cap_.launch(j).history_entries;
  sampling::KeySet seen(std::min(budget, entries));
  struct Launch {
    uint64_t index;
    std::vector<HistoryEntry> entries;
    std::vector<uint8_t> spread;  // shared_line_spread of the launch's whole history
  };
  std::vector<Launch> window;  // newest launch first
  for (uint64_t j = to; j-- > from && seen.size() < budget;) {
    const LaunchRecord& l = cap_.launch(j);
    std::vector<HistoryEntry> entries =
        decode_history(cap_.blob(l.history, BlobKind::History), l.history_entries,
                       fmt::format("capture {}: launch {}", cap_.path(), j));
    // Where a code line goes is decided on the whole launch: the oldest launch of the window
    // keeps only its newest part, which can hold some of a shared line's groups only.
    std::vector<uint8_t> spread = shared_line_spread(entries, x.version);
    size_t first = entries.size();
    while (first > 0 && seen.size() < budget) seen.insert(entries[--first].granule);
    entries.erase(entries.begin(), entries.begin() + std::ptrdiff_t(first));
    spread.erase(spread.begin(), spread.begin() + std::ptrdiff_t(first));
    window.push_back({j, std::move(entries), std::move(spread)});
  }
  timing::Warmer& w = gpu->warmer();
  // DRAM's open rows are state a full run leaves too: warmed with the caches, then left alone.
  gpu->warm_dram(true);
  struct DramOff {
    timing::Gpu* g;
    ~DramOff() { g->warm_dram(false); }
  } dram_off{gpu};
  const uint32_t cus = uint32_t(gpu->config().num_cus), per_array = uint32_t(gpu->config().cus_per_shader_array);
  // Instruction and scalar lines are shared by a launch's groups (its code, its arguments, its
  // uniform tables): every shader array that ran a group of the launch holds them, not only the
  // array of the group that touched them last. One CU of each such array stands for it: the
  // arrays of the CUs its first groups go to (the dispatcher starts each launch at CU 0).
  auto arrays_of = [&](uint64_t groups) {
    std::vector<uint32_t> arrays;
    for (uint64_t cu = 0; cu < std::min<uint64_t>(groups, cus); cu += per_array) arrays.push_back(uint32_t(cu));
    return arrays;
  };
  auto groups_of = [](const emu::Dispatch& d) {
    uint64_t groups = 1;
    for (int k = 0; k < 3; ++k) groups *= (uint64_t(d.grid[k]) + d.local[k] - 1) / d.local[k];
    return groups;
  };
  // Code stays in the small instruction caches long after data has streamed through the L2:
  // before the data window, the code lines of older launches, back to `from`, to their own bound.
  const uint64_t oldest = window.empty() ? to : window.back().index;
  const uint64_t code_budget = std::max<uint64_t>(1, kCodeHistoryBytes / x.granule_bytes);
  sampling::KeySet code_seen;
  std::vector<uint64_t> code_window;  // newest launch first
  for (uint64_t j = oldest; j-- > from && code_seen.size() < code_budget;) {
    code_window.push_back(j);
    for (const HistoryEntry& e : code_lines(j)) code_seen.insert(e.granule);
  }
  // A wave's instruction buffer fetches up to its capacity ahead of the instruction it runs, so
  // an instruction line comes with the lines after it that the buffer reaches.
  const uint32_t ahead = uint32_t((gpu->config().ib_bytes + line - 1) / line);
  auto apply_code = [&](uint64_t code_line, uint32_t cu, const HistoryEntry& e) {
    for (uint32_t k = 0; k <= ahead; ++k) apply_history_entry(w, code_line + k, cu, e);
  };
  for (auto it = code_window.rbegin(); it != code_window.rend(); ++it)
    for (const HistoryEntry& e : code_lines(*it))
      for (uint32_t cu : arrays_of(groups_of(dispatch(*it)))) apply_code(e.granule >> shift, cu, e);
  for (auto it = window.rbegin(); it != window.rend(); ++it) {
    const emu::Dispatch d = dispatch(it->index);
    const uint64_t groups = groups_of(d);
    // Each group's lines go to the CU this GPU's dispatcher would give the group.
    const std::vector<uint32_t> cu_of = timing::functional_placement(cus, gpu->occupancy_of(d).workgroups_per_cu, groups);
    const std::vector<uint32_t> arrays = arrays_of(groups);
    // The order the lines were last touched in on this GPU: the groups it holds at once run
    // together, so a line's time is its group's generation plus how far into the group's life
    // the access came (its wave's instructions before it, against the launch's mean wave).
    const std::vector<HistoryEntry>& entries = it->entries;
    const LaunchRecord& rec = cap_.launch(it->index);
    const uint64_t resident = std::max<uint64_t>(1, uint64_t(cus) * std::max(1u, gpu->occupancy_of(d).workgroups_per_cu));
    const double wave_len =
        std::max(1.0, double(rec.stats.wave_instructions) / double(std::max<uint64_t>(1, rec.stats.wavefronts)));
    std::vector<std::pair<double, uint32_t>> order(entries.size());
    for (size_t k = 0; k < entries.size(); ++k) {
      const HistoryEntry& e = entries[k];
      if (e.group >= groups)
        throw InputError(fmt::format("capture {}: launch {}'s history names work-group {} of {} (corrupt file)",
                                     cap_.path(), it->index, e.group, groups));
      order[k] = {double(e.group / resident) + std::min(1.0, double(e.step) / wave_len), uint32_t(k)};
    }
    std::stable_sort(order.begin(), order.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    const std::vector<uint8_t>& spread = it->spread;
    for (const auto& [when, k] : order) {
      const HistoryEntry& e = entries[k];
      const uint64_t line = e.granule >> shift;
      if (e.path == timing::WarmAccess::L1v) {
        apply_history_entry(w, line, cu_of[e.group], e);
        continue;
      }
      // An instruction or scalar line goes to its groups' shader arrays, or to every array that
      // ran the launch when more groups touched it than the history keeps.
      if (spread[k] == kSkip) continue;
      const auto apply = [&](uint32_t cu) {
        if (e.path == timing::WarmAccess::L1i) apply_code(line, cu, e);
        else apply_history_entry(w, line, cu, e);
      };
      if (spread[k] == kOwnArray) apply(cu_of[e.group]);
      else for (uint32_t cu : arrays) apply(cu);
    }
  }
  warm_seconds_ += since(t0);
}

const std::vector<HistoryEntry>& Replayer::code_lines(uint64_t i) {
  const LaunchRecord& l = cap_.launch(i);
  auto it = code_.find(l.code);
  if (it == code_.end())
    it = code_.emplace(l.code, decode_history(cap_.blob(l.code, BlobKind::History), l.code_entries,
                                              fmt::format("capture {}: launch {} (code lines)", cap_.path(), i)))
             .first;
  return it->second;
}

runtime::LaunchResult Replayer::run(uint64_t i) {
  emu::Dispatch d = dispatch(i);
  dev_.set_next_dispatch_id(d.dispatch_id);
  runtime::LaunchResult r = dev_.run(std::move(d));
  const LaunchRecord& l = cap_.launch(i);
  // A launch a sampling method predicted without running it did what the captured run counted.
  if (r.stats.workgroups == 0) r.stats = l.stats;
  else ran_[i].store(true, std::memory_order_relaxed);
  // What the launch wrote is no longer the checkpoint's content.
  for (const PageRef& p : l.pages)
    if (p.written || l.dependent_groups) current_.erase(p.addr);
  // A page of a dropped checkpoint that the launch did not reach leaves with it: a later launch
  // that reads the page has it in its own checkpoint (or is dropped and marks it again), and
  // threads' first touch of every page (GlobalMemory::begin_concurrent) must not stop at it.
  for (const PageRef& p : l.pages) {
    if (p.blob != kDroppedPage) continue;
    if (auto it = pending_.find(p.addr); it != pending_.end() && it->second == kDroppedPage) pending_.erase(it);
    current_.erase(p.addr);
  }
  return r;
}

std::vector<uint64_t> Replayer::checkpoints_read() const {
  std::vector<uint64_t> out;
  for (uint64_t i = 0; i < cap_.index().launches.size(); ++i)
    if (ran_[i].load(std::memory_order_relaxed) || fetched_[i].load(std::memory_order_relaxed)) out.push_back(i);
  return out;
}

InputError Replayer::dropped(uint64_t i) const {
  return InputError(fmt::format("capture {}: launch {} ({}) needs its checkpoint, which this capture does not keep: "
                                "it keeps the checkpoints of {}; run the launch from the whole capture",
                                cap_.path(), i, cap_.launch(i).dispatch.kernel_name, cap_.index().kept_for));
}

bool Replayer::verify(uint64_t i) {
  const LaunchRecord& l = cap_.launch(i);
  const std::vector<HistoryEntry> entries = decode_history(
      cap_.blob(l.history, BlobKind::History), l.history_entries, fmt::format("capture {}: launch {}", cap_.path(), i));
  return written_digest(dev_.memory(), l.pages, written_granules(entries), cap_.index().granule_bytes) ==
         l.written_digest;
}

std::shared_ptr<const sampling::profile::ProfileFile> method_profile(const CaptureFile& cap, uint32_t line_bytes,
                                                                     sampling::profile::ProfileDetail detail) {
  const CaptureIndex& x = cap.index();
  if (x.profile == kNoBlob) return nullptr;
  if (line_bytes != x.granule_bytes)
    throw InputError(fmt::format("capture {}: its profile counts memory requests at {}-byte lines and mem.line_bytes "
                                 "is {}; capture with --granule {} for this configuration",
                                 cap.path(), x.granule_bytes, line_bytes, line_bytes));
  return std::make_shared<const sampling::profile::ProfileFile>(
      sampling::profile::decode(cap.blob(x.profile, BlobKind::Profile), "capture " + cap.path() + " (its profile)",
                                detail));
}

void check_definition(const CaptureFile& cap, const std::string& kernel_dir) {
  const CaptureIndex& x = cap.index();
  if (x.kind != "benchmark") return;
  for (const CodeObjectRecord& c : x.code_objects) {
    const std::string file = (std::filesystem::path(kernel_dir) / std::filesystem::path(c.name).filename()).string();
    std::error_code ec;
    if (!std::filesystem::is_regular_file(file, ec))
      throw InputError(fmt::format("capture {}: benchmark {} ran {}, which this build does not have; capture the "
                                   "workload again with this build",
                                   cap.path(), x.workload, file));
    if (!(content_id(read_file(file)) == c.image_id))
      throw InputError(fmt::format("capture {}: benchmark {}'s kernel file {} differs from the one captured (by "
                                   "strobe {}): the capture is of another build's benchmark definition; capture the "
                                   "workload again",
                                   cap.path(), x.workload, file, x.build));
  }
}

}  // namespace strobe::capture
