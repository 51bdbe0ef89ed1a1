// glslang is used twice per stage: once as a GL compiler that only preprocesses (so the dialect
// step sees no macros or comments), once as a Vulkan compiler with the relaxed rules that gather
// loose uniforms into one default block. Both stages are linked in one program so that block has
// one layout, the one both stages read.
#include "gfx/shader/spirv.h"

#include <memory>
#include <mutex>

#include <fmt/format.h>
#include <glslang/Public/ResourceLimits.h>
#include <glslang/Public/ShaderLang.h>
#include <glslang/SPIRV/GlslangToSpv.h>

#include "common/error.h"

namespace strobe::gfx {
namespace {

constexpr int kGlSamplerFirst = 0x8B5D;  // GL_SAMPLER_1D
constexpr int kGlSamplerLast = 0x8B64;   // GL_SAMPLER_2D_SHADOW... GL_SAMPLER_2D_RECT_SHADOW

void init_glslang() {
  static std::once_flag once;
  std::call_once(once, [] { glslang::InitializeProcess(); });
}

const char* stage_name(EShLanguage stage) { return stage == EShLangVertex ? "vertex" : "fragment"; }

// The version a GL source declares ("#version 120", "#version 100" for ES), 110 when none.
int declared_version(const std::string& src, bool& es) {
  es = false;
  auto p = src.find("#version");
  if (p == std::string::npos) return 110;
  int v = std::atoi(src.c_str() + p + 8);
  auto eol = src.find('\n', p);
  es = src.substr(p, eol == std::string::npos ? std::string::npos : eol - p).find("es") != std::string::npos || v == 100;
  return v;
}

std::string preprocess(const std::string& src, EShLanguage stage, const std::string& program) {
  glslang::TShader shader(stage);
  const char* text = src.c_str();
  shader.setStrings(&text, 1);
  bool es = false;
  int version = declared_version(src, es);
  shader.setEnvInput(glslang::EShSourceGlsl, stage, glslang::EShClientNone, 0);
  std::string out;
  glslang::TShader::ForbidIncluder includer;
  if (!shader.preprocess(GetDefaultResources(), version, es ? EEsProfile : ENoProfile, false, false,
                         EShMsgOnlyPreprocessor, &out, includer))
    throw InputError(fmt::format("program {}: {} shader does not preprocess: {}", program, stage_name(stage),
                                 shader.getInfoLog()));
  return out;
}

}  // namespace

SpirvProgram compile_to_spirv(const std::string& vertex_source, const std::string& fragment_source,
                              const std::map<std::string, int>& bound_attributes, const std::string& program) {
  init_glslang();
  auto vk = to_vulkan_glsl(preprocess(vertex_source, EShLangVertex, program),
                           preprocess(fragment_source, EShLangFragment, program), bound_attributes, program);
  SpirvProgram out;
  out.slots = vk.slots;
  out.vertex_glsl = vk.vertex;
  out.fragment_glsl = vk.fragment;

  auto messages = static_cast<EShMessages>(EShMsgSpvRules | EShMsgVulkanRules);
  std::unique_ptr<glslang::TShader> shaders[2];
  const std::string* texts[2] = {&out.vertex_glsl, &out.fragment_glsl};
  EShLanguage stages[2] = {EShLangVertex, EShLangFragment};
  glslang::TProgram linked;
  for (int s = 0; s < 2; ++s) {
    shaders[s] = std::make_unique<glslang::TShader>(stages[s]);
    auto& sh = *shaders[s];
    const char* text = texts[s]->c_str();
    sh.setStrings(&text, 1);
    sh.setEnvInput(glslang::EShSourceGlsl, stages[s], glslang::EShClientVulkan, 100);
    sh.setEnvClient(glslang::EShClientVulkan, glslang::EShTargetVulkan_1_0);
    sh.setEnvTarget(glslang::EShTargetSpv, glslang::EShTargetSpv_1_0);
    // GL-style loose uniforms go into one block at set 0, binding 0 (glslangValidator -R).
    sh.setEnvInputVulkanRulesRelaxed();
    sh.setGlobalUniformSet(0);
    sh.setGlobalUniformBinding(kDefaultUniformBinding);
    if (!sh.parse(GetDefaultResources(), 450, ECoreProfile, false, false, messages))
      throw InputError(fmt::format("program {}: {} shader does not compile after the dialect step: {}", program,
                                   stage_name(stages[s]), sh.getInfoLog()));
    linked.addShader(&sh);
  }
  if (!linked.link(messages) || !linked.mapIO())
    throw InputError(fmt::format("program {}: its stages do not link: {}", program, linked.getInfoLog()));
  for (int s = 0; s < 2; ++s) {
    glslang::SpvOptions options;
    options.disableOptimizer = true;  // RADV optimises; SPIR-V stays a plain translation
    spv::SpvBuildLogger logger;
    glslang::GlslangToSpv(*linked.getIntermediate(stages[s]), s == 0 ? out.vertex : out.fragment, &logger, &options);
  }

  linked.buildReflection(EShReflectionDefault);
  for (int b = 0; b < linked.getNumUniformBlocks(); ++b) {
    const auto& block = linked.getUniformBlock(b);
    if (block.getBinding() == kDefaultUniformBinding) out.uniform_block_bytes = static_cast<uint32_t>(block.size);
  }
  for (int u = 0; u < linked.getNumUniformVariables(); ++u) {
    const auto& r = linked.getUniform(u);
    if (r.glDefineType >= kGlSamplerFirst && r.glDefineType <= kGlSamplerLast) {
      out.sampler_gl_types[program_name(out.slots, r.name)] = r.glDefineType;
      continue;
    }
    if (r.index < 0) continue;  // not in a block: nothing to place
    UniformSlot slot;
    slot.name = program_name(out.slots, r.name);
    slot.offset = static_cast<uint32_t>(r.offset);
    slot.gl_type = r.glDefineType;
    slot.array_size = std::max(1, r.size);
    slot.array_stride = static_cast<uint32_t>(std::max(0, r.arrayStride));
    out.uniforms.push_back(std::move(slot));
  }
  for (int i = 0; i < linked.getNumPipeInputs(); ++i) {
    const auto& r = linked.getPipeInput(i);
    out.attribute_gl_types[program_name(out.slots, r.name)] = r.glDefineType;
  }
  return out;
}

}  // namespace strobe::gfx
