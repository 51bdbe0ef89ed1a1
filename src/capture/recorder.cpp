// Recording a workload's launches (see recorder.h).
#include "capture/recorder.h"

#include <malloc.h>

#include <algorithm>
#include <bit>
#include <chrono>
#include <cstring>
#include <exception>
#include <map>
#include <optional>
#include <string_view>

#include <fmt/format.h>
#include <xxhash.h>

#include <tbb/enumerable_thread_specific.h>
#include <tbb/task_arena.h>

#include "capture/checkpoint.h"
#include "capture/history.h"
#include "common/error.h"
#include "common/resident_pages.h"
#include "emu/executor.h"
#include "sampling/gpumech/launch_model.h"
#include "sampling/gpumech/saved_trace.h"
#include "sampling/gpumech/trace_collector.h"
#include "sampling/pka/features.h"
#include "sampling/profile/functional_profile.h"
#include "sampling/profile/profiler.h"
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

/// What one launch's run records: the functional profile's columns, PKA's counts and the
/// history, from one walk of every instruction (profile::Profiler at Grain::Instruction with its
/// line accesses). Splittable as its parts are, so the launch's groups run on host threads when
/// they may.
struct CaptureCollector : sampling::profile::Collector {
  static constexpr sampling::profile::Grain kGrain = sampling::profile::Grain::Instruction;
  static constexpr bool kAccesses = true;
  sampling::profile::ColumnCollector columns;
  sampling::PkaCounter pka;
  /// The history of the accesses collected here: the collector's own, or when split, the
  /// builder of the host thread that runs this part (one per thread, not per run of groups: a
  /// line that many runs touch is found and kept once per thread).
  HistoryBuilder own;
  HistoryBuilder* thread_history = nullptr;  ///< begin_run(): the thread's builder
  std::shared_ptr<tbb::enumerable_thread_specific<HistoryBuilder>> per_thread;  ///< shared by the parts
  uint64_t seq = 0;  ///< the next access's number: run k's start at k << kRunShift
  static constexpr uint32_t kRunShift = 40;
  uint32_t granule;
  std::optional<sampling::gpumech::TraceCollector> trace;  ///< with RecorderOptions::gpumech

  CaptureCollector(sampling::profile::ColumnCollector c, const std::vector<timing::InstInfo>* info, uint32_t g,
                   size_t expected_lines = 0)
      : columns(std::move(c)),
        own(expected_lines, g),
        per_thread(std::make_shared<tbb::enumerable_thread_specific<HistoryBuilder>>(0, g)),
        granule(g) {
    pending.reserve(2 * emu::kWaveSize + 2);
    pka.info = info;
  }
  uint32_t access_line_bytes() const { return granule; }
  /// An instruction's accesses, held until it has made them all (instruction()), then recorded
  /// together: a gather's scattered lines are looked up at once.
  std::vector<timing::WarmAccess> pending;
  void access(const timing::WarmAccess& a) { pending.push_back(a); }
  /// Folds the held accesses into the history, numbered from `seq` on.
  void record_pending() {
    (thread_history ? *thread_history : own).add_all(pending, seq);
    seq += pending.size();
    pending.clear();
  }
  /// Run `k` of a split launch starts on this thread: its accesses go to the thread's builder,
  /// numbered after every earlier run's (a run's accesses stay below 2^40).
  void begin_run(uint64_t k) {
    record_pending();
    thread_history = &per_thread->local();
    seq = k << kRunShift;
  }
  bool calls_host = false;  ///< a wave sent MSG_INTERRUPT (LaunchRecord::calls_host)

