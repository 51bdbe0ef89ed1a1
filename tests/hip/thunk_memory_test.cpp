// The thunk's memory registry called directly, as ROCr and HIP call it: libhsakmt.so.1 is
// loaded into a child process (the thunk ends the process on a request it cannot honour, so
// each test runs as a death test that must exit 0).
#include <dlfcn.h>
#include <hsakmt.h>

#include <gtest/gtest.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <thread>
#include <vector>

namespace {

struct Thunk {
  decltype(&hsaKmtRegisterMemoryWithFlags) reg = nullptr;
  decltype(&hsaKmtDeregisterMemory) dereg = nullptr;
  decltype(&hsaKmtQueryPointerInfo) query = nullptr;
};

/// Prints `why` and ends the child with a failure, which the death test reports.
[[noreturn]] void fail(const char* why) {
  std::fprintf(stderr, "%s\n", why);
  std::_Exit(3);
}

/// The build's thunk, loaded on its own (its symbols are not the system's libhsakmt).
Thunk load_thunk() {
  void* lib = ::dlopen(STROBE_BUILD_DIR "/hsakmt/libhsakmt.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!lib) fail(::dlerror());
  Thunk t;
  t.reg = reinterpret_cast<decltype(t.reg)>(::dlsym(lib, "hsaKmtRegisterMemoryWithFlags"));
  t.dereg = reinterpret_cast<decltype(t.dereg)>(::dlsym(lib, "hsaKmtDeregisterMemory"));
  t.query = reinterpret_cast<decltype(t.query)>(::dlsym(lib, "hsaKmtQueryPointerInfo"));
  if (!t.reg || !t.dereg || !t.query) fail("the thunk lacks a memory entry point");
  return t;
}

HSAuint32 pointer_type(const Thunk& t, void* p) {
  HsaPointerInfo info{};
  if (t.query(p, &info) != HSAKMT_STATUS_SUCCESS) fail("hsaKmtQueryPointerInfo failed");
  return info.Type;
}

class HipThunkMemory : public ::testing::Test {
 protected:
  // The thunk starts threads of its own; the child re-executes the test binary rather than
  // forking it.
  void SetUp() override { GTEST_FLAG_SET(death_test_style, "threadsafe"); }
};

// HIP's runtime frees a page it registered without deregistering it; when malloc hands the
// same page out again, the runtime registers it again. The thunk used to map the range for
// the device a second time and stop the program with "hsaKmtRegisterMemoryWithFlags: device
// memory: 4096 bytes at 0x... (registered host memory) overlap a range already mapped".
TEST_F(HipThunkMemory, RegisteringAPageStillRegisteredCountsInsteadOfOverlappingARangeAlreadyMapped) {
  EXPECT_EXIT(
      {
        const Thunk t = load_thunk();
        void* page = std::aligned_alloc(4096, 4096);
        HsaMemFlags flags{};
        if (t.reg(page, 4096, flags) != HSAKMT_STATUS_SUCCESS) fail("first registration failed");
        if (t.reg(page, 4096, flags) != HSAKMT_STATUS_SUCCESS) fail("second registration failed");
        if (t.dereg(page) != HSAKMT_STATUS_SUCCESS) fail("first deregistration failed");
        if (pointer_type(t, page) != HSA_POINTER_REGISTERED_USER) fail("gone after one of two deregistrations");
        if (t.dereg(page) != HSAKMT_STATUS_SUCCESS) fail("second deregistration failed");
        if (pointer_type(t, page) != HSA_POINTER_UNKNOWN) fail("still registered after both deregistrations");
        if (t.dereg(page) != HSAKMT_STATUS_INVALID_PARAMETER) fail("a third deregistration succeeded");
        // Unmapped for the device too: registering it again maps it afresh.
        if (t.reg(page, 4096, flags) != HSAKMT_STATUS_SUCCESS) fail("registration after deregistration failed");
        std::exit(0);
      },
      ::testing::ExitedWithCode(0), "");
}

// ROCr and HIP call the thunk from several threads. Deregistration took the range out of the
// registry under one lock and unmapped it from the device later under another, so a
// registration of the same range in between found it unregistered yet still mapped (the same
// "overlap a range already mapped" stop). Two threads registering and deregistering one range
// over and over must never see that.
TEST_F(HipThunkMemory, ConcurrentRegisterAndDeregisterOfOneRangeNeverOverlapARangeAlreadyMapped) {
  EXPECT_EXIT(
      {
        const Thunk t = load_thunk();
        void* page = std::aligned_alloc(4096, 2 * 4096);
        std::atomic<bool> ok{true};
        auto hammer = [&] {
          HsaMemFlags flags{};
          for (int i = 0; i < 20000 && ok; ++i)
            if (t.reg(page, 2 * 4096, flags) != HSAKMT_STATUS_SUCCESS || t.dereg(page) != HSAKMT_STATUS_SUCCESS)
              ok = false;
        };
        std::vector<std::thread> threads;
        for (int i = 0; i < 3; ++i) threads.emplace_back(hammer);
        for (auto& th : threads) th.join();
        if (!ok) fail("a registration or deregistration failed");
        if (pointer_type(t, page) != HSA_POINTER_UNKNOWN) fail("still registered after every deregistration");
        std::exit(0);
      },
      ::testing::ExitedWithCode(0), "");
}

}  // namespace
