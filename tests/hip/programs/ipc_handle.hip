// Asks for an inter-process memory handle, which needs a thunk service strobe does not
// provide: the run must stop with "not implemented: hsaKmtShareMemory", not hang.
#include "check.h"

int main() {
  void* d;
  CHECK(hipMalloc(&d, 4096));
  hipIpcMemHandle_t handle;
  CHECK(hipIpcGetMemHandle(&handle, d));
  std::printf("PASS (the handle was created)\n");
  return 0;
}
