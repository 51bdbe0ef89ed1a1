// Vertex formats follow the GL's array types onto Vulkan's formats, whose fetch the compiled code
// then performs with typed buffer loads; the descriptors give strides and offsets at draw time.
#include "gfx/pipeline/pipeline_cache.h"

#include <fmt/format.h>

#include "common/error.h"
#include "gfx/pipeline/shader_wave.h"

namespace strobe::gfx {
namespace {

constexpr uint32_t kByte = 0x1400, kUnsignedByte = 0x1401, kShort = 0x1402, kUnsignedShort = 0x1403, kFloat = 0x1406;

// VkFormats by component count 1-4 from the one-component format: each family of seven (UNORM,
// SNORM, USCALED, SSCALED, UINT, SINT, then SRGB or SFLOAT) steps by 7 per added component, but
// the 8-bit formats have a B8G8R8 family between R8G8B8 and R8G8B8A8 (R8G8B8A8_UNORM = 37, not 30).
uint32_t family(uint32_t one_component, int size, bool eight_bit) {
  return one_component + 7u * uint32_t(size - 1) + (eight_bit && size == 4 ? 7u : 0u);
}

// Decodes a stage and checks that strobe's decoder splits the words into the instructions RADV's
// listing shows, one per line: a disagreement would otherwise surface later as a branch into the
// middle of an instruction.
isa::Program decode_checked(const CompiledShader& s, const std::string& name) {
  isa::Program p = decode_shader(s);
  const auto listing = listing_instructions(s.assembly, name);
  uint32_t offset = 0;
  for (size_t k = 0; k < listing.size(); ++k) {
    if (k >= p.offsets.size() || p.offsets[k] != offset)
      throw Error(ExitCode::Failure, fmt::format("{}: strobe's decoder disagrees with RADV's listing at byte {} ('{}')",
                                                 name, offset, listing[k].text));
    offset += 4 * uint32_t(listing[k].words.size());
  }
  if (listing.size() != p.insts.size())
    throw Error(ExitCode::Failure, fmt::format("{}: RADV's listing has {} instructions, strobe decoded {}", name,
                                               listing.size(), p.insts.size()));
  return p;
}

}  // namespace

uint32_t vertex_format(const GlAttrib& a) {
  if (a.size < 1 || a.size > 4) throw InputError(fmt::format("a vertex array of {} components (1 to 4)", a.size));
  switch (a.type) {
    case kFloat: return 100u + 3u * uint32_t(a.size - 1);  // R32_SFLOAT = 100, R32G32 = 103, ...
    case kUnsignedByte: return family(a.normalized ? 9 : 11, a.size, true);
    case kByte: return family(a.normalized ? 10 : 12, a.size, true);
    case kUnsignedShort: return family(a.normalized ? 70 : 72, a.size, false);
    case kShort: return family(a.normalized ? 71 : 73, a.size, false);
    default: throw NotImplementedError(fmt::format("vertex arrays of GL type 0x{:X}", a.type));
  }
}

ProgramEntry& PipelineCache::program(const std::shared_ptr<const GlProgram>& p) {
  auto it = programs_.find(p.get());
  if (it != programs_.end()) return it->second.second;
  ProgramEntry e;
  e.name = fmt::format("program {} (linked at call {})", p->id, p->link_call);
  e.spirv = compile_to_spirv(p->vertex, p->fragment, p->attribute_locations, e.name);
  return programs_.emplace(p.get(), std::pair{p, std::move(e)}).first->second.second;
}

const ReadyPipeline& PipelineCache::get(const std::shared_ptr<const GlProgram>& p, const GlDraw& draw) {
  ProgramEntry& e = program(p);
  PipelineKey key;
  for (const auto& [name, location] : e.spirv.slots.attributes) {
    auto a = draw.attribs.find(location);
    if (a != draw.attribs.end() && a->second.enabled) key.attribute_formats[location] = vertex_format(a->second);
  }
  auto& slot = e.pipelines[key.attribute_formats];
  if (slot) return *slot;
  auto r = std::make_unique<ReadyPipeline>();
  r->code = compile_pipeline(e.spirv, key, e.name);
  r->vertex = decode_checked(r->code.vertex, e.name + " (vertex)");
  r->fragment = decode_checked(r->code.fragment, e.name + " (fragment)");
  const auto& vs_locations = r->code.vertex.args.param_locations;
  for (int location : r->code.fragment.args.param_locations) {
    int found = -1;
    for (size_t m = 0; m < vs_locations.size(); ++m)
      if (vs_locations[m] == location) found = int(m);
    r->vs_param.push_back(found);
  }
  // ACO lowers discard to a demote or terminate; a depth export is "exp mrtz".
  const std::string& nir = r->code.fragment.nir;
  r->late_z = nir.find("discard") != std::string::npos || nir.find("demote") != std::string::npos ||
              nir.find("terminate") != std::string::npos || r->code.fragment.assembly.find("mrtz") != std::string::npos;
  ++compiled_;
  slot = std::move(r);
  return *slot;
}

}  // namespace strobe::gfx