  void instruction(const sampling::profile::Instruction& i) {
    if (i.inst->op == isa::Op::S_SENDMSG && (i.inst->simm16 & 0xF) == 1) [[unlikely]]
      calls_host = true;
    if (!pending.empty()) record_pending();
    columns.instruction(i);
    pka.instruction(i);
    if (trace) trace->instruction(i);
  }
  void wave_end(uint32_t wave, const sampling::profile::Counters& c) { columns.wave_end(wave, c); }
  void workgroup_end(uint64_t id, const sampling::profile::Counters& c) {
    columns.workgroup_end(id, c);
    if (trace) trace->workgroup_end(id, c);
  }
  /// The launch's history (HistoryBuilder::entries), with the number of its distinct lines in `lines`.
  std::vector<HistoryEntry> entries(size_t& lines) {
    record_pending();
    std::vector<const HistoryBuilder*> parts = {&own};
    for (const HistoryBuilder& b : *per_thread) parts.push_back(&b);
    return HistoryBuilder::merged_entries(parts, &lines);
  }
  bool can_split() const { return columns.can_split() && (!trace || trace->can_split()); }
  CaptureCollector split() const {
    CaptureCollector c(columns.split(), pka.info, granule);
    c.per_thread = per_thread;
    if (trace) c.trace.emplace(trace->split());
    return c;
  }
  void join(CaptureCollector&& part) {
    columns.join(std::move(part.columns));
    pka.join(std::move(part.pka));
    calls_host |= part.calls_host;
    if (trace) trace->join(std::move(*part.trace));
  }
};

}  // namespace

Recorder::Recorder(runtime::Device& dev, CaptureWriter& writer, RecorderOptions o)
    : dev_(dev), writer_(writer), opt_(o) {
  if (opt_.granule_bytes < 16 || opt_.granule_bytes > 1024 || !std::has_single_bit(opt_.granule_bytes))
    throw InputError(fmt::format("capture granule {} bytes: a power of two from 16 to 1024", opt_.granule_bytes));
  // Each launch's history, profile columns, pages and encodings are built and freed launch after
  // launch. glibc returns the heap's top to the kernel at each free and maps large blocks
  // afresh, so every launch faulted the same memory in again: a fifth of a short launch's
  // capture (nw, 127 launches). Keeping freed memory for the next launch costs at most the
  // largest launch's working set; the thresholds are the process's, like the run it records.
  mallopt(M_MMAP_THRESHOLD, 32 << 20);  // glibc's largest, to serve large blocks from the heap
  mallopt(M_TRIM_THRESHOLD, 1 << 30);
  emu::GlobalMemory& mem = dev.memory();
  index_.host_addresses = mem.host_addresses();
  index_.granule_bytes = opt_.granule_bytes;
  index_.history_bytes = opt_.history_bytes;
  profile_.line_bytes = opt_.granule_bytes;
  auto mark = [this](uint64_t addr, uint64_t bytes) {
    for (uint64_t p = addr & ~(kPageBytes - 1); p < addr + bytes; p += kPageBytes) dirty_.insert(p);
  };
  // What the device holds before recording starts (its queue descriptor, code objects already
  // loaded) is as good as written by the host.
  // In host addressing the program writes its memory directly: changes are found by content
  // before each launch instead (find_host_changes).
  if (!index_.host_addresses) {
    for (const auto& a : mem.allocations()) mark(a.addr, a.bytes);
    mem.set_host_write_hook(mark);
  }
  dev.set_functional_runner(this);
}

Recorder::~Recorder() {
  dev_.memory().set_host_write_hook({});
  dev_.set_functional_runner(nullptr);
}

void Recorder::find_host_changes(const emu::GlobalMemory& mem) {
  // Only pages the process ever backed can hold data; and any page stored before is looked at
  // again, since it may now read as zero (freed, or no longer mapped).
  constexpr uint64_t kSmall = emu::GlobalMemory::kGpuPageSize;
  std::set<uint64_t> candidates;
  for (const auto& [page, hash] : host_hash_) candidates.insert(page);
  for (const auto& a : mem.allocations()) {
    const uint64_t lo = a.addr & ~(kSmall - 1);
    const std::vector<bool> resident = resident_pages(lo, a.addr + a.bytes - lo);
    for (uint64_t i = 0; i < resident.size(); ++i)
      if (resident[i]) candidates.insert((lo + i * kSmall) & ~(kPageBytes - 1));
  }
  std::vector<uint8_t> buf(kPageBytes);
  for (uint64_t page : candidates) {
    mem.copy_host_page(page, buf.data());
    const uint64_t h = XXH3_64bits(buf.data(), kPageBytes);
    auto [it, fresh] = host_hash_.try_emplace(page, h);
    if (fresh ? all_zero(buf.data()) : it->second == h) continue;
    it->second = h;
    dirty_.insert(page);
  }
}

