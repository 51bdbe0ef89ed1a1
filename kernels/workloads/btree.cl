// Rodinia b+tree: batched B+ tree searches over a tree flattened into an array of fixed-size
// nodes. One work-group per query and one work-item per key slot: at each level the work-item
// whose slot brackets the key moves the query to its child, until the query reaches a leaf.

// Maximum children of an internal node (Rodinia's default order); each node has ORDER + 1 slots
// so work-item ORDER - 1 can compare against the slot after its own.
#define ORDER 256

// One tree node as the host lays it out: an internal node's keys[0] is below every key and its
// unused slots hold INT_MAX, so exactly one slot brackets any query key. A leaf's indices are
// record numbers. is_leaf is an int (a bool in the original) to keep the layout plain.
typedef struct {
  int location;
  int indices[ORDER + 1];
  int keys[ORDER + 1];
  int is_leaf;
  int num_keys;
} knode;

// findK: the record of each query key, or ans left at -1 when the key is not in the tree.
// curr and offset (one per query, zeroed: the root) carry the descent in global memory between
// the barriers, as in the original.
__kernel void findK(long height, __global const knode* knodes, long knodes_elem, __global const int* records,
                    __global long* curr, __global long* offset, __global const int* keys, __global int* ans) {
  int slot = get_local_id(0), q = get_group_id(0);
  for (long level = 0; level < height; ++level) {
    __global const knode* node = &knodes[curr[q]];
    if (node->keys[slot] <= keys[q] && node->keys[slot + 1] > keys[q]) {
      int child = knodes[offset[q]].indices[slot];
      if (child < knodes_elem) offset[q] = child;  // never leave the node array
    }
    barrier(CLK_GLOBAL_MEM_FENCE);
    if (slot == 0) curr[q] = offset[q];
    barrier(CLK_GLOBAL_MEM_FENCE);
  }
  __global const knode* leaf = &knodes[curr[q]];
  if (leaf->keys[slot] == keys[q]) ans[q] = records[leaf->indices[slot]];
}

// findRangeK: two descents in lock step, to the leaves holding each query's start and end keys;
// the answer is the first record of the range and the number of records it spans (records are
// numbered in key order across the leaves).
__kernel void findRangeK(long height, __global const knode* knodes, long knodes_elem, __global long* curr,
                         __global long* offset, __global long* last, __global long* offset_2,
                         __global const int* start, __global const int* end, __global int* rec_start,
                         __global int* rec_len) {
  int slot = get_local_id(0), q = get_group_id(0);
  for (long level = 0; level < height; ++level) {
    __global const knode* lo = &knodes[curr[q]];
    if (lo->keys[slot] <= start[q] && lo->keys[slot + 1] > start[q]) {
      int child = lo->indices[slot];
      if (child < knodes_elem) offset[q] = child;
    }
    __global const knode* hi = &knodes[last[q]];
    if (hi->keys[slot] <= end[q] && hi->keys[slot + 1] > end[q]) {
      int child = hi->indices[slot];
      if (child < knodes_elem) offset_2[q] = child;
    }
    barrier(CLK_GLOBAL_MEM_FENCE);
    if (slot == 0) {
      curr[q] = offset[q];
      last[q] = offset_2[q];
    }
    barrier(CLK_GLOBAL_MEM_FENCE);
  }
  __global const knode* lo = &knodes[curr[q]];
  if (lo->keys[slot] == start[q]) rec_start[q] = lo->indices[slot];
  barrier(CLK_GLOBAL_MEM_FENCE);  // the length below reads rec_start, written by another work-item
  __global const knode* hi = &knodes[last[q]];
  if (hi->keys[slot] == end[q]) rec_len[q] = hi->indices[slot] - rec_start[q] + 1;
}
