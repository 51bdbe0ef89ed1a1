// Where a run's report goes: its JSON (report/json.h) to a file or stdout, and the text view
// (report/text.h) on stdout unless the JSON went there.
#pragma once

#include <string>

#include "report/run_report.h"

namespace strobe::cli {

/// Writes the report: JSON to `json_target` ("-" = stdout, a path = atomic file write), and a
/// human summary on stdout unless the JSON went there.
void emit_report(const report::RunReport& r, const std::string& json_target);

/// One line on stderr about the report an OpenCL or HIP program wrote to `json_path` (naming
/// `shown_path` when not empty), or why there is none; false when there is none.
bool summarize_program_report(const std::string& program, const std::string& mode, const std::string& json_path,
                              const std::string& shown_path);

/// Writes `content` to `where`: "-" for stdout, else a file replaced atomically.
void write_output(const std::string& where, const std::string& content);

}  // namespace strobe::cli