void Recorder::store_dirty_pages(emu::GlobalMemory& mem, uint32_t threads) {
  const bool host = mem.host_addresses();
  if (host) find_host_changes(mem);
  std::vector<uint64_t> pages;
  std::vector<std::string_view> contents;
  std::vector<CaptureWriter::Base> bases;
  std::vector<std::unique_ptr<uint8_t[]>> copies;  // host addressing: the pages' bytes
  for (uint64_t page : dirty_) {
    const uint8_t* bytes = nullptr;
    if (host) {
      auto& copy = copies.emplace_back(new uint8_t[kPageBytes]);
      if (mem.copy_host_page(page, copy.get())) bytes = copy.get();
    } else {
      bytes = mem.page_bytes(page);
    }
    if (!bytes || all_zero(bytes)) {
      page_blob_.erase(page);
      shadow_.erase(page);
      continue;
    }
    pages.push_back(page);
    contents.emplace_back(reinterpret_cast<const char*>(bytes), kPageBytes);
    // The page's previous version, which a launch that rewrote a few of its lines leaves mostly
    // unchanged: stored as a delta against it, the new version costs the lines that changed.
    auto blob = page_blob_.find(page);
    auto old = shadow_.find(page);
    if (blob != page_blob_.end() && old != shadow_.end())
      bases.push_back(CaptureWriter::Base{blob->second, reinterpret_cast<const char*>(old->second.get())});
    else
      bases.emplace_back();
  }
  const std::vector<uint32_t> ids = writer_.put_all(BlobKind::Page, contents, threads, bases);
  for (size_t i = 0; i < pages.size(); ++i) {
    page_blob_[pages[i]] = ids[i];
    auto [it, fresh] = shadow_.try_emplace(pages[i]);
    if (fresh) {
      if ((shadow_.size() - 1) * kPageBytes >= kShadowBytes) {
        shadow_.erase(it);
        continue;
      }
      it->second.reset(new uint8_t[kPageBytes]);
    }
    std::memcpy(it->second.get(), contents[i].data(), kPageBytes);
  }
  dirty_.clear();
}

uint32_t Recorder::loaded_code_of(const emu::Dispatch& d, const emu::GlobalMemory& mem) {
  const isa::Program& p = *d.program;
  uint64_t size = 0;
  if (!p.insts.empty()) {
    const uint32_t last = uint32_t(p.insts.size() - 1);
    size = p.offsets[last] + (p.is_end_marker(last) ? 0 : p.insts[last].size);
  }
  std::string bytes(size, '\0');
  mem.read(p.base_address, bytes.data(), size);
  const ContentId id = content_id(bytes);
  for (size_t i = 0; i < index_.code_objects.size(); ++i) {
    const CodeObjectRecord& c = index_.code_objects[i];
    if (c.loaded && c.load_base == p.base_address && c.image_id == id && c.load_bias == p.load_bias)
      return uint32_t(i);
  }
  CodeObjectRecord c;
  c.name = d.kernel_name;
  c.load_base = p.base_address;
  c.blob = writer_.put(BlobKind::CodeObject, bytes);
  c.image_id = id;
  c.loaded = true;
  c.load_bias = p.load_bias;
  index_.code_objects.push_back(std::move(c));
  modules_.push_back(nullptr);
  return uint32_t(index_.code_objects.size() - 1);
}

