// A capture keeping only chosen checkpoints (see keep.h).
#include "capture/keep.h"

#include <memory>
#include <unordered_map>

#include <fmt/format.h>

#include "common/error.h"

namespace strobe::capture {

KeepResult keep_launches(const CaptureFile& cap, const std::vector<bool>& keep, const std::string& kept_for,
                         const std::string& output, uint32_t threads) {
  const CaptureIndex& in = cap.index();
  if (in.kind == "frames")
    throw NotImplementedError(fmt::format("capture {}: keeping only some checkpoints of a frames capture", cap.path()));
  if (in.host_addresses)
    throw NotImplementedError(fmt::format(
        "capture {}: keeping only some checkpoints of a host program's capture at its own addresses (a replay "
        "writes its pages whether a launch runs or not)",
        cap.path()));
  if (keep.size() != in.launches.size())
    throw InputError(fmt::format("capture {}: {} launch flags for {} launches", cap.path(), keep.size(),
                                 in.launches.size()));
  KeepResult r;
  r.launches = in.launches.size();
  r.bytes_in = cap.size();

  // Every blob the new file holds but pages: what every launch keeps (history, code lines, code
  // object, profile), copied as stored with any base it stands on.
  std::vector<bool> needed(in.blobs.size(), false);
  auto need = [&](uint32_t b) {
    while (b != kNoBlob && b < needed.size() && !needed[b]) {
      needed[b] = true;
      b = in.blobs[b].base;
    }
  };
  if (in.profile != kNoBlob) need(in.profile);
  for (const CodeObjectRecord& c : in.code_objects) need(c.blob);
  for (uint64_t i = 0; i < in.launches.size(); ++i) {
    need(in.launches[i].history);
    need(in.launches[i].code);
    if (!keep[i]) continue;
    ++r.chosen;
    if (!cap.keeps_checkpoint(i))
      throw InputError(fmt::format("capture {}: launch {}'s checkpoint is not in it (it keeps those of {}); keep it "
                                   "from the whole capture",
                                   cap.path(), i, in.kept_for));
  }
  CaptureWriter w(output);
  std::vector<uint32_t> to(in.blobs.size(), kNoBlob);
  for (uint32_t b = 0; b < in.blobs.size(); ++b) {  // in order: every base before the deltas on it
    if (!needed[b]) continue;
    const BlobInfo& info = in.blobs[b];
    to[b] = w.put_stored(info, cap.stored_blob(b), info.base == kNoBlob ? kNoBlob : to[info.base]);
  }

  // The kept launches' pages, decoded and stored again, each version a delta on the version of
  // its page the previous kept launch stored where that is smaller: a chain then never passes
  // through the dropped launches' versions, which copying the stored deltas would keep.
  struct Last {
    uint32_t blob = kNoBlob;  // in the new file
    std::shared_ptr<const std::string> bytes;
  };
  std::unordered_map<uint64_t, Last> last;  // page address -> its newest stored version
  for (uint64_t i = 0; i < in.launches.size(); ++i) {
    if (!keep[i]) continue;
    std::vector<std::shared_ptr<const std::string>> held;
    std::vector<std::string_view> items;
    std::vector<CaptureWriter::Base> bases;
    std::vector<const PageRef*> refs;
    for (const PageRef& p : in.launches[i].pages) {
      if (p.blob == kZeroPage || to[p.blob] != kNoBlob) continue;
      held.push_back(cap.shared_blob(p.blob, BlobKind::Page));
      items.emplace_back(*held.back());
      const Last& l = last[p.addr];
      bases.push_back(CaptureWriter::Base{l.blob, l.bytes ? l.bytes->data() : nullptr});
      refs.push_back(&p);
    }
    const std::vector<uint32_t> ids = w.put_all(BlobKind::Page, items, threads, bases);
    for (size_t k = 0; k < ids.size(); ++k) {
      to[refs[k]->blob] = ids[k];
      last[refs[k]->addr] = Last{ids[k], held[k]};
    }
  }

  CaptureIndex out = in;
  out.kept_for = kept_for;
  if (out.profile != kNoBlob) out.profile = to[out.profile];
  for (CodeObjectRecord& c : out.code_objects) c.blob = to[c.blob];
  for (LaunchRecord& l : out.launches) {
    l.history = to[l.history];
    l.code = to[l.code];
    bool all = true;
    for (PageRef& p : l.pages) {
      if (p.blob == kZeroPage) continue;
      p.blob = p.blob == kDroppedPage || to[p.blob] == kNoBlob ? kDroppedPage : to[p.blob];
      all = all && p.blob != kDroppedPage;
    }
    r.runnable += all;
  }
  r.bytes_out = w.finish(std::move(out));
  return r;
}

}  // namespace strobe::capture
