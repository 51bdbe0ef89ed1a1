// btree: Rodinia b+tree, batched point (findK) and range (findRangeK) searches in a B+ tree.
#include <algorithm>
#include <climits>
#include <deque>
#include <optional>
#include <utility>
#include <vector>

#include "workloads/benchmark.h"
#include "workloads/context.h"
#include "workloads/rng.h"
#include "workloads/verify.h"

namespace strobe::workloads {
namespace {

/// btree's parameters, bound to their declarations in STROBE_BENCHMARK below.
struct BtreeParams {
  int64_t records = 0, queries = 0, range = 0;
};

/// Maximum children of an internal node (Rodinia's default order; ORDER in btree.cl).
constexpr uint32_t kOrder = 256;
/// int32 words of one flattened node: location, ORDER + 1 indices, ORDER + 1 keys, is_leaf, num_keys.
constexpr uint32_t kNodeWords = 2 * (kOrder + 1) + 3;

/// A B+ tree of int keys grown by insertion as the original builds it: leaves hold up to
/// kOrder - 1 keys, internal nodes up to kOrder children; a full node splits in half.
class BPlusTree {
 public:
  /// One node: an internal node's child j holds the keys in [keys[j-1], keys[j]); a leaf's
  /// items are the payloads of its keys.
  struct Node {
    bool leaf = true;
    std::vector<int32_t> keys;
    std::vector<uint32_t> items;  ///< child node ids, or payloads in a leaf
  };

  /// An empty tree: a single empty leaf as the root.
  BPlusTree() : nodes_(1) {}

  /// Adds `key` (not yet present) with `payload`.
  void insert(int32_t key, uint32_t payload) {
    if (auto split = insert_into(root_, key, payload)) {  // the root split: grow a level
      nodes_.push_back({false, {split->first}, {root_, split->second}});
      root_ = uint32_t(nodes_.size() - 1);
    }
  }

  /// The payload of `key`, or nothing.
  std::optional<uint32_t> find(int32_t key) const {
    const Node* n = &nodes_[root_];
    while (!n->leaf) n = &nodes_[n->items[child_slot(*n, key)]];
    auto it = std::lower_bound(n->keys.begin(), n->keys.end(), key);
    if (it == n->keys.end() || *it != key) return std::nullopt;
    return n->items[it - n->keys.begin()];
  }

  /// The root's node id.
  uint32_t root() const { return root_; }
  /// The node with id `id`.
  const Node& node(uint32_t id) const { return nodes_[id]; }

 private:
  /// The child of internal node `n` whose key interval holds `key`.
  static size_t child_slot(const Node& n, int32_t key) {
    return std::upper_bound(n.keys.begin(), n.keys.end(), key) - n.keys.begin();
  }

  /// Inserts below node `id`; when the node splits, returns the separator and the new right node.
  std::optional<std::pair<int32_t, uint32_t>> insert_into(uint32_t id, int32_t key, uint32_t payload) {
    if (nodes_[id].leaf) {
      Node& n = nodes_[id];
      size_t at = std::lower_bound(n.keys.begin(), n.keys.end(), key) - n.keys.begin();
      n.keys.insert(n.keys.begin() + at, key);
      n.items.insert(n.items.begin() + at, payload);
      if (n.keys.size() < kOrder) return std::nullopt;
      Node right{true, {n.keys.begin() + kOrder / 2, n.keys.end()}, {n.items.begin() + kOrder / 2, n.items.end()}};
      n.keys.resize(kOrder / 2), n.items.resize(kOrder / 2);
      int32_t sep = right.keys.front();  // a leaf split copies its first key up
      nodes_.push_back(std::move(right));
      return std::pair{sep, uint32_t(nodes_.size() - 1)};
    }
    size_t at = child_slot(nodes_[id], key);
    auto split = insert_into(nodes_[id].items[at], key, payload);
    if (!split) return std::nullopt;
    Node& n = nodes_[id];  // insert_into may have grown nodes_
    n.keys.insert(n.keys.begin() + at, split->first);
    n.items.insert(n.items.begin() + at + 1, split->second);
    if (n.items.size() <= kOrder) return std::nullopt;
    // An internal split moves its middle key up: the left keeps kOrder/2 children.
    size_t mid = kOrder / 2;
    int32_t sep = n.keys[mid - 1];
    Node right{false, {n.keys.begin() + mid, n.keys.end()}, {n.items.begin() + mid, n.items.end()}};
    n.keys.resize(mid - 1), n.items.resize(mid);
    nodes_.push_back(std::move(right));
    return std::pair{sep, uint32_t(nodes_.size() - 1)};
  }