uint32_t Recorder::code_object_of(const emu::Dispatch& d, const emu::GlobalMemory& mem) {
  for (size_t i = 0; i < modules_.size(); ++i)
    if (modules_[i] && modules_[i]->owns(d.program)) return uint32_t(i);
  // A host program's GPU runtime loaded this code itself (HIP): it is kept as the bytes it runs.
  if (mem.host_addresses()) return loaded_code_of(d, mem);
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
  store_dirty_pages(mem, threads);
  LaunchRecord l;
  l.dispatch = d;
  l.dispatch.program = nullptr;  // the code object holds the code
  l.code_object = code_object_of(d, mem);
  l.allocations = allocation_map(mem);
  l.next_address = mem.next_address();
  l.dependent_groups = emu::has_global_atomics(*d.program);
  index_.peak_device_bytes = std::max(index_.peak_device_bytes, mem.bytes_allocated());

  // The launch's profile and history in one run; requests are counted at the granule's lines.
  sampling::profile::LaunchRecord profile = sampling::profile::begin_record(d, mem);
  // Sized for as many lines as the last launch of the kernel had, so the table rarely grows.
  CaptureCollector c(sampling::profile::ColumnCollector(profile, *d.program), &tables_.get(*d.program).info,
                     opt_.granule_bytes, lines_of_[d.kernel_name]);
  sampling::gpumech::LaunchTrace trace;
  std::vector<sampling::gpumech::StaticInst> statics;
  if (opt_.gpumech) {
    statics = sampling::gpumech::static_insts(*d.program);
    trace.waves_per_group = std::max(1u, (d.local[0] * d.local[1] * d.local[2] + 63) / 64);
    c.trace.emplace(statics,
                    sampling::gpumech::TraceOptions{opt_.granule_bytes, sampling::gpumech::kDefaultMaxInstructions,
                                                    threads},
                    d.kernel_name, trace);
  }
  sampling::profile::Profiler profiler(opt_.granule_bytes);
  l.stats = profiler.run_launch(d, mem, c, threads);
  l.calls_host = c.calls_host;
  c.columns.finish(*d.program);
  profile.blobs[sampling::kPkaBlob] = sampling::encode_counts(c.pka.counts);
  if (opt_.gpumech) {
    timing::GpuConfig at = opt_.gpumech_config;
    at.line_bytes = opt_.granule_bytes;
    profile.blobs[sampling::gpumech::kProfileBlob] = sampling::gpumech::encode_saved_trace(
        sampling::gpumech::saved_from_trace(d, std::move(trace), statics, at));
  }
  profile_.launches.push_back(std::move(profile));
  std::vector<HistoryEntry> entries;
  size_t lines = 0;
  tbb::task_arena(int(std::max(threads, 1u))).execute([&] { entries = c.entries(lines); });
  lines_of_[d.kernel_name] = lines;

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
    const uint64_t addr = e.granule << shift, page = addr & ~(kPageBytes - 1);
    // Managed allocations start on a page of their own; a host program's ranges may not.
    const AllocationRecord* a = allocation_of(index_.host_addresses ? addr : page);
    if (!a) continue;  // the launch's own scratch, made after the map was taken
    touched[page] |= (e.flags & (kWrite | kAtomic)) != 0;
    touched_allocations.insert(a);
  }
  if (l.dependent_groups)  // a replay's groups may touch other pages of what they share
    for (const AllocationRecord* a : touched_allocations)
      for (uint64_t p = a->addr & ~(kPageBytes - 1); p < a->addr + a->bytes; p += kPageBytes)
        touched.try_emplace(p, false);
  for (const auto& [page, written] : touched) {
    auto it = page_blob_.find(page);
    l.pages.push_back(PageRef{page, it == page_blob_.end() ? kZeroPage : it->second, written});
    if (written && !index_.host_addresses) dirty_.insert(page);  // host addressing: found by content
  }
  l.written_digest = written_digest(mem, l.pages, written_granules(entries), opt_.granule_bytes);

  l.history = writer_.put(BlobKind::History, encode_history(entries));
  l.history_entries = entries.size();
  // Its code lines alone, with nothing launch-specific in them, so a kernel's launches share one.
  std::vector<HistoryEntry> code;
  for (const HistoryEntry& e : entries)
    if (e.path == timing::WarmAccess::L1i) code.push_back(HistoryEntry{e.granule, 0, e.path, e.flags, 0});
  l.code = writer_.put(BlobKind::History, encode_history(code));
  l.code_entries = code.size();
  l.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  index_.launches.push_back(std::move(l));
  return index_.launches.back().stats;
}

}  // namespace strobe::capture
