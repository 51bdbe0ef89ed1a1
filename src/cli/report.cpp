// Where reports go (see report.h); their content comes from src/report.
#include "cli/report.h"

#include <fstream>

#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include "common/atomic_file.h"
#include "experiment/program_env.h"
#include "report/json.h"
#include "report/text.h"

namespace strobe::cli {

void emit_report(const report::RunReport& r, const std::string& json_target) {
  if (json_target == "-") {
    fmt::print("{}\n", report::to_json(r).dump(2));
    return;
  }
  if (!json_target.empty()) write_file_atomic(json_target, report::to_json(r).dump(2) + "\n");
  fmt::print("{}", report::run_text(r));
}

bool summarize_program_report(const std::string& program, const std::string& mode, const std::string& json_path,
                              const std::string& shown_path) {
  std::ifstream in(json_path);
  if (!in) {
    fmt::print(stderr, "strobe: {}\n", experiment::missing_report_error(program, json_path));
    return false;
  }
  nlohmann::json j = nlohmann::json::parse(in, nullptr, false);
  if (j.is_discarded()) {
    fmt::print(stderr, "strobe: the report {} is not valid JSON\n", json_path);
    return false;
  }
  const size_t launches = j.value("kernels", nlohmann::json::array()).size();
  std::string line = fmt::format("strobe: {}: {} mode, {} kernel launch{}, {} wave instructions", j.value("benchmark", ""),
                                 mode, launches, launches == 1 ? "" : "es", j.value("wave_instructions", uint64_t{0}));
  if (j.contains("cycles"))
    line += fmt::format(", {} cycles ({:.6f} ms simulated)", j["cycles"].get<uint64_t>(), j["sim_seconds"].get<double>() * 1e3);
  if (const auto h = j.value("host", nlohmann::json::object()); h.contains("span_seconds"))
    line += fmt::format("; the whole program {:.6f} ms simulated, host-link copies {:.6f} ms",
                        h["span_seconds"].get<double>() * 1e3,
                        (h.value("to_device", nlohmann::json::object()).value("busy_seconds", 0.0) +
                         h.value("to_host", nlohmann::json::object()).value("busy_seconds", 0.0)) * 1e3);
  if (!shown_path.empty()) line += "; report: " + shown_path;
  fmt::print(stderr, "{}\n", line);
  return true;
}

void write_output(const std::string& where, const std::string& content) {
  if (where == "-")
    fmt::print("{}", content);
  else
    write_file_atomic(where, content);
}

}  // namespace strobe::cli