  std::vector<Node> nodes_;
  uint32_t root_ = 0;
};

/// Rodinia b+tree: a tree built on the host from shuffled keys, flattened breadth-first into
/// fixed-size nodes (the root first, leaves last and in key order), then one findK and one
/// findRangeK launch of one work-group per query.
class Btree : public Benchmark {
 public:
  explicit Btree(const BtreeParams& p)
      : n_(uint32_t(p.records)), q_(uint32_t(p.queries)), range_(uint32_t(p.range)) {}

  void setup(Context& ctx) override {
    // Distinct keys from 1 upward with about a quarter of the integers skipped, so that point
    // queries drawn over the whole key span miss about a quarter of the time.
    Rng rng(41);
    sorted_.clear();
    for (int32_t k = 1; sorted_.size() < n_; ++k)
      if (rng.below(4)) sorted_.push_back(k);
    value_.resize(n_);
    for (auto& v : value_) v = int32_t(rng.u32() >> 1);
    std::vector<uint32_t> order(n_);
    for (uint32_t i = 0; i < n_; ++i) order[i] = i;
    for (uint32_t i = n_; i > 1; --i) std::swap(order[i - 1], order[rng.below(i)]);
    for (uint32_t i : order) tree_.insert(sorted_[i], i);  // payload: the key's rank
    flatten();

    keys_.resize(q_), start_.resize(q_), end_.resize(q_);
    for (auto& k : keys_) k = int32_t(rng.below(uint32_t(sorted_.back()) + 2));
    for (uint32_t i = 0; i < q_; ++i) {  // both ends of a range are keys in the tree
      uint32_t r = rng.below(n_);
      int64_t hi = std::min<int64_t>(int64_t(sorted_[r]) + range_, INT32_MAX);
      start_[i] = sorted_[r], end_[i] = *(std::upper_bound(sorted_.begin(), sorted_.end(), hi) - 1);
    }

    dknodes_ = ctx.upload(knodes_), drecords_ = ctx.upload(records_);
    dkeys_ = ctx.upload(keys_), dans_ = ctx.upload(std::vector<int32_t>(q_, -1));
    dstart_ = ctx.upload(start_), dend_ = ctx.upload(end_);
    drec_start_ = ctx.alloc<int32_t>(q_), drec_len_ = ctx.alloc<int32_t>(q_);
    for (auto& d : dcursor_) d = ctx.alloc<int64_t>(q_);  // zero: every descent starts at the root
    kfind_ = ctx.kernel("btree", "findK"), krange_ = ctx.kernel("btree", "findRangeK");
    ctx.expect_launches(2);
  }

  void run(Context& ctx) override {
    int64_t elems = int64_t(knodes_.size() / kNodeWords);
    ctx.launch(kfind_, {q_ * kOrder, 1, 1}, {kOrder, 1, 1},
               {val(height_), buf(dknodes_), val(elems), buf(drecords_), buf(dcursor_[0]), buf(dcursor_[1]),
                buf(dkeys_), buf(dans_)});
    ctx.launch(krange_, {q_ * kOrder, 1, 1}, {kOrder, 1, 1},
               {val(height_), buf(dknodes_), val(elems), buf(dcursor_[2]), buf(dcursor_[3]), buf(dcursor_[4]),
                buf(dcursor_[5]), buf(dstart_), buf(dend_), buf(drec_start_), buf(drec_len_)});
  }

