// Buffer transfers: read, write, copy and fill, and the rectangular variants.
#include <algorithm>
#include <array>
#include <cstring>
#include <vector>

#include <fmt/core.h>

#include "opencl/api.h"
#include "opencl/enqueue.h"
#include "opencl/memory.h"
#include "opencl/platform.h"

using namespace strobe;
using namespace strobe::opencl;

namespace {

runtime::Device& dev() { return platform().device(); }

void check_host_readable(cl_mem m) {
  if (m->flags & (CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS))
    fail(CL_INVALID_OPERATION, "the buffer was created with CL_MEM_HOST_WRITE_ONLY or CL_MEM_HOST_NO_ACCESS");
}

void check_host_writable(cl_mem m) {
  if (m->flags & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS))
    fail(CL_INVALID_OPERATION, "the buffer was created with CL_MEM_HOST_READ_ONLY or CL_MEM_HOST_NO_ACCESS");
}

/// Byte ranges of two buffers' storage overlap (same allocation).
bool overlaps(cl_mem a, size_t ao, cl_mem b, size_t bo, size_t n) {
  if (a->root() != b->root()) return false;
  uint64_t x = a->address + ao, y = b->address + bo;
  return x < y + n && y < x + n;
}

/// A rectangle of bytes in a buffer or host memory, with the spec's pitch defaults applied.
struct Rect {
  std::array<size_t, 3> origin, region;
  size_t row_pitch, slice_pitch;
  Rect(const size_t* o, const size_t* r, size_t row, size_t slice, const char* what) {
    if (!o || !r) fail(CL_INVALID_VALUE, fmt::format("{} origin or region is NULL", what));
    for (int i = 0; i < 3; ++i) {
      origin[i] = o[i];
      region[i] = r[i];
      if (region[i] == 0) fail(CL_INVALID_VALUE, "a region dimension is 0");
    }
    row_pitch = row ? row : region[0];
    slice_pitch = slice ? slice : region[1] * row_pitch;
    if (row_pitch < region[0]) fail(CL_INVALID_VALUE, fmt::format("{} row pitch is smaller than region[0]", what));
    if (slice_pitch < region[1] * row_pitch || slice_pitch % row_pitch)
      fail(CL_INVALID_VALUE, fmt::format("{} slice pitch is smaller than region[1] * row pitch or not a multiple of it", what));
  }
  size_t offset(size_t y, size_t z) const {
    return (origin[2] + z) * slice_pitch + (origin[1] + y) * row_pitch + origin[0];
  }
  size_t first() const { return offset(0, 0); }
  size_t end() const { return offset(region[1] - 1, region[2] - 1) + region[0]; }
};

/// Calls f(buffer_offset, other_offset) for each row of a rectangular copy.
template <class F>
void for_rows(const Rect& a, const Rect& b, F&& f) {
  for (size_t z = 0; z < a.region[2]; ++z)
    for (size_t y = 0; y < a.region[1]; ++y) f(a.offset(y, z), b.offset(y, z));
}

cl_int read_write_rect(const char* api, bool is_read, cl_command_queue q, cl_mem m, cl_bool blocking,
                       const size_t* buffer_origin, const size_t* host_origin, const size_t* region,
                       size_t buffer_row_pitch, size_t buffer_slice_pitch, size_t host_row_pitch,
                       size_t host_slice_pitch, void* ptr, cl_uint num_events, const cl_event* wait, cl_event* event) {
  return guarded_rc(api, [&] {
    check(q, "command_queue");
    check(m, "buffer");
    check_queue(q, m->context);
    is_read ? check_host_readable(m) : check_host_writable(m);
    if (!ptr) fail(CL_INVALID_VALUE, "ptr is NULL");
    Rect b(buffer_origin, region, buffer_row_pitch, buffer_slice_pitch, "buffer");
    Rect h(host_origin, region, host_row_pitch, host_slice_pitch, "host");
    if (b.end() > m->size) fail(CL_INVALID_VALUE, fmt::format("the rectangle ends at byte {} of a {}-byte buffer", b.end(), m->size));
    auto* host = static_cast<uint8_t*>(ptr);
    auto work = [=] {
      platform().charge_transfer(!is_read, b.region[0] * b.region[1] * b.region[2]);
      sync_to_device(m, b.first(), b.end() - b.first());
      for_rows(b, h, [&](size_t bo, size_t ho) {
        if (is_read) dev().copy_to_host(host + ho, m->address + bo, b.region[0]);
        else dev().copy_to_device(m->address + bo, host + ho, b.region[0]);
      });
      if (!is_read) sync_to_host(m, b.first(), b.end() - b.first());
    };
    return enqueue(q, is_read ? CL_COMMAND_READ_BUFFER_RECT : CL_COMMAND_WRITE_BUFFER_RECT, num_events, wait, event,
                   blocking, work, {m});
  });
}

}  // namespace

