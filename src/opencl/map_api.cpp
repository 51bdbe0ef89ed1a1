// clEnqueueMapBuffer and clEnqueueUnmapMemObject. A USE_HOST_PTR buffer maps to its own host
// memory (host_ptr + offset, as the spec requires); any other buffer maps into a host image of
// the whole root buffer, allocated on first map, so repeated maps of a range return the same
// pointer and sub-buffers map into their parent's image. In timing mode a map for reading copies
// the range across the host link and an unmap after writing copies it back, unless the buffer
// is host-resident (USE_HOST_PTR, ALLOC_HOST_PTR), where both are free.
#include <algorithm>
#include <new>

#include "opencl/api.h"
#include "opencl/enqueue.h"
#include "opencl/memory.h"
#include "opencl/platform.h"

using namespace strobe;
using namespace strobe::opencl;

void* CL_API_CALL clEnqueueMapBuffer(cl_command_queue q, cl_mem buffer, cl_bool blocking_map, cl_map_flags map_flags,
                                     size_t offset, size_t size, cl_uint num_events, const cl_event* wait,
                                     cl_event* event, cl_int* errcode_ret) {
  return guarded_create("clEnqueueMapBuffer", errcode_ret, [&]() -> void* {
    check(q, "command_queue");
    check(buffer, "buffer");
    check_queue(q, buffer->context);
    if (map_flags & ~cl_map_flags(CL_MAP_READ | CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION))
      fail(CL_INVALID_VALUE, "unknown map flags");
    if ((map_flags & CL_MAP_WRITE_INVALIDATE_REGION) && (map_flags & (CL_MAP_READ | CL_MAP_WRITE)))
      fail(CL_INVALID_VALUE, "CL_MAP_WRITE_INVALIDATE_REGION excludes CL_MAP_READ and CL_MAP_WRITE");
    if ((map_flags & CL_MAP_READ) && (buffer->flags & (CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS)))
      fail(CL_INVALID_OPERATION, "mapping for reading a buffer the host may not read");
    if ((map_flags & (CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION)) &&
        (buffer->flags & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS)))
      fail(CL_INVALID_OPERATION, "mapping for writing a buffer the host may not write");
    if (size == 0) fail(CL_INVALID_VALUE, "size is 0");
    check_range(buffer, offset, size, "map");

    cl_mem root = buffer->root();
    const size_t root_offset = buffer->origin + offset;
    void* ptr;
    {
      std::lock_guard lock(root->map_mu);
      if (buffer->uses_host_ptr()) {
        ptr = host_bytes(buffer, offset);
      } else {
        if (!root->shadow) {
          root->shadow.reset(new (std::nothrow) uint8_t[root->size]);
          if (!root->shadow) fail(CL_MAP_FAILURE, "cannot allocate host memory for the mapping");
        }
        ptr = root->shadow.get() + root_offset;
      }
      root->mappings.push_back({buffer, ptr, root_offset, size, map_flags});
    }
    auto work = [=] {
      if (buffer->uses_host_ptr() || (map_flags & CL_MAP_WRITE_INVALIDATE_REGION)) return;
      if (!buffer->host_resident()) platform().charge_transfer(false, size);
      platform().device().copy_to_host(ptr, root->address + root_offset, size);
    };
    cl_int rc = enqueue(q, CL_COMMAND_MAP_BUFFER, num_events, wait, event, blocking_map, work, {buffer});
    if (rc != CL_SUCCESS) {
      std::lock_guard lock(root->map_mu);
      auto& maps = root->mappings;
      auto it = std::find_if(maps.rbegin(), maps.rend(), [&](const auto& m) { return m.ptr == ptr && m.owner == buffer; });
      if (it != maps.rend()) maps.erase(std::next(it).base());
      fail(rc, "the map command could not run: an event it waited for failed");
    }
    return ptr;
  });
}

cl_int CL_API_CALL clEnqueueUnmapMemObject(cl_command_queue q, cl_mem memobj, void* mapped_ptr, cl_uint num_events,
                                           const cl_event* wait, cl_event* event) {
  return guarded_rc("clEnqueueUnmapMemObject", [&] {
    check(q, "command_queue");
    check(memobj, "memobj");
    check_queue(q, memobj->context);
    cl_mem root = memobj->root();
    _cl_mem::Mapping m;
    {
      std::lock_guard lock(root->map_mu);
      auto& maps = root->mappings;
      auto it = std::find_if(maps.begin(), maps.end(), [&](const auto& x) { return x.ptr == mapped_ptr && x.owner == memobj; });
      if (it == maps.end()) fail(CL_INVALID_VALUE, "mapped_ptr was not returned by a map of this memory object");
      m = *it;
      maps.erase(it);
    }
    auto work = [=] {
      if (!(m.flags & (CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION))) return;
      if (!memobj->host_resident()) platform().charge_transfer(true, m.size);
      if (memobj->uses_host_ptr()) sync_to_device(memobj, m.offset - memobj->origin, m.size);
      else platform().device().copy_to_device(root->address + m.offset, m.ptr, m.size);
    };
    return enqueue(q, CL_COMMAND_UNMAP_MEM_OBJECT, num_events, wait, event, false, work, {memobj});
  });
}
