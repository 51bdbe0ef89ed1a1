// `strobe shader`: a GL program's two GLSL stages compiled to gfx803 graphics code the way a
// graphics workload's shaders are, shown with the launch state strobe reads back from RADV.
#include <map>
#include <string>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "cli/commands.h"
#include "common/atomic_file.h"
#include "common/error.h"
#include "gfx/shader/radv.h"
#include "gfx/stream/gl_programs.h"
#include "isa/decoder.h"
#include "isa/disassembler.h"

namespace strobe::cli {
namespace {

struct ShaderOptions {
  std::string trace;
  std::string vertex;
  std::string fragment;
  std::vector<std::string> attributes;  // NAME=LOCATION
  bool listing = true;
};

std::string describe(const char* stage, const gfx::CompiledShader& s) {
  std::string out = fmt::format("{} shader: {} words, {} SGPRs, {} VGPRs, {} B scratch per lane, {} user SGPRs\n", stage,
                                s.code.size(), s.sgprs, s.vgprs, s.scratch_bytes, s.args.user_sgprs);
  for (const auto& a : s.args.args)
    out += fmt::format("  {}[{}:{}]  {}\n", a.vector ? 'v' : 's', a.reg, a.reg + a.size - 1, gfx::arg_kind_name(a.kind));
  std::string slots;
  for (int l : s.args.param_locations) slots += fmt::format(" {}", l);
  out += fmt::format("  varying slots ({}):{}\n", stage[0] == 'v' ? "exp paramN writes" : "attrN reads",
                     slots.empty() ? " none" : slots);
  return out;
}

std::string listing(const gfx::CompiledShader& s) {
  std::string out;
  for (size_t pos = 0; pos < s.code.size();) {
    std::span<const uint32_t> rest(s.code.data() + pos, s.code.size() - pos);
    auto inst = isa::decode(rest);
    out += isa::format_line(inst, rest.first(inst.size / 4), pos * 4) + "\n";
    pos += inst.size / 4;
  }
  return out;
}

// Every program the trace links, compiled; one line each. A program strobe cannot compile is
// reported with its reason and counted; the exit status is 1 when any failed.
int run_trace(const ShaderOptions& o) {
  auto programs = gfx::linked_programs(o.trace);
  std::map<std::string, int> seen;  // identical programs are compiled once
  int failed = 0, compiled = 0;
  std::string out = fmt::format("{}: {} glLinkProgram calls\n", o.trace, programs.size());
  out += fmt::format("{:>9} {:>7} {:>8} {:>8} {:>8} {:>8}  {}\n", "call", "program", "VS words", "VS VGPRs", "PS words",
                     "PS VGPRs", "");
  for (const auto& p : programs) {
    std::string key = p.vertex + '\0' + p.fragment;
    for (const auto& [a, l] : p.attribute_locations) key += fmt::format("\0{}={}", a, l);
    if (seen.count(key)) continue;
    seen[key] = 1;
    std::string name = fmt::format("{} program {} (call {})", o.trace, p.id, p.link_call);
    try {
      auto pipe = gfx::compile_pipeline(gfx::compile_to_spirv(p.vertex, p.fragment, p.attribute_locations, name),
                                        gfx::PipelineKey{}, name);
      out += fmt::format("{:>9} {:>7} {:>8} {:>8} {:>8} {:>8}\n", p.link_call, p.id, pipe.vertex.code.size(),
                         pipe.vertex.vgprs, pipe.fragment.code.size(), pipe.fragment.vgprs);
      ++compiled;
    } catch (const Error& e) {
      out += fmt::format("{:>9} {:>7}  failed: {}\n", p.link_call, p.id, e.what());
      ++failed;
    }
  }
  out += fmt::format("{} distinct programs: {} compiled, {} failed\n", compiled + failed, compiled, failed);
  std::fputs(out.c_str(), stdout);
  return failed ? 1 : 0;
}

int run_shader(const ShaderOptions& o) {
  if (!o.trace.empty()) {
    if (!o.vertex.empty() || !o.fragment.empty())
      throw InputError("strobe shader: give either --trace TRACE or the VERTEX and FRAGMENT files, not both");
    return run_trace(o);
  }
  if (o.vertex.empty() || o.fragment.empty())
    throw InputError("strobe shader: give the VERTEX and FRAGMENT shader files (or --trace TRACE)");
  std::map<std::string, int> bound;
  for (const auto& a : o.attributes) {
    auto eq = a.find('=');
    int loc = -1;
    if (eq != std::string::npos) loc = std::atoi(a.c_str() + eq + 1);
    if (eq == std::string::npos || eq == 0 || loc < 0 || a.find_first_not_of("0123456789", eq + 1) != std::string::npos)
      throw InputError(fmt::format("--attribute '{}': expected NAME=LOCATION with LOCATION a non-negative integer", a));
    bound[a.substr(0, eq)] = loc;
  }
  std::string name = o.vertex + " + " + o.fragment;
  auto spirv = gfx::compile_to_spirv(read_file(o.vertex), read_file(o.fragment), bound, name);
  auto pipeline = gfx::compile_pipeline(spirv, gfx::PipelineKey{}, name);
  std::string out = fmt::format("{} on {}\n", name, gfx::radv_device_name());
  for (const auto& [attr, loc] : spirv.slots.attributes) out += fmt::format("attribute {} at location {}\n", attr, loc);
  for (const auto& [sampler, binding] : spirv.slots.samplers)
    out += fmt::format("sampler {} at set 0, binding {}\n", sampler, binding);
  out += fmt::format("default uniform block: set 0, binding {}, {} bytes\n", gfx::kDefaultUniformBinding,
                     spirv.uniform_block_bytes);
  for (const auto& u : spirv.uniforms)
    out += fmt::format("  {} at {}{}\n", u.name, u.offset,
                       u.array_size > 1 ? fmt::format(" ({} x stride {})", u.array_size, u.array_stride) : "");
  out += describe("vertex", pipeline.vertex);
  if (o.listing) out += listing(pipeline.vertex);
  out += describe("pixel", pipeline.fragment);
  if (o.listing) out += listing(pipeline.fragment);
  std::fputs(out.c_str(), stdout);
  return 0;
}

}  // namespace

void add_shader_command(CLI::App& app, Action& action) {
  auto opts = std::make_shared<ShaderOptions>();
  auto* cmd = app.add_subcommand(
      "shader", "Compile a GL program's vertex and fragment GLSL to gfx803 graphics shaders (RADV, GPU-less Fiji)");
  cmd->add_option("vertex", opts->vertex, "Vertex shader source, as the program gives it to glShaderSource");
  cmd->add_option("fragment", opts->fragment, "Fragment shader source");
  cmd->add_option("--trace", opts->trace, "An apitrace capture: compile every program it links, one line each");
  cmd->add_option("--attribute", opts->attributes, "NAME=LOCATION: an attribute location the program binds");
  cmd->add_flag("!--no-listing", opts->listing, "Print only the launch state, not the instructions");
  cmd->callback([opts, &action] { action = [opts] { return run_shader(*opts); }; });
}

}  // namespace strobe::cli
