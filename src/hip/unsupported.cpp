// The rest of the HSAKMT_1 interface: entry points strobe's thunk does not provide (GWS, SVM,
// IPC and graphics sharing, the debugger, performance counters, SPM). Each ends the process with
// "not implemented: hsaKmt...": returning an error could leave ROCr waiting on something that
// never happens. hsakmt.h is not included: the signatures do not matter to a function that
// never returns.
#include <string>

namespace strobe::hip {
[[noreturn]] void not_implemented(const char* function, const std::string& why);
}  // namespace strobe::hip

#define STROBE_UNSUPPORTED(name, what) \
  extern "C" __attribute__((visibility("default"))) int name() { strobe::hip::not_implemented(#name, what); }

STROBE_UNSUPPORTED(hsaKmtAllocQueueGWS, "global wave sync (cooperative launches)")
STROBE_UNSUPPORTED(hsaKmtRegisterGraphicsHandleToNodes, "graphics interop")
STROBE_UNSUPPORTED(hsaKmtRegisterSharedHandle, "inter-process memory sharing")
STROBE_UNSUPPORTED(hsaKmtRegisterSharedHandleToNodes, "inter-process memory sharing")
STROBE_UNSUPPORTED(hsaKmtShareMemory, "inter-process memory sharing")
STROBE_UNSUPPORTED(hsaKmtSVMGetAttr, "shared virtual memory attributes")
STROBE_UNSUPPORTED(hsaKmtSVMSetAttr, "shared virtual memory attributes")
STROBE_UNSUPPORTED(hsaKmtResetEvent, "not provided by strobe's thunk")
STROBE_UNSUPPORTED(hsaKmtQueryEventState, "not provided by strobe's thunk")
STROBE_UNSUPPORTED(hsaKmtReportQueue, "not provided by strobe's thunk")
STROBE_UNSUPPORTED(hsaKmtGetQueueInfo, "not provided by strobe's thunk")
STROBE_UNSUPPORTED(hsaKmtRegisterMemory, "not provided by strobe's thunk")
STROBE_UNSUPPORTED(hsaKmtRegisterMemoryToNodes, "not provided by strobe's thunk")
STROBE_UNSUPPORTED(hsaKmtProcessVMRead, "cross-process memory access")
STROBE_UNSUPPORTED(hsaKmtProcessVMWrite, "cross-process memory access")
STROBE_UNSUPPORTED(hsaKmtMapGraphicHandle, "graphics interop")
STROBE_UNSUPPORTED(hsaKmtUnmapGraphicHandle, "graphics interop")
STROBE_UNSUPPORTED(hsaKmtDbgRegister, "the GPU debugger interface")
STROBE_UNSUPPORTED(hsaKmtDbgUnregister, "the GPU debugger interface")
STROBE_UNSUPPORTED(hsaKmtDbgWavefrontControl, "the GPU debugger interface")
STROBE_UNSUPPORTED(hsaKmtDbgAddressWatch, "the GPU debugger interface")
STROBE_UNSUPPORTED(hsaKmtGetKernelDebugTrapVersionInfo, "the GPU debugger interface")
STROBE_UNSUPPORTED(hsaKmtPmcGetCounterProperties, "hardware performance counters (strobe reports its own counters)")
STROBE_UNSUPPORTED(hsaKmtPmcRegisterTrace, "hardware performance counters (strobe reports its own counters)")
STROBE_UNSUPPORTED(hsaKmtPmcUnregisterTrace, "hardware performance counters (strobe reports its own counters)")
STROBE_UNSUPPORTED(hsaKmtPmcAcquireTraceAccess, "hardware performance counters (strobe reports its own counters)")
STROBE_UNSUPPORTED(hsaKmtPmcReleaseTraceAccess, "hardware performance counters (strobe reports its own counters)")
STROBE_UNSUPPORTED(hsaKmtPmcStartTrace, "hardware performance counters (strobe reports its own counters)")
STROBE_UNSUPPORTED(hsaKmtPmcQueryTrace, "hardware performance counters (strobe reports its own counters)")
STROBE_UNSUPPORTED(hsaKmtPmcStopTrace, "hardware performance counters (strobe reports its own counters)")
STROBE_UNSUPPORTED(hsaKmtSPMAcquire, "streaming performance monitors")
STROBE_UNSUPPORTED(hsaKmtSPMRelease, "streaming performance monitors")
STROBE_UNSUPPORTED(hsaKmtSPMSetDestBuffer, "streaming performance monitors")