cl_int CL_API_CALL clEnqueueReadBuffer(cl_command_queue q, cl_mem buffer, cl_bool blocking_read, size_t offset,
                                       size_t size, void* ptr, cl_uint num_events, const cl_event* wait,
                                       cl_event* event) {
  return guarded_rc("clEnqueueReadBuffer", [&] {
    check(q, "command_queue");
    check(buffer, "buffer");
    check_queue(q, buffer->context);
    check_host_readable(buffer);
    if (!ptr) fail(CL_INVALID_VALUE, "ptr is NULL");
    if (size == 0) fail(CL_INVALID_VALUE, "size is 0");
    check_range(buffer, offset, size, "read");
    auto work = [=] {
      platform().charge_transfer(false, size);
      sync_to_device(buffer, offset, size);
      dev().copy_to_host(ptr, buffer->address + offset, size);
    };
    return enqueue(q, CL_COMMAND_READ_BUFFER, num_events, wait, event, blocking_read, work, {buffer});
  });
}

cl_int CL_API_CALL clEnqueueWriteBuffer(cl_command_queue q, cl_mem buffer, cl_bool blocking_write, size_t offset,
                                        size_t size, const void* ptr, cl_uint num_events, const cl_event* wait,
                                        cl_event* event) {
  return guarded_rc("clEnqueueWriteBuffer", [&] {
    check(q, "command_queue");
    check(buffer, "buffer");
    check_queue(q, buffer->context);
    check_host_writable(buffer);
    if (!ptr) fail(CL_INVALID_VALUE, "ptr is NULL");
    if (size == 0) fail(CL_INVALID_VALUE, "size is 0");
    check_range(buffer, offset, size, "write");
    auto work = [=] {
      platform().charge_transfer(true, size);
      dev().copy_to_device(buffer->address + offset, ptr, size);
      sync_to_host(buffer, offset, size);
    };
    return enqueue(q, CL_COMMAND_WRITE_BUFFER, num_events, wait, event, blocking_write, work, {buffer});
  });
}

cl_int CL_API_CALL clEnqueueCopyBuffer(cl_command_queue q, cl_mem src, cl_mem dst, size_t src_offset,
                                       size_t dst_offset, size_t size, cl_uint num_events, const cl_event* wait,
                                       cl_event* event) {
  return guarded_rc("clEnqueueCopyBuffer", [&] {
    check(q, "command_queue");
    check(src, "src_buffer");
    check(dst, "dst_buffer");
    check_queue(q, src->context);
    check_queue(q, dst->context);
    if (size == 0) fail(CL_INVALID_VALUE, "size is 0");
    check_range(src, src_offset, size, "copy source");
    check_range(dst, dst_offset, size, "copy destination");
    if (overlaps(src, src_offset, dst, dst_offset, size)) fail(CL_MEM_COPY_OVERLAP, "source and destination overlap");
    auto work = [=] {
      platform().charge_local(size, size);
      sync_to_device(src, src_offset, size);
      std::vector<uint8_t> tmp(size);
      dev().copy_to_host(tmp.data(), src->address + src_offset, size);
      dev().copy_to_device(dst->address + dst_offset, tmp.data(), size);
      sync_to_host(dst, dst_offset, size);
    };
    return enqueue(q, CL_COMMAND_COPY_BUFFER, num_events, wait, event, false, work, {src, dst});
  });
}

cl_int CL_API_CALL clEnqueueFillBuffer(cl_command_queue q, cl_mem buffer, const void* pattern, size_t pattern_size,
                                       size_t offset, size_t size, cl_uint num_events, const cl_event* wait,
                                       cl_event* event) {
  return guarded_rc("clEnqueueFillBuffer", [&] {
    check(q, "command_queue");
    check(buffer, "buffer");
    check_queue(q, buffer->context);
    if (!pattern) fail(CL_INVALID_VALUE, "pattern is NULL");
    if (pattern_size == 0 || pattern_size > 128 || (pattern_size & (pattern_size - 1)))
      fail(CL_INVALID_VALUE, "pattern_size must be 1, 2, 4, 8, 16, 32, 64 or 128");
    if (offset % pattern_size || size % pattern_size)
      fail(CL_INVALID_VALUE, "offset and size must be multiples of pattern_size");
    check_range(buffer, offset, size, "fill");
    std::vector<uint8_t> pat(static_cast<const uint8_t*>(pattern), static_cast<const uint8_t*>(pattern) + pattern_size);
    auto work = [=] {
      platform().charge_local(0, size);
      // One chunk of the repeated pattern, written as many times as the range needs.
      const size_t chunk_size = std::min<size_t>(size, std::max<size_t>(pattern_size, (1 << 20) / pattern_size * pattern_size));
      std::vector<uint8_t> chunk(chunk_size);
      for (size_t i = 0; i < chunk_size; i += pattern_size) std::memcpy(chunk.data() + i, pat.data(), pattern_size);
      for (size_t done = 0; done < size; done += chunk_size)
        dev().copy_to_device(buffer->address + offset + done, chunk.data(), std::min(chunk_size, size - done));
      sync_to_host(buffer, offset, size);
    };
    return enqueue(q, CL_COMMAND_FILL_BUFFER, num_events, wait, event, false, work, {buffer});
  });
}

