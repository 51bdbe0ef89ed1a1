// How commands execute: kernel faults, failure propagation, the local size strobe picks, queue
// ordering, callbacks, host threads, USE_HOST_PTR memory and object lifetimes.
#include <CL/cl.h>

#include <atomic>
#include <thread>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "opencl/opencl_test_support.h"

namespace strobe::opencl_test {
namespace {

using ::testing::HasSubstr;

constexpr const char* kSource = R"(
__kernel void oob(__global int* v) { v[get_global_id(0) * 1000000] = 1; }
__kernel void sizes(__global int* out) {
  if (get_global_id(0) == 0 && get_global_id(1) == 0) {
    out[0] = get_local_size(0);
    out[1] = get_local_size(1);
    out[2] = get_num_groups(0);
  }
}
__kernel void add(__global int* v, int k) { v[get_global_id(0)] += k; }
)";

class Execution : public ClTest {
 protected:
  void SetUp() override {
    ClTest::SetUp();
    prog_ = build(kSource);
  }
  cl_program prog_ = nullptr;
};

struct Notes {
  std::vector<std::string> messages;
};

TEST_F(Execution, AKernelFaultFailsItsEventWithOutOfResourcesAndExplainsOnStderr) {
  Notes notes;
  cl_int err;
  cl_context ctx = clCreateContext(
      nullptr, 1, &device_, [](const char* msg, const void*, size_t, void* n) { static_cast<Notes*>(n)->messages.push_back(msg); },
      &notes, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  cl_command_queue q = clCreateCommandQueue(ctx, device_, 0, &err);
  const char* src = kSource;
  cl_program p = clCreateProgramWithSource(ctx, 1, &src, nullptr, &err);
  ASSERT_EQ(clBuildProgram(p, 1, &device_, nullptr, nullptr, nullptr), CL_SUCCESS);
  cl_kernel k = clCreateKernel(p, "oob", &err);
  cl_mem m = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 1024, nullptr, &err);
  ASSERT_EQ(clSetKernelArg(k, 0, sizeof m, &m), CL_SUCCESS);
  size_t global = 64;
  cl_event ev;
  ::testing::internal::CaptureStderr();
  ASSERT_EQ(clEnqueueNDRangeKernel(q, k, 1, nullptr, &global, nullptr, 0, nullptr, &ev), CL_SUCCESS);
  EXPECT_EQ(clWaitForEvents(1, &ev), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  std::string err_text = ::testing::internal::GetCapturedStderr();
  cl_int status;
  ASSERT_EQ(clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, nullptr), CL_SUCCESS);
  EXPECT_EQ(status, CL_OUT_OF_RESOURCES);
  EXPECT_THAT(err_text, HasSubstr("strobe: clEnqueueNDRangeKernel failed (CL_OUT_OF_RESOURCES): kernel oob"));
  EXPECT_THAT(err_text, HasSubstr("outside every live allocation"));
  ASSERT_EQ(notes.messages.size(), 1u);
  EXPECT_THAT(notes.messages[0], HasSubstr("kernel oob"));

  // A command that waits for the failed one fails too; the queue itself goes on.
  int host[4];
  EXPECT_EQ(clEnqueueReadBuffer(q, m, CL_TRUE, 0, sizeof host, host, 1, &ev, nullptr),
            CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  EXPECT_EQ(clEnqueueReadBuffer(q, m, CL_TRUE, 0, sizeof host, host, 0, nullptr, nullptr), CL_SUCCESS);
  clReleaseEvent(ev);
  clReleaseMemObject(m);
  clReleaseKernel(k);
  clReleaseProgram(p);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
}

TEST_F(Execution, WithoutALocalSizeStrobePicksUniformGroupsThatDivideTheGrid) {
  cl_kernel k = kernel(prog_, "sizes");
  cl_mem out = buffer(3 * sizeof(int));
  ASSERT_EQ(clSetKernelArg(k, 0, sizeof out, &out), CL_SUCCESS);
  auto run = [&](cl_uint dims, std::vector<size_t> global) {
    std::vector<int> got(3);
    EXPECT_EQ(clEnqueueNDRangeKernel(queue_, k, dims, nullptr, global.data(), nullptr, 0, nullptr, nullptr), CL_SUCCESS);
    EXPECT_EQ(clEnqueueReadBuffer(queue_, out, CL_TRUE, 0, 3 * sizeof(int), got.data(), 0, nullptr, nullptr), CL_SUCCESS);
    return got;
  };
  EXPECT_EQ(run(1, {1000}), (std::vector<int>{250, 1, 4}));
  EXPECT_EQ(run(1, {4096}), (std::vector<int>{256, 1, 16}));
  EXPECT_EQ(run(1, {1009}), (std::vector<int>{1, 1, 1009}));  // a prime: only groups of one divide it
  EXPECT_EQ(run(2, {64, 48}), (std::vector<int>{16, 16, 4}));
  EXPECT_EQ(run(2, {1000, 1}), (std::vector<int>{250, 1, 4}));
}

TEST_F(Execution, WorkGroupQueriesDescribeTheKernel) {
  const char* src = "__kernel __attribute__((reqd_work_group_size(64,2,1))) void f(__global int* v) {\n"
                    "  __local int t[128]; t[get_local_id(0)] = 1; v[0] = t[0]; }";
  cl_program p = build(src);
  cl_kernel k = kernel(p, "f");
  size_t wg, multiple, reqd[3];
  cl_ulong lds;
  ASSERT_EQ(clGetKernelWorkGroupInfo(k, device_, CL_KERNEL_WORK_GROUP_SIZE, sizeof wg, &wg, nullptr), CL_SUCCESS);
  ASSERT_EQ(clGetKernelWorkGroupInfo(k, device_, CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE, sizeof multiple,
                                     &multiple, nullptr), CL_SUCCESS);
  ASSERT_EQ(clGetKernelWorkGroupInfo(k, device_, CL_KERNEL_COMPILE_WORK_GROUP_SIZE, sizeof reqd, reqd, nullptr), CL_SUCCESS);
  ASSERT_EQ(clGetKernelWorkGroupInfo(k, device_, CL_KERNEL_LOCAL_MEM_SIZE, sizeof lds, &lds, nullptr), CL_SUCCESS);
  EXPECT_EQ(wg, 128u);  // the compiler limits the kernel to its required size
  EXPECT_EQ(multiple, 64u);
  EXPECT_EQ(reqd[0], 64u);
  EXPECT_EQ(reqd[1], 2u);
  EXPECT_EQ(reqd[2], 1u);
  EXPECT_EQ(lds, 512u);
  char attrs[128];
  ASSERT_EQ(clGetKernelInfo(k, CL_KERNEL_ATTRIBUTES, sizeof attrs, attrs, nullptr), CL_SUCCESS);
  EXPECT_STREQ(attrs, "reqd_work_group_size(64,2,1)");
}

TEST_F(Execution, AnOutOfOrderQueueRunsIndependentCommandsPastABlockedOne) {
  cl_int err;
  cl_command_queue ooo = clCreateCommandQueue(context_, device_, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  cl_event gate = clCreateUserEvent(context_, &err);
  cl_mem a = buffer(256), b = buffer(256);
  int ones[64];
  std::fill(std::begin(ones), std::end(ones), 1);
  cl_event blocked, free_one;
  ASSERT_EQ(clEnqueueWriteBuffer(ooo, a, CL_FALSE, 0, 256, ones, 1, &gate, &blocked), CL_SUCCESS);
  ASSERT_EQ(clEnqueueWriteBuffer(ooo, b, CL_FALSE, 0, 256, ones, 0, nullptr, &free_one), CL_SUCCESS);
  ASSERT_EQ(clWaitForEvents(1, &free_one), CL_SUCCESS);  // would hang if it queued behind `blocked`
  cl_int status;
  clGetEventInfo(blocked, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, nullptr);
  EXPECT_EQ(status, CL_QUEUED);
  // A barrier waits for everything before it, the blocked write included.
  cl_event barrier;
  ASSERT_EQ(clEnqueueBarrierWithWaitList(ooo, 0, nullptr, &barrier), CL_SUCCESS);
  clGetEventInfo(barrier, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, nullptr);
  EXPECT_GT(status, CL_COMPLETE);
  ASSERT_EQ(clSetUserEventStatus(gate, CL_COMPLETE), CL_SUCCESS);
  ASSERT_EQ(clWaitForEvents(1, &barrier), CL_SUCCESS);
  for (cl_event e : {gate, blocked, free_one, barrier}) clReleaseEvent(e);
  clReleaseCommandQueue(ooo);
}

TEST_F(Execution, CallbacksSeeSubmittedRunningAndCompleteInOrder) {
  cl_int err;
  cl_event gate = clCreateUserEvent(context_, &err);
  cl_mem m = buffer(64);
  cl_event ev;
  int x = 5;
  ASSERT_EQ(clEnqueueWriteBuffer(queue_, m, CL_FALSE, 0, sizeof x, &x, 1, &gate, &ev), CL_SUCCESS);
  static std::vector<cl_int> seen;
  seen.clear();
  auto record = [](cl_event, cl_int status, void*) { seen.push_back(status); };
  ASSERT_EQ(clSetEventCallback(ev, CL_COMPLETE, record, nullptr), CL_SUCCESS);
  ASSERT_EQ(clSetEventCallback(ev, CL_RUNNING, record, nullptr), CL_SUCCESS);
  ASSERT_EQ(clSetEventCallback(ev, CL_SUBMITTED, record, nullptr), CL_SUCCESS);
  EXPECT_TRUE(seen.empty());
  ASSERT_EQ(clSetUserEventStatus(gate, CL_COMPLETE), CL_SUCCESS);
  ASSERT_EQ(clWaitForEvents(1, &ev), CL_SUCCESS);
  EXPECT_EQ(seen, (std::vector<cl_int>{CL_SUBMITTED, CL_RUNNING, CL_COMPLETE}));
  // Registered after the fact: called at once.
  ASSERT_EQ(clSetEventCallback(ev, CL_COMPLETE, record, nullptr), CL_SUCCESS);
  EXPECT_EQ(seen.size(), 4u);
  clReleaseEvent(ev);
  clReleaseEvent(gate);
}

TEST_F(Execution, HostThreadsCanDriveQueuesConcurrently) {
  cl_kernel proto = kernel(prog_, "add");
  constexpr int kThreads = 4, kRounds = 10, kN = 512;
  std::vector<std::thread> threads;
  std::atomic<int> failures{0};
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      cl_int err;
      cl_command_queue q = clCreateCommandQueue(context_, device_, 0, &err);
      cl_kernel k = clCreateKernel(prog_, "add", &err);
      std::vector<int> host(kN, t);
      cl_mem m = clCreateBuffer(context_, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, kN * sizeof(int), host.data(), &err);
      clSetKernelArg(k, 0, sizeof m, &m);
      int one = 1;
      clSetKernelArg(k, 1, sizeof one, &one);
      size_t global = kN;
      for (int r = 0; r < kRounds; ++r)
        if (clEnqueueNDRangeKernel(q, k, 1, nullptr, &global, nullptr, 0, nullptr, nullptr) != CL_SUCCESS) ++failures;
      clEnqueueReadBuffer(q, m, CL_TRUE, 0, kN * sizeof(int), host.data(), 0, nullptr, nullptr);
      for (int v : host)
        if (v != t + kRounds) ++failures;
      clReleaseMemObject(m);
      clReleaseKernel(k);
      clReleaseCommandQueue(q);
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(failures.load(), 0);
  (void)proto;
}

TEST_F(Execution, UseHostPtrMemoryHoldsTheBufferBetweenCommands) {
  std::vector<int> host(256, 7);
  cl_int err;
  cl_mem m = clCreateBuffer(context_, CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, host.size() * sizeof(int), host.data(), &err);
  ASSERT_EQ(err, CL_SUCCESS);
  cl_kernel k = kernel(prog_, "add");
  int three = 3;
  ASSERT_EQ(clSetKernelArg(k, 0, sizeof m, &m), CL_SUCCESS);
  ASSERT_EQ(clSetKernelArg(k, 1, sizeof three, &three), CL_SUCCESS);
  size_t global = host.size();
  ASSERT_EQ(clEnqueueNDRangeKernel(queue_, k, 1, nullptr, &global, nullptr, 0, nullptr, nullptr), CL_SUCCESS);
  ASSERT_EQ(clFinish(queue_), CL_SUCCESS);
  EXPECT_EQ(host[0], 10);
  EXPECT_EQ(host[255], 10);
  host[1] = 100;  // the next command sees host writes
  ASSERT_EQ(clEnqueueNDRangeKernel(queue_, k, 1, nullptr, &global, nullptr, 0, nullptr, nullptr), CL_SUCCESS);
  ASSERT_EQ(clFinish(queue_), CL_SUCCESS);
  EXPECT_EQ(host[1], 103);
  clReleaseMemObject(m);
}

TEST_F(Execution, ObjectsLiveUntilTheirLastReference) {
  cl_int err;
  cl_mem parent = clCreateBuffer(context_, CL_MEM_READ_WRITE, 1024, nullptr, &err);
  static std::vector<int> order;
  order.clear();
  ASSERT_EQ(clSetMemObjectDestructorCallback(parent, [](cl_mem, void*) { order.push_back(1); }, nullptr), CL_SUCCESS);
  ASSERT_EQ(clSetMemObjectDestructorCallback(parent, [](cl_mem, void*) { order.push_back(2); }, nullptr), CL_SUCCESS);
  cl_buffer_region r{256, 256};
  cl_mem sub = clCreateSubBuffer(parent, 0, CL_BUFFER_CREATE_TYPE_REGION, &r, &err);
  ASSERT_EQ(clReleaseMemObject(parent), CL_SUCCESS);
  EXPECT_TRUE(order.empty());  // the sub-buffer keeps its parent
  ASSERT_EQ(clReleaseMemObject(sub), CL_SUCCESS);
  EXPECT_EQ(order, (std::vector<int>{2, 1}));  // destructor callbacks run last-registered first

  cl_uint refs;
  ASSERT_EQ(clRetainContext(context_), CL_SUCCESS);
  ASSERT_EQ(clGetContextInfo(context_, CL_CONTEXT_REFERENCE_COUNT, sizeof refs, &refs, nullptr), CL_SUCCESS);
  EXPECT_GE(refs, 2u);
  ASSERT_EQ(clReleaseContext(context_), CL_SUCCESS);
}

}  // namespace
}  // namespace strobe::opencl_test
