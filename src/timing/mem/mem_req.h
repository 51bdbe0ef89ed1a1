// Memory request messages and their pool. Requests travel between components as indices into
// one pool (no allocation once the pool has grown to the machine's peak of requests in flight).
#pragma once

#include <cstdint>
#include <vector>

#include "timing/engine/engine.h"

namespace strobe::timing {

/// Event kinds every memory-side component understands.
enum MemEvent : uint32_t { kMemRequest = 100, kMemResponse = 101 };

enum class ReqKind : uint8_t { Read, Write, Atomic };

/// Where the oldest outstanding access of an instruction is waiting; later stages win. The CU
/// reads it to attribute a stalled cycle in its CPI stack.
enum class MemStage : uint8_t { None, L1, MshrQueue, L2, Dram, DramQueue };

struct MemReq {
  uint64_t line = 0;               ///< line address (byte address >> line bits)
  Component* reply_to = nullptr;   ///< who receives the kMemResponse
  uint8_t* stage = nullptr;        ///< CPI stage sink of the originating instruction (may be null)
  uint32_t tag = 0;                ///< requester-defined (op record, MSHR index, ...)
  uint32_t next = 0;               ///< MSHR target chain link (pool index; kNil ends it)
  uint16_t return_latency = 0;     ///< cycles the response spends on its way back
  ReqKind kind = ReqKind::Read;

  void mark(MemStage s) {
    if (stage && *stage < uint8_t(s)) *stage = uint8_t(s);
  }
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
  MemReq& operator[](uint32_t i) { return reqs_[i]; }
  size_t live() const { return reqs_.size() - free_.size(); }

 private:
  std::vector<MemReq> reqs_;
  std::vector<uint32_t> free_;
};

}  // namespace strobe::timing
