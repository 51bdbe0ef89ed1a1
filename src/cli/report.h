// The run report every command emits: DESIGN.md §5 JSON (runtime/run_report.h, shared with the
// OpenCL platform), or a short human summary.
#pragma once

#include <string>

#include "runtime/run_report.h"

namespace strobe::cli {

using runtime::attach_timing;
using runtime::LaunchRecord;
using runtime::RunReport;
using runtime::to_json;

/// Writes the report: JSON to `json_target` ("-" = stdout, a path = atomic file write), and a
/// human summary on stdout unless the JSON went there.
void emit_report(const RunReport& r, const std::string& json_target);

}  // namespace strobe::cli
