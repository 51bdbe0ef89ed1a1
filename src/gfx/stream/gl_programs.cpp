// Shader and program objects are tracked by name as the GL defines them: a shader's source is
// its last glShaderSource, a program links whatever is attached at glLinkProgram, and names are
// reused after deletion (a new glCreateShader starts a fresh object).
#include "gfx/stream/gl_programs.h"

#include <fmt/format.h>

#include "common/error.h"
#include "gfx/stream/call_reader.h"
#include "gfx/stream/gl_calls.h"
#include "gfx/trace/apitrace_reader.h"

namespace strobe::gfx {
namespace {

constexpr int64_t kGlFragmentShader = 0x8B30;
constexpr int64_t kGlVertexShader = 0x8B31;

struct Shader {
  int64_t type = 0;
  std::string source;
};

struct Program {
  std::vector<uint64_t> attached;
  std::map<std::string, int> bound;
};

}  // namespace

struct ProgramTracker::Impl : CallReader {
  explicit Impl(const std::string& p) : CallReader{p} {}
  void on(const trace::Call& c, std::vector<GlProgram>& out);

  std::map<uint64_t, Shader> shaders_;
  std::map<uint64_t, Program> programs_;
};

void ProgramTracker::Impl::on(const trace::Call& c, std::vector<GlProgram>& out) {
  // The call table says which calls are this tracker's (gl_calls.h).
  if (gl_call_kind(c.name()) != GlCallKind::Program) return;
  std::string_view n = c.name();
  if (n == "glCreateShader" || n == "glCreateShaderObjectARB") {
    shaders_[ret(c)] = Shader{arg(c, n == "glCreateShader" ? "type" : "shaderType").integer(), {}};
  } else if (n == "glShaderSource" || n == "glShaderSourceARB") {
    auto it = shaders_.find(static_cast<uint64_t>(arg(c, n == "glShaderSource" ? "shader" : "shaderObj").integer()));
    if (it == shaders_.end()) fail(c, "source for a shader the trace never created");
    std::string text;
    const trace::Value& strings = arg(c, "string");
    if (strings.kind() == trace::ValueKind::String) {
      text = strings.string();
    } else {
      for (const auto& s : strings.elements()) text += s.string();
    }
    it->second.source = std::move(text);
  } else if (n == "glCreateProgram" || n == "glCreateProgramObjectARB") {
    programs_[ret(c)] = Program{};
  } else if (n == "glAttachShader" || n == "glAttachObjectARB") {
    const char* p = n == "glAttachShader" ? "program" : "containerObj";
    const char* s = n == "glAttachShader" ? "shader" : "obj";
    programs_[static_cast<uint64_t>(arg(c, p).integer())].attached.push_back(static_cast<uint64_t>(arg(c, s).integer()));
  } else if (n == "glDetachShader" || n == "glDetachObjectARB") {
    const char* p = n == "glDetachShader" ? "program" : "containerObj";
    const char* s = n == "glDetachShader" ? "shader" : "attachedObj";
    auto& a = programs_[static_cast<uint64_t>(arg(c, p).integer())].attached;
    std::erase(a, static_cast<uint64_t>(arg(c, s).integer()));
  } else if (n == "glBindAttribLocation" || n == "glBindAttribLocationARB") {
    const char* p = n == "glBindAttribLocation" ? "program" : "programObj";
    programs_[static_cast<uint64_t>(arg(c, p).integer())].bound[std::string(arg(c, "name").string())] =
        static_cast<int>(arg(c, "index").integer());
  } else if (n == "glProgramBinary" || n == "glProgramParameteri" || n == "glCreateShaderProgramv") {
    throw NotImplementedError(fmt::format("{}: call {} ({}): binary and separable programs", path, c.number(), n));
  } else if (n == "glLinkProgram" || n == "glLinkProgramARB") {
    const char* p = n == "glLinkProgram" ? "program" : "programObj";
    uint64_t id = static_cast<uint64_t>(arg(c, p).integer());
    auto& prog = programs_[id];
    GlProgram linked;
    linked.id = id;
    linked.link_call = c.number();
    linked.attribute_locations = prog.bound;
    int vs = 0, fs = 0;
    for (uint64_t s : prog.attached) {
      auto it = shaders_.find(s);
      if (it == shaders_.end()) fail(c, fmt::format("program {} has shader {} attached, which was never created", id, s));
      if (it->second.type == kGlVertexShader) {
        linked.vertex = it->second.source;
        ++vs;
      } else if (it->second.type == kGlFragmentShader) {
        linked.fragment = it->second.source;
        ++fs;
      } else {
        throw NotImplementedError(fmt::format("{}: call {}: program {} has a shader of type 0x{:X} (only vertex and "
                                              "fragment shaders are read)", path, c.number(), id, it->second.type));
      }
    }
    if (vs != 1 || fs != 1)
      throw NotImplementedError(fmt::format("{}: call {}: program {} links {} vertex and {} fragment shaders (one of "
                                            "each is read)", path, c.number(), id, vs, fs));
    out.push_back(std::move(linked));
  }
}

ProgramTracker::ProgramTracker(std::string path) : impl_(std::make_unique<Impl>(path)) {}
ProgramTracker::~ProgramTracker() = default;
ProgramTracker::ProgramTracker(ProgramTracker&&) noexcept = default;
ProgramTracker& ProgramTracker::operator=(ProgramTracker&&) noexcept = default;

std::optional<GlProgram> ProgramTracker::apply(const trace::Call& c) {
  std::vector<GlProgram> linked;
  impl_->on(c, linked);
  if (linked.empty()) return std::nullopt;
  return std::move(linked.front());
}

std::vector<GlProgram> linked_programs(const std::string& path) {
  trace::ApitraceReader reader(path);
  ProgramTracker tracker(path);
  std::vector<GlProgram> out;
  while (const trace::Call* c = reader.next()) {
    if (c->incomplete()) continue;
    if (auto p = tracker.apply(*c)) out.push_back(std::move(*p));
  }
  return out;
}

}  // namespace strobe::gfx
