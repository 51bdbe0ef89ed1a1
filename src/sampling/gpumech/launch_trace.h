// One launch's dynamic wave traces as the trace collector stores them: compact enough for
// launches of tens of millions of instructions. Per instruction only what varies between
// executions of the same PC is kept (the PC, its producers, a memory instruction's lines); the
// class, access and s_waitcnt thresholds are per PC (static_inst.h).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace strobe::sampling::gpumech {

/// Cache-line numbers of a wave's memory instructions as a byte stream: per instruction its line
/// count, then each line as the zigzag varint of its difference to the previous line of the
/// wave. Coalesced lines are mostly consecutive, so a line usually costs one byte, not eight.
class LineStream {
 public:
  /// Appends one instruction's lines (possibly none).
  void append(std::span<const uint64_t> lines);
  /// Bytes held.
  size_t bytes() const { return bytes_.size(); }
  /// Releases spare capacity.
  void shrink() { bytes_.shrink_to_fit(); }
  /// The encoded bytes (what a saved trace stores).
  const std::vector<uint8_t>& raw() const { return bytes_; }
  /// A stream of encoded bytes read back from a saved trace; check_lines() says whether they
  /// parse before a Reader walks them.
  static LineStream from_raw(std::vector<uint8_t> bytes) {
    LineStream s;
    s.bytes_ = std::move(bytes);
    return s;
  }
  /// The number of instructions the bytes encode, or -1 when they do not parse (a varint or an
  /// instruction's lines running past the end).
  int64_t count_entries() const;

  /// Reads a LineStream's instructions back in order.
  class Reader {
   public:
    explicit Reader(const LineStream& s) : s_(&s) {}
    /// The next instruction's lines, written into `out` (resized); false past the end.
    bool next(std::vector<uint64_t>& out);

   private:
    uint64_t varint();
    const LineStream* s_;
    size_t at_ = 0;
    uint64_t prev_ = 0;
  };

 private:
  void put(uint64_t v);
  std::vector<uint8_t> bytes_;
  uint64_t prev_ = 0;
};

/// One wave's dynamic trace in collection order.
struct CollectedWave {
  uint64_t workgroup = 0;          ///< dispatch-order index of its work-group
  uint32_t wave = 0;               ///< index in the work-group
  std::vector<uint32_t> pc;        ///< per instruction: its program index
  std::vector<uint8_t> nproducers; ///< per instruction: how many producers follow in `producers`
  std::vector<uint32_t> producers; ///< trace indices of the producers, instruction after instruction
  LineStream lines;                ///< per vector memory instruction (every one, in order): its lines

  /// Instructions traced.
  size_t size() const { return pc.size(); }
  /// Bytes the trace holds (capacity, what it really costs).
  size_t bytes() const;
};

/// Every wave of one launch, grouped by work-group in dispatch order.
struct LaunchTrace {
  uint32_t line_bytes = 64;          ///< line size the memory lines were coalesced at
  uint64_t workgroups = 0;           ///< work-groups in the launch
  uint32_t waves_per_group = 1;      ///< waves of a (full) work-group
  std::vector<CollectedWave> waves;  ///< in work-group order, then wave order
  uint64_t instructions = 0;         ///< Σ instructions over the waves

  /// Bytes the traces hold.
  size_t bytes() const;
};

}  // namespace strobe::sampling::gpumech