cl_int CL_API_CALL clEnqueueReadBufferRect(cl_command_queue q, cl_mem buffer, cl_bool blocking_read,
                                           const size_t* buffer_origin, const size_t* host_origin, const size_t* region,
                                           size_t buffer_row_pitch, size_t buffer_slice_pitch, size_t host_row_pitch,
                                           size_t host_slice_pitch, void* ptr, cl_uint num_events, const cl_event* wait,
                                           cl_event* event) {
  return read_write_rect("clEnqueueReadBufferRect", true, q, buffer, blocking_read, buffer_origin, host_origin, region,
                         buffer_row_pitch, buffer_slice_pitch, host_row_pitch, host_slice_pitch, ptr, num_events, wait,
                         event);
}

cl_int CL_API_CALL clEnqueueWriteBufferRect(cl_command_queue q, cl_mem buffer, cl_bool blocking_write,
                                            const size_t* buffer_origin, const size_t* host_origin,
                                            const size_t* region, size_t buffer_row_pitch, size_t buffer_slice_pitch,
                                            size_t host_row_pitch, size_t host_slice_pitch, const void* ptr,
                                            cl_uint num_events, const cl_event* wait, cl_event* event) {
  return read_write_rect("clEnqueueWriteBufferRect", false, q, buffer, blocking_write, buffer_origin, host_origin,
                         region, buffer_row_pitch, buffer_slice_pitch, host_row_pitch, host_slice_pitch,
                         const_cast<void*>(ptr), num_events, wait, event);
}

cl_int CL_API_CALL clEnqueueCopyBufferRect(cl_command_queue q, cl_mem src, cl_mem dst, const size_t* src_origin,
                                           const size_t* dst_origin, const size_t* region, size_t src_row_pitch,
                                           size_t src_slice_pitch, size_t dst_row_pitch, size_t dst_slice_pitch,
                                           cl_uint num_events, const cl_event* wait, cl_event* event) {
  return guarded_rc("clEnqueueCopyBufferRect", [&] {
    check(q, "command_queue");
    check(src, "src_buffer");
    check(dst, "dst_buffer");
    check_queue(q, src->context);
    check_queue(q, dst->context);
    Rect s(src_origin, region, src_row_pitch, src_slice_pitch, "source");
    Rect d(dst_origin, region, dst_row_pitch, dst_slice_pitch, "destination");
    if (s.end() > src->size || d.end() > dst->size) fail(CL_INVALID_VALUE, "the rectangle lies outside a buffer");
    if (src->root() == dst->root()) {
      if (src == dst && src_row_pitch != dst_row_pitch)
        fail(CL_INVALID_VALUE, "copying within one buffer needs equal row pitches");
      if (src == dst && src_slice_pitch != dst_slice_pitch)
        fail(CL_INVALID_VALUE, "copying within one buffer needs equal slice pitches");
      // With the same pitches the rectangles are boxes in one coordinate system: they overlap
      // when they overlap in every dimension. Otherwise compare the byte extents.
      bool overlap;
      if (src == dst) {
        overlap = true;
        for (int i = 0; i < 3; ++i)
          overlap &= s.origin[i] < d.origin[i] + region[i] && d.origin[i] < s.origin[i] + region[i];
      } else {
        overlap = src->address + s.first() < dst->address + d.end() && dst->address + d.first() < src->address + s.end();
      }
      if (overlap) fail(CL_MEM_COPY_OVERLAP, "source and destination rectangles overlap");
    }
    auto work = [=] {
      const uint64_t bytes = s.region[0] * s.region[1] * s.region[2];
      platform().charge_local(bytes, bytes);
      sync_to_device(src, s.first(), s.end() - s.first());
      std::vector<uint8_t> row(s.region[0]);
      for_rows(s, d, [&](size_t so, size_t dof) {
        dev().copy_to_host(row.data(), src->address + so, row.size());
        dev().copy_to_device(dst->address + dof, row.data(), row.size());
      });
      sync_to_host(dst, d.first(), d.end() - d.first());
    };
    return enqueue(q, CL_COMMAND_COPY_BUFFER_RECT, num_events, wait, event, false, work, {src, dst});
  });
}
