// Recording a workload's launches (see recorder.h).
#include "capture/recorder.h"

#include <algorithm>
#include <bit>
#include <chrono>
#include <cstring>
#include <exception>
#include <map>
#include <string_view>

#include <fmt/format.h>

#include "capture/checkpoint.h"
#include "capture/history.h"
#include "common/error.h"
#include "emu/executor.h"
#include "emu/workgroup_threads.h"
#include "timing/gpu/access_walk.h"

namespace strobe::capture {

namespace {

bool all_zero(const uint8_t* p) {
  for (uint64_t i = 0; i < kPageBytes; i += 8) {
    uint64_t w;
    std::memcpy(&w, p + i, 8);
    if (w) return false;
  }
  return true;
}

/// Runs `ex`'s work-groups in dispatch order on one thread, recording every access.
void record_in_order(emu::Executor& ex, const timing::AccessWalker& walk, HistoryBuilder& hist,
                     emu::DispatchStats& stats) {
  emu::WorkGroup wg;
  emu::MemAccessInfo mi;
  for (uint64_t id = 0; id < ex.workgroup_count(); ++id) {
    ex.init_workgroup(wg, id, 0);
    walk.walk_workgroup(uint32_t(id), ex, wg, stats, mi, [&hist](const timing::WarmAccess& a) { hist.add(a); });
  }
}

/// Runs `ex`'s work-groups on `threads` host threads, each run of consecutive groups recording
/// into its own builder, merged in dispatch order: memory, counters, overruns and history are
/// those of record_in_order() (emu/workgroup_threads.h says when that holds).
void record_on_threads(emu::Executor& ex, uint32_t threads, const timing::AccessWalker& walk, HistoryBuilder& hist,
                       emu::DispatchStats& stats) {
  emu::GlobalMemory& mem = ex.memory();
  const emu::ConcurrentScope concurrent(mem);
  struct Chunk {
    HistoryBuilder hist;
    emu::DispatchStats stats;
    emu::OverrunLog overruns;
    emu::MemAccessInfo mi;
  };
  const uint64_t groups = ex.workgroup_count();
  const uint64_t chunks = std::min<uint64_t>(groups, uint64_t(threads) * emu::kChunksPerThread);
  std::vector<Chunk> parts(chunks);
  std::exception_ptr fault;
  const uint64_t failed = emu::run_chunks(threads, chunks, [&](uint64_t c, uint32_t slot) {
    Chunk& ch = parts[c];
    emu::WorkGroup wg;
    for (uint64_t i = emu::chunk_first(groups, chunks, c), end = emu::chunk_first(groups, chunks, c + 1); i < end;
         ++i) {
      ex.init_workgroup(wg, i, slot);
      wg.ctx.overruns = &ch.overruns;
      walk.walk_workgroup(uint32_t(i), ex, wg, ch.stats, ch.mi,
                          [&ch](const timing::WarmAccess& a) { ch.hist.add(a); });
    }
  }, &fault);
  for (uint64_t c = 0; c < chunks && c <= failed; ++c) {
    hist.append(parts[c].hist);
    stats += parts[c].stats;
    mem.append_overruns(parts[c].overruns);
  }
  if (fault) std::rethrow_exception(fault);
}

}  // namespace

Recorder::Recorder(runtime::Device& dev, CaptureWriter& writer, RecorderOptions o)
    : dev_(dev), writer_(writer), opt_(o) {
  if (opt_.granule_bytes < 16 || opt_.granule_bytes > 1024 || !std::has_single_bit(opt_.granule_bytes))
    throw InputError(fmt::format("capture granule {} bytes: a power of two from 16 to 1024", opt_.granule_bytes));
  emu::GlobalMemory& mem = dev.memory();
  if (mem.host_addresses())
    throw NotImplementedError("capturing a device whose memory is the host process's (HIP programs)");
  index_.granule_bytes = opt_.granule_bytes;
  index_.history_bytes = opt_.history_bytes;
  auto mark = [this](uint64_t addr, uint64_t bytes) {
    for (uint64_t p = addr & ~(kPageBytes - 1); p < addr + bytes; p += kPageBytes) dirty_.insert(p);
  };
  // What the device holds before recording starts (its queue descriptor, code objects already
  // loaded) is as good as written by the host.
  for (const auto& a : mem.allocations()) mark(a.addr, a.bytes);
  mem.set_host_write_hook(mark);
  dev.set_functional_runner(this);
}

Recorder::~Recorder() {
  dev_.memory().set_host_write_hook({});
  dev_.set_functional_runner(nullptr);
}

void Recorder::store_dirty_pages(emu::GlobalMemory& mem) {
  for (uint64_t page : dirty_) {
    const uint8_t* bytes = mem.page_bytes(page);
    if (!bytes || all_zero(bytes)) {
      page_blob_.erase(page);
      continue;
    }
    page_blob_[page] = writer_.put(BlobKind::Page, std::string_view(reinterpret_cast<const char*>(bytes), kPageBytes));
  }
  dirty_.clear();
}

uint32_t Recorder::code_object_of(const emu::Dispatch& d) {
  for (size_t i = 0; i < modules_.size(); ++i)
    if (modules_[i]->owns(d.program)) return uint32_t(i);
  for (const auto& m : dev_.modules()) {
    if (!m->owns(d.program)) continue;
    const loader::CodeObject& co = m->code_object();
    const std::string_view image(reinterpret_cast<const char*>(co.image().data()), co.image().size());
    index_.code_objects.push_back(
        CodeObjectRecord{co.name(), m->load_base(), writer_.put(BlobKind::CodeObject, image), content_id(image)});
    modules_.push_back(m.get());
    return uint32_t(modules_.size() - 1);
  }
  throw NotImplementedError(fmt::format("capturing kernel {}: its code was not loaded through the device (a dispatch "
                                        "the caller built from its own code)",
                                        d.kernel_name));
}

uint32_t Recorder::allocation_map(const emu::GlobalMemory& mem) {
  std::vector<AllocationRecord> map;
  for (const auto& a : mem.allocations()) map.push_back(AllocationRecord{a.addr, a.bytes, a.tag});
  if (index_.allocation_maps.empty() || index_.allocation_maps.back() != map)
    index_.allocation_maps.push_back(std::move(map));
  return uint32_t(index_.allocation_maps.size() - 1);
}

emu::DispatchStats Recorder::run(const emu::Dispatch& d, emu::GlobalMemory& mem, uint32_t threads) {
  const auto t0 = std::chrono::steady_clock::now();
  store_dirty_pages(mem);
  LaunchRecord l;
  l.kernel = d.kernel_name;
  l.code_object = code_object_of(d);
  l.grid = d.grid;
  l.local = d.local;
  l.packet_address = d.packet_address;
  l.kernarg_address = d.kernarg_address;
  l.queue_address = d.queue_address;
  l.lds_bytes = d.lds_bytes;
  l.private_bytes_per_lane = d.private_bytes_per_lane;
  l.dispatch_id = d.dispatch_id;
  l.allocations = allocation_map(mem);
  l.next_address = mem.next_address();
  l.dependent_groups = emu::has_global_atomics(*d.program);
  index_.peak_device_bytes = std::max(index_.peak_device_bytes, mem.bytes_allocated());

  emu::Executor ex(d, mem, emu::thread_slots(d, threads));
  const timing::AccessWalker walk(opt_.granule_bytes);
  HistoryBuilder hist;
  if (threads > 1 && emu::threads_keep_order(ex)) record_on_threads(ex, threads, walk, hist, l.stats);
  else record_in_order(ex, walk, hist, l.stats);
  const std::vector<HistoryEntry> entries = hist.entries();

  // The checkpoint: every page of the launch-time map the launch touched, as it was before.
  const std::vector<AllocationRecord>& map = index_.allocation_maps[l.allocations];
  auto allocation_of = [&map](uint64_t addr) -> const AllocationRecord* {
    auto it = std::upper_bound(map.begin(), map.end(), addr,
                               [](uint64_t a, const AllocationRecord& r) { return a < r.addr; });
    if (it == map.begin()) return nullptr;
    --it;
    // An allocation owns its pages up to the end of its last one (accesses past its end land there).
    return addr - it->addr < ((it->bytes + kPageBytes - 1) & ~(kPageBytes - 1)) ? &*it : nullptr;
  };
  std::map<uint64_t, bool> touched;  // page -> written
  std::set<const AllocationRecord*> touched_allocations;
  const uint32_t shift = uint32_t(std::countr_zero(opt_.granule_bytes));
  for (const HistoryEntry& e : entries) {
    const uint64_t page = (e.granule << shift) & ~(kPageBytes - 1);
    const AllocationRecord* a = allocation_of(page);
    if (!a) continue;  // the launch's own scratch, made after the map was taken
    touched[page] |= (e.flags & (kWrite | kAtomic)) != 0;
    touched_allocations.insert(a);
  }
  if (l.dependent_groups)  // a replay's groups may touch other pages of what they share
    for (const AllocationRecord* a : touched_allocations)
      for (uint64_t p = a->addr; p < a->addr + a->bytes; p += kPageBytes) touched.try_emplace(p, false);
  for (const auto& [page, written] : touched) {
    auto it = page_blob_.find(page);
    l.pages.push_back(PageRef{page, it == page_blob_.end() ? kZeroPage : it->second, written});
    if (written) dirty_.insert(page);
  }
  l.written_digest = written_digest(mem, l.pages);

  l.history = writer_.put(BlobKind::History, encode_history(entries));
  l.history_entries = entries.size();
  l.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  index_.launches.push_back(std::move(l));
  return index_.launches.back().stats;
}

}  // namespace strobe::capture