  void verify(Context& ctx) override {
    // Every answer is an exact integer: a lookup of the same keys in the host tree.
    std::vector<int32_t> ans(q_), rec_start(q_), rec_len(q_);
    for (uint32_t i = 0; i < q_; ++i) {
      auto hit = tree_.find(keys_[i]);
      ans[i] = hit ? records_[record_of_[*hit]] : -1;
      uint32_t first = record_of_[tree_.find(start_[i]).value()], last = record_of_[tree_.find(end_[i]).value()];
      rec_start[i] = int32_t(first), rec_len[i] = int32_t(last - first + 1);
    }
    expect_equal("ans", ctx.download<int32_t>(dans_, q_), ans);
    expect_equal("rec_start", ctx.download<int32_t>(drec_start_, q_), rec_start);
    expect_equal("rec_len", ctx.download<int32_t>(drec_len_, q_), rec_len);
  }

 private:
  /// Lays the tree out breadth-first as the kernels read it, numbering records leaf by leaf.
  void flatten() {
    knodes_.clear(), records_.clear(), record_of_.assign(n_, 0);
    std::deque<std::pair<uint32_t, int64_t>> queue{{tree_.root(), 0}};  // (node, depth)
    uint32_t placed = 1;
    while (!queue.empty()) {
      auto [id, depth] = queue.front();
      queue.pop_front();
      const BPlusTree::Node& n = tree_.node(id);
      height_ = depth;  // the last node placed is a leaf, as deep as every leaf
      std::vector<int32_t> w(kNodeWords, 0);
      int32_t* idx = &w[1];
      int32_t* key = &w[1 + kOrder + 1];
      std::fill(key, key + kOrder + 1, INT32_MAX);
      w[0] = int32_t(knodes_.size() / kNodeWords);  // location
      w[kNodeWords - 2] = n.leaf, w[kNodeWords - 1] = int32_t(n.keys.size());
      if (n.leaf) {
        for (size_t j = 0; j < n.keys.size(); ++j) {
          record_of_[n.items[j]] = uint32_t(records_.size());
          idx[j] = int32_t(records_.size()), key[j] = n.keys[j];
          records_.push_back(value_[n.items[j]]);
        }
      } else {
        key[0] = INT32_MIN;  // slot j covers [key[j], key[j+1])
        for (size_t j = 0; j < n.items.size(); ++j) {
          if (j) key[j] = n.keys[j - 1];
          idx[j] = int32_t(placed++);
          queue.push_back({n.items[j], depth + 1});
        }
      }
      knodes_.insert(knodes_.end(), w.begin(), w.end());
    }
  }

  uint32_t n_, q_, range_;
  BPlusTree tree_;
  std::vector<int32_t> sorted_, value_, knodes_, records_, keys_, start_, end_;
  std::vector<uint32_t> record_of_;  ///< record number of each key rank
  int64_t height_ = 0;               ///< levels below the root
  uint64_t dknodes_ = 0, drecords_ = 0, dkeys_ = 0, dans_ = 0, dstart_ = 0, dend_ = 0, drec_start_ = 0,
           drec_len_ = 0, dcursor_[6] = {};
  Kernel kfind_, krange_;
};

}  // namespace

STROBE_BENCHMARK(Btree, "btree", "Rodinia b+tree: findK point and findRangeK range searches, a work-group per query",
                 {int_param(STROBE_FIELD(BtreeParams, records), 1000000, 1, 1 << 24, "keys (records) in the tree").with_small(20000),
                  int_param(STROBE_FIELD(BtreeParams, queries), 65536, 1, 1 << 22, "queries per launch (work-groups of 256)").with_small(1000),
                  int_param(STROBE_FIELD(BtreeParams, range), 3000, 0, 1 << 30, "key-space width of each range query").with_small(300)});

}  // namespace strobe::workloads
