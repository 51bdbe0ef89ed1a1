// Draw calls are recognised by name, as apitrace records them; a draw's vertex count is its
// `count` argument (indices for the Elements forms), times its instance count, summed over the
// draws of a multi-draw. The program a draw uses is the last glUseProgram's.
#include "gfx/stream/frame_scan.h"

#include <set>
#include <string_view>

#include <fmt/format.h>

#include "common/error.h"
#include "gfx/stream/call_reader.h"
#include "gfx/trace/apitrace_reader.h"

namespace strobe::gfx {
namespace {

bool starts(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

// The first of `names` the call recorded (apitrace's parameter names differ between entry points).
const trace::Value& need(const trace::Call& c, const std::string& path, std::initializer_list<const char*> names) {
  for (const char* n : names)
    if (const trace::Value* v = c.arg(n)) return *v;
  return CallReader{path}.arg(c, *names.begin());
}

uint64_t count_of(const trace::Value& v) {
  const int64_t n = v.integer();
  return n > 0 ? static_cast<uint64_t>(n) : 0;
}

}  // namespace

TraceCounts scan_frames(const std::string& path) {
  trace::ApitraceReader reader(path);
  TraceCounts out;
  FrameCounts frame;
  std::set<uint64_t> programs;
  uint64_t current = 0;
  bool frame_started = false;
  while (const trace::Call* c = reader.next()) {
    ++out.calls;
    if (!frame_started) {
      frame.first_call = c->number();
      frame_started = true;
    }
    std::string_view n = c->name();
    if (n == "glUseProgram" || n == "glUseProgramObjectARB") {
      current = static_cast<uint64_t>(need(*c, path, {"program", "programObj"}).integer());
    } else if (n == "glLinkProgram" || n == "glLinkProgramARB") {
      ++out.links;
    } else if (starts(n, "glMultiDraw") && !starts(n, "glMultiDrawArraysIndirect") &&
               !starts(n, "glMultiDrawElementsIndirect")) {
      const trace::Value& counts = need(*c, path, {"count"});
      for (const auto& e : counts.elements()) {
        ++frame.draws;
        frame.vertices += count_of(e);
      }
      programs.insert(current);
    } else if (starts(n, "glDrawArrays") || starts(n, "glDrawElements") || starts(n, "glDrawRangeElements")) {
      if (n.find("Indirect") != std::string_view::npos)
        throw NotImplementedError(fmt::format("{}: call {}: indirect draws ({})", path, c->number(), n));
      uint64_t instances = 1;
      if (n.find("Instanced") != std::string_view::npos)
        instances = count_of(need(*c, path, {"instancecount", "primcount"}));
      ++frame.draws;
      frame.vertices += count_of(need(*c, path, {"count"})) * instances;
      programs.insert(current);
    }
    if (c->ends_frame()) {
      frame.programs = static_cast<uint32_t>(programs.size());
      out.frames.push_back(frame);
      frame = FrameCounts{};
      programs.clear();
      frame_started = false;
    }
  }
  return out;
}

}  // namespace strobe::gfx
