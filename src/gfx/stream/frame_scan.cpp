// Draw calls are recognised by the GL call table (gl_calls.h), as the renderer recognises them: a
// draw is one the renderer draws, and its vertex count is its `count` argument (indices for the
// Elements forms). Multi-draws, instanced and indirect draws, which the renderer refuses, are
// counted apart. The program a draw uses is the last glUseProgram's.
#include "gfx/stream/frame_scan.h"

#include <set>
#include <string_view>

#include <fmt/format.h>

#include "common/error.h"
#include "gfx/stream/call_reader.h"
#include "gfx/stream/gl_calls.h"
#include "gfx/trace/apitrace_reader.h"

namespace strobe::gfx {
namespace {

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
    } else if (const GlCallKind k = gl_call_kind(n); k == GlCallKind::Draw) {
      ++frame.draws;
      frame.vertices += count_of(need(*c, path, {"count"}));
      programs.insert(current);
    } else if (k == GlCallKind::UnsupportedDraw) {
      ++frame.unsupported_draws;
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
