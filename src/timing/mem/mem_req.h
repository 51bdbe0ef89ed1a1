// Memory request messages and their pool. Requests travel between components as indices into
// one pool (no allocation once the pool has grown to the machine's peak of requests in flight).
#pragma once

#include <algorithm>
#include <cassert>
#include <cstdint>
#include <memory>
#include <vector>

#include "timing/engine/engine.h"
#include "timing/engine/events.h"

namespace strobe::timing {

// Memory-side components understand kMemRequest and kMemResponse (events.h). A request
// event's argument is the request's pool index. A response event's argument is the requester's
// tag and its kind carries, above the low 16 bits, how many lines it answers: the responder has
// already released the request, so the requester never reads the (by then cold) pool entry.

enum class ReqKind : uint8_t { Read, Write, Atomic };

/// Where the oldest outstanding access of an instruction is waiting; later stages win. The CU
/// reads it to attribute a stalled cycle in its CPI stack.
enum class MemStage : uint8_t { None, L1, MshrQueue, L2, Dram, DramQueue };

/// How far an outstanding access has travelled down the hierarchy. The requester owns it; each
/// level the access reaches raises it through its pool (RequestPool::mark), which is the only
/// way a cache or DRAM reports back before the response.
class AccessProgress {
 public:
  /// The access reached `s` (a shallower stage than the one recorded changes nothing).
  void reach(MemStage s) {
    if (stage_ < s) stage_ = s;
  }
  /// The deepest stage reached so far.
  MemStage stage() const { return stage_; }

 private:
  MemStage stage_ = MemStage::None;
};

/// Most lines one request can carry: a 64-lane access whose every lane straddles two lines.
constexpr uint32_t kMaxBatchLines = 128;

struct MemReq {
  uint64_t line = 0;               ///< line address (byte address >> line bits); the first of a batch
  Component* reply_to = nullptr;   ///< who receives the kMemResponse
  AccessProgress* progress = nullptr;  ///< the originating instruction's progress (may be null)
  uint32_t tag = 0;                ///< requester-defined (op record, MSHR index, ...)
  uint32_t next = 0;               ///< MSHR target chain link (pool index; kNil ends it)
  uint32_t lines = UINT32_MAX;     ///< a batch: its line list in the pool (`count` lines)
  uint16_t count = 1;              ///< lines a request carries; lines a response answers
  uint16_t return_latency = 0;     ///< cycles the response spends on its way back
  ReqKind kind = ReqKind::Read;
  uint8_t origin = 0;              ///< the partition of `reply_to` (quantum.h; 0 on one engine)

  /// Records that the request reached `s` (for the requester's CPI stack).
  void mark(MemStage s) {
    if (progress) progress->reach(s);
  }
  bool is_batch() const { return lines != UINT32_MAX; }
};

/// The requests of one partition (quantum.h; a model on one engine has one pool). A request
/// another partition's component must serve leaves the pool as a copy (cross()), and the
/// receiving partition's pool takes it in when the window ends.
class RequestPool {
 public:
  static constexpr uint32_t kNil = UINT32_MAX;
  RequestPool() { reqs_.reserve(1 << 14); }
  /// A fresh request answered inside this pool's partition unless its fields say otherwise.
  uint32_t alloc() {
    if (!free_.empty()) {
      uint32_t i = free_.back();
      free_.pop_back();
      reqs_[i] = MemReq{};
      reqs_[i].origin = partition_;
      return i;
    }
    reqs_.emplace_back();
    reqs_.back().origin = partition_;
    return uint32_t(reqs_.size() - 1);
  }
  void release(uint32_t i) { free_.push_back(i); }
  /// A new single-line request of `kind` for `line`, answered to `reply_to` with `tag`.
  uint32_t make(uint64_t line, ReqKind kind, Component* reply_to, uint32_t tag) {
    const uint32_t r = alloc();
    MemReq& q = reqs_[r];
    q.line = line;
    q.kind = kind;
    q.reply_to = reply_to;
    q.tag = tag;
    return r;
  }
  MemReq& operator[](uint32_t i) { return reqs_[i]; }
  size_t live() const { return reqs_.size() - free_.size(); }
  /// Answers request `r` at `when` (plus its return latency) and releases it. The answer
  /// leaves the partition (Engine::post) when the requester lives in another.
  void respond(Engine& engine, Cycle when, uint32_t r) {
    const MemReq& q = reqs_[r];
    engine.post(q.origin, when + uint64_t(q.return_latency), q.reply_to, response_kind(q.count), q.tag);
    release(r);
  }
  /// Records that request `q` reached stage `s` for its requester's CPI stack: at once, or,
  /// in a pool whose requesters all live in other partitions (set_defer_marks), when the
  /// window ends (marks()), since the requester's state is not this partition's to write.
  void mark(MemReq& q, MemStage s) {
    if (!q.progress) return;
    if (defer_marks_) marks_.push_back(Mark{q.progress, s});
    else q.progress->reach(s);
  }

  /// A request on its way to another partition: a copy of the request, the event that
  /// delivers it, and the partition it goes to.
  struct Crossing {
    MemReq req;
    Cycle when;
    Cycle sent;  ///< the cycle it was sent in
    Component* target;
    uint32_t dest;
  };
  /// A stage reached, held for the requester until the window ends.
  struct Mark {
    AccessProgress* progress;
    MemStage stage;
  };
  /// Sends request `r` (a single line) at cycle `now` to `target` of partition `dest`, due at
  /// `when`: the request leaves this pool as a copy that the quantum runner delivers when the
  /// window ends.
  void cross(uint32_t dest, Cycle now, Cycle when, Component* target, uint32_t r) {
    assert(!reqs_[r].is_batch());
    out_.push_back(Crossing{reqs_[r], when, now, target, dest});
    release(r);
  }
  /// Requests cross() sent, in order.
  std::vector<Crossing>& outbox() { return out_; }
  /// Marks held by a pool that defers them, in order.
  std::vector<Mark>& marks() { return marks_; }
  /// The partition whose components use this pool.
  uint8_t partition() const { return partition_; }
  /// Sets the partition and whether marks wait for the window's end (see mark()).
  void set_partition(uint8_t p, bool defer_marks) { partition_ = p, defer_marks_ = defer_marks; }

  /// Stores a list of up to kMaxBatchLines lines for a batch request; returns its index.
  uint32_t alloc_lines(const uint64_t* lines, uint32_t n) {
    uint32_t i;
    if (!free_lists_.empty()) {
      i = free_lists_.back();
      free_lists_.pop_back();
    } else {
      i = uint32_t(lists_.size());
      lists_.push_back(std::make_unique<uint64_t[]>(kMaxBatchLines));
    }
    std::copy(lines, lines + n, lists_[i].get());
    return i;
  }
  /// The lines of list `i` (stable while the list is allocated).
  const uint64_t* lines(uint32_t i) const { return lists_[i].get(); }
  void release_lines(uint32_t i) { free_lists_.push_back(i); }

 private:
  std::vector<MemReq> reqs_;
  std::vector<uint32_t> free_;
  std::vector<std::unique_ptr<uint64_t[]>> lists_;
  std::vector<uint32_t> free_lists_;
  std::vector<Crossing> out_;
  std::vector<Mark> marks_;
  uint8_t partition_ = 0;
  bool defer_marks_ = false;
};

}  // namespace strobe::timing
