// RADV 22.3 declares a GFX8 hardware VS's SGPRs as: ring offsets (2), [vertex buffers], base
// vertex, [draw id], [start instance], [one pointer per descriptor set used], then the system
// SGPR scratch offset; its VGPRs as vertex id, instance id, primitive id, unused. A PS gets ring
// offsets, [descriptor sets], then prim mask and scratch offset, and the enabled SPI_PS_INPUT_ENA
// inputs in hardware order. ACO's p_startpgm lists exactly these with their registers; the NIR
// tells which optional ones exist. (radv_shader_args.c, radv_declare_shader_args.)
#include "gfx/shader/abi.h"

#include <algorithm>
#include <regex>
#include <set>

#include <fmt/format.h>

#include "common/error.h"

namespace strobe::gfx {
namespace {

constexpr int kVaryingSlotVar0 = 32;  // Mesa's VARYING_SLOT_VAR0: generic varyings start here
constexpr int kVaryingSlotPos = 0;
constexpr int kVaryingSlotPsiz = 12;

struct StartArg {
  bool vector;
  int reg;
  int size;
};

// The p_startpgm line of ACO's IR: "s2: %83:s[0-1],  s1: (kill)%84:s[2], ... = p_startpgm".
std::vector<StartArg> start_args(const std::string& aco_ir, const std::string& shader) {
  auto p = aco_ir.find("= p_startpgm");
  if (p == std::string::npos)
    throw InputError(fmt::format("{}: RADV's ACO IR has no p_startpgm (is RADV using ACO?)", shader));
  auto line_start = aco_ir.rfind('\n', p);
  std::string line = aco_ir.substr(line_start == std::string::npos ? 0 : line_start + 1, p - line_start);
  static const std::regex item(R"(([sv])(\d+): (?:\([a-z]+\))*%\d+:([sv])\[(\d+)(?:-(\d+))?\])");
  std::vector<StartArg> out;
  for (std::sregex_iterator it(line.begin(), line.end(), item), end; it != end; ++it) {
    const auto& m = *it;
    StartArg a{m[3] == "v", std::stoi(m[4]), std::stoi(m[2])};
    int last = m[5].matched ? std::stoi(m[5]) : a.reg;
    if (last - a.reg + 1 != a.size)
      throw InputError(fmt::format("{}: p_startpgm argument {} has size {} but registers {}-{}", shader, m.str(),
                                   a.size, a.reg, last));
    out.push_back(a);
  }
  if (out.empty()) throw InputError(fmt::format("{}: p_startpgm lists no arguments", shader));
  return out;
}

// NIR's gl_vert_attrib: the generic attributes start at 15.
constexpr int kVertAttribGeneric0 = 15;

bool has_intrinsic(const std::string& nir, const std::string& name) {
  return nir.find("intrinsic " + name + " ") != std::string::npos;
}

// Distinct io locations of the given intrinsics, ascending.
std::set<int> io_locations(const std::string& nir, const std::vector<std::string>& intrinsics) {
  std::set<int> out;
  static const std::regex loc(R"(io location=(\d+))");
  size_t pos = 0;
  while (pos < nir.size()) {
    size_t eol = nir.find('\n', pos);
    if (eol == std::string::npos) eol = nir.size();
    std::string line = nir.substr(pos, eol - pos);
    pos = eol + 1;
    bool match = false;
    for (const auto& i : intrinsics) match = match || line.find("intrinsic " + i + " ") != std::string::npos;
    if (!match) continue;
    std::smatch m;
    if (std::regex_search(line, m, loc)) out.insert(std::stoi(m[1]));
  }
  return out;
}

// Which components of gl_FragCoord the NIR reads: "ssa_5 = intrinsic load_frag_coord" then
// "ssa_5.x", "ssa_5.xy", ... A use of the whole vector counts as all four.
std::set<char> frag_coord_components(const std::string& nir) {
  std::set<char> out;
  static const std::regex def(R"((ssa_\d+) = intrinsic load_frag_coord)");
  for (std::sregex_iterator it(nir.begin(), nir.end(), def), end; it != end; ++it) {
    std::string name = (*it)[1];
    std::regex use(name + R"((\.[xyzw]+)?\b)");
    size_t after = static_cast<size_t>(it->position() + it->length());
    std::string rest = nir.substr(after);
    for (std::sregex_iterator u(rest.begin(), rest.end(), use); u != end; ++u) {
      if ((*u)[1].matched) {
        for (char c : (*u)[1].str().substr(1)) out.insert(c);
      } else {
        out.insert({'x', 'y', 'z', 'w'});
      }
    }
  }
  return out;
}

[[noreturn]] void layout_mismatch(const std::string& shader, const std::vector<StartArg>& args, const std::string& why) {
  std::string list;
  for (const auto& a : args) list += fmt::format(" {}{}@{}", a.vector ? 'v' : 's', a.size, a.reg);
  throw InputError(fmt::format("{}: RADV's arguments ({} ) are not the layout strobe reads for Mesa 22.3 GFX8: {}",
                               shader, list, why));
}

std::vector<int> generic_locations(const std::set<int>& slots, const std::string& shader, bool outputs) {
  std::vector<int> out;
  for (int s : slots) {
    if (s >= kVaryingSlotVar0) {
      out.push_back(s - kVaryingSlotVar0);
    } else if (!(outputs && (s == kVaryingSlotPos || s == kVaryingSlotPsiz))) {
      throw NotImplementedError(fmt::format("{}: the built-in varying slot {} (only generic varyings, gl_Position "
                                            "and gl_PointSize are read)", shader, s));
    }
  }
  return out;
}

}  // namespace

const char* arg_kind_name(ArgKind kind) {
  switch (kind) {
    case ArgKind::RingOffsets: return "ring_offsets";
    case ArgKind::VertexBuffers: return "vertex_buffers";
    case ArgKind::BaseVertex: return "base_vertex";
    case ArgKind::DrawId: return "draw_id";
    case ArgKind::StartInstance: return "start_instance";
    case ArgKind::DescriptorSet: return "descriptor_set0";
    case ArgKind::PrimMask: return "prim_mask";
    case ArgKind::ScratchOffset: return "scratch_offset";
    case ArgKind::VertexId: return "vertex_id";
    case ArgKind::InstanceId: return "instance_id";
    case ArgKind::PrimitiveId: return "primitive_id";
    case ArgKind::Unused: return "unused";
    case ArgKind::PerspSample: return "persp_sample";
    case ArgKind::PerspCenter: return "persp_center";
    case ArgKind::PerspCentroid: return "persp_centroid";
    case ArgKind::PullModel: return "pull_model";
    case ArgKind::LinearSample: return "linear_sample";
    case ArgKind::LinearCenter: return "linear_center";
    case ArgKind::LinearCentroid: return "linear_centroid";
    case ArgKind::LineStipple: return "line_stipple";
    case ArgKind::PosX: return "pos_x";
    case ArgKind::PosY: return "pos_y";
    case ArgKind::PosZ: return "pos_z";
    case ArgKind::PosW: return "pos_w";
    case ArgKind::FrontFace: return "front_face";
    case ArgKind::Ancillary: return "ancillary";
    case ArgKind::SampleCoverage: return "sample_coverage";
    case ArgKind::PosFixedPoint: return "pos_fixed_pt";
  }
  return "?";
}

ShaderArgs read_vertex_args(const std::string& aco_ir, const std::string& nir, const std::string& shader) {
  auto raw = start_args(aco_ir, shader);
  if (has_intrinsic(nir, "load_view_index")) throw NotImplementedError(shader + ": multiview (view index)");
  std::vector<ArgKind> sgpr_kinds = {ArgKind::RingOffsets};
  if (has_intrinsic(nir, "load_input")) sgpr_kinds.push_back(ArgKind::VertexBuffers);
  sgpr_kinds.push_back(ArgKind::BaseVertex);
  if (has_intrinsic(nir, "load_draw_id")) sgpr_kinds.push_back(ArgKind::DrawId);
  if (has_intrinsic(nir, "load_base_instance")) sgpr_kinds.push_back(ArgKind::StartInstance);
  size_t sgprs = std::count_if(raw.begin(), raw.end(), [](const StartArg& a) { return !a.vector; });
  // The one optional SGPR the NIR does not name: the descriptor set, present when the code
  // reads uniforms or samplers.
  if (sgprs == sgpr_kinds.size() + 2) {
    sgpr_kinds.push_back(ArgKind::DescriptorSet);
  } else if (sgprs != sgpr_kinds.size() + 1) {
    layout_mismatch(shader, raw, fmt::format("{} SGPR arguments where {} or {} were expected", sgprs,
                                             sgpr_kinds.size() + 1, sgpr_kinds.size() + 2));
  }
  int user = static_cast<int>(sgpr_kinds.size());
  sgpr_kinds.push_back(ArgKind::ScratchOffset);
  const ArgKind vgpr_kinds[] = {ArgKind::VertexId, ArgKind::InstanceId, ArgKind::PrimitiveId, ArgKind::Unused};
  ShaderArgs out;
  size_t s = 0, v = 0;
  for (const auto& a : raw) {
    if (a.vector) {
      if (v >= 4 || a.size != 1) layout_mismatch(shader, raw, "VGPR arguments beyond vertex, instance and primitive id");
      out.args.push_back({vgpr_kinds[v++], true, a.reg, 1});
    } else {
      ArgKind k = sgpr_kinds[s++];
      if ((k == ArgKind::RingOffsets) != (a.size == 2)) layout_mismatch(shader, raw, "SGPR argument sizes differ");
      out.args.push_back({k, false, a.reg, a.size});
    }
  }
  // User SGPRs count registers: the ring offsets take two.
  out.user_sgprs = user + 1;
  out.param_locations = generic_locations(io_locations(nir, {"store_output"}), shader, true);
  // Vertex inputs are load_input at VERT_ATTRIB_GENERIC0 (15) + location.
  for (int location : io_locations(nir, {"load_input"})) {
    if (location < kVertAttribGeneric0)
      throw InputError(fmt::format("{}: a vertex input at NIR location {}, not a generic attribute", shader, location));
    out.vertex_inputs.push_back(location - kVertAttribGeneric0);
  }
  return out;
}

ShaderArgs read_fragment_args(const std::string& aco_ir, const std::string& nir, const std::string& shader) {
  auto raw = start_args(aco_ir, shader);
  std::vector<ArgKind> sgpr_kinds = {ArgKind::RingOffsets};
  size_t sgprs = std::count_if(raw.begin(), raw.end(), [](const StartArg& a) { return !a.vector; });
  if (sgprs == 4) {
    sgpr_kinds.push_back(ArgKind::DescriptorSet);
  } else if (sgprs != 3) {
    layout_mismatch(shader, raw, fmt::format("{} SGPR arguments where 3 or 4 were expected", sgprs));
  }
  int user = static_cast<int>(sgpr_kinds.size());
  sgpr_kinds.push_back(ArgKind::PrimMask);
  sgpr_kinds.push_back(ArgKind::ScratchOffset);

  // The enabled inputs in hardware order (SPI_PS_INPUT_ENA bit order): barycentric pairs first,
  // then single registers. Which barycentrics: NIR interp_mode 3 is noperspective.
  std::vector<ArgKind> pairs, singles;
  auto bary = [&](const char* intrinsic, ArgKind persp, ArgKind linear) {
    std::string needle = std::string("intrinsic ") + intrinsic + " () (interp_mode=";
    for (size_t p = nir.find(needle); p != std::string::npos; p = nir.find(needle, p + 1)) {
      ArgKind k = nir[p + needle.size()] == '3' ? linear : persp;
      if (std::find(pairs.begin(), pairs.end(), k) == pairs.end()) pairs.push_back(k);
    }
  };
  bary("load_barycentric_sample", ArgKind::PerspSample, ArgKind::LinearSample);
  bary("load_barycentric_pixel", ArgKind::PerspCenter, ArgKind::LinearCenter);
  bary("load_barycentric_centroid", ArgKind::PerspCentroid, ArgKind::LinearCentroid);
  if (has_intrinsic(nir, "load_barycentric_at_offset") || has_intrinsic(nir, "load_barycentric_at_sample") ||
      has_intrinsic(nir, "load_barycentric_model"))
    throw NotImplementedError(shader + ": interpolateAt* and pull-model barycentrics");
  std::sort(pairs.begin(), pairs.end());
  auto coords = frag_coord_components(nir);
  for (auto [c, k] : {std::pair{'x', ArgKind::PosX}, {'y', ArgKind::PosY}, {'z', ArgKind::PosZ}, {'w', ArgKind::PosW}})
    if (coords.count(c)) singles.push_back(k);
  if (has_intrinsic(nir, "load_front_face")) singles.push_back(ArgKind::FrontFace);
  if (has_intrinsic(nir, "load_sample_id") || has_intrinsic(nir, "load_sample_pos"))
    throw NotImplementedError(shader + ": per-sample shading (gl_SampleID)");
  if (has_intrinsic(nir, "load_sample_mask_in")) singles.push_back(ArgKind::SampleCoverage);

  ShaderArgs out;
  size_t s = 0, p = 0, q = 0;
  for (const auto& a : raw) {
    if (!a.vector) {
      if (s >= sgpr_kinds.size()) layout_mismatch(shader, raw, "too many SGPR arguments");
      out.args.push_back({sgpr_kinds[s++], false, a.reg, a.size});
    } else if (a.size == 2) {
      // The hardware needs one barycentric pair enabled; RADV enables the centre when none is read.
      out.args.push_back({p < pairs.size() ? pairs[p] : ArgKind::PerspCenter, true, a.reg, 2});
      ++p;
    } else if (a.size == 1) {
      if (q >= singles.size()) layout_mismatch(shader, raw, "more single-register inputs than the NIR reads");
      out.args.push_back({singles[q++], true, a.reg, 1});
    } else {
      layout_mismatch(shader, raw, fmt::format("a {}-register input", a.size));
    }
  }
  if (p < pairs.size() || q < singles.size())
    layout_mismatch(shader, raw, "the NIR reads inputs p_startpgm does not list");
  out.user_sgprs = user + 1;
  out.param_locations =
      generic_locations(io_locations(nir, {"load_interpolated_input", "load_input"}), shader, false);
  return out;
}

}  // namespace strobe::gfx
