// Memory request messages and their pool. Requests travel between components as indices into
// one pool (no allocation once the pool has grown to the machine's peak of requests in flight).
#pragma once

#include <algorithm>
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
/// level the access reaches raises it through the request (MemReq::mark), which is the only way
/// a cache or DRAM reports back before the response.
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

  /// Records that the request reached `s` (for the requester's CPI stack).
  void mark(MemStage s) {
    if (progress) progress->reach(s);
  }
  bool is_batch() const { return lines != UINT32_MAX; }
};

class RequestPool {
 public:
  static constexpr uint32_t kNil = UINT32_MAX;
  RequestPool() { reqs_.reserve(1 << 14); }
  uint32_t alloc() {
    if (!free_.empty()) {
      uint32_t i = free_.back();
      free_.pop_back();
      reqs_[i] = MemReq{};
      return i;
    }
    reqs_.emplace_back();
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
  /// Answers request `r` at `when` (plus its return latency) and releases it.
  void respond(Engine& engine, Cycle when, uint32_t r) {
    const MemReq& q = reqs_[r];
    engine.schedule(when + uint64_t(q.return_latency), q.reply_to, response_kind(q.count), q.tag);
    release(r);
  }

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
};

}  // namespace strobe::timing
