// RADV is driven through the Vulkan loader like any application, restricted to RADV's ICD with a
// forced Fiji family, so no GPU is needed: it compiles pipelines but never runs them. Pipelines
// are created with VK_KHR_pipeline_executable_properties' capture flags, which hand back the
// NIR, ACO's IR and the final disassembly (with the encoded words) of each stage in-process.
#include "gfx/shader/radv.h"

#include <cstdlib>
#include <mutex>
#include <regex>
#include <sstream>

#include <fmt/format.h>
#include <vulkan/vulkan.h>

#include "common/error.h"

namespace strobe::gfx {
namespace {

constexpr const char* kRadvIcd = "/usr/share/vulkan/icd.d/radeon_icd.x86_64.json";

void check(VkResult r, const char* what, const std::string& name) {
  if (r != VK_SUCCESS) throw InputError(fmt::format("{}: {} failed (VkResult {})", name, what, static_cast<int>(r)));
}

// GL matrix attribute types take one location per column.
int attribute_columns(int gl_type) {
  switch (gl_type) {
    case 0x8B5A: case 0x8B65: case 0x8B66: return 2;  // mat2, mat2x3, mat2x4
    case 0x8B5B: case 0x8B67: case 0x8B68: return 3;  // mat3, mat3x2, mat3x4
    case 0x8B5C: case 0x8B69: case 0x8B6A: return 4;  // mat4, mat4x2, mat4x3
    default: return 1;
  }
}

// The one RADV device of the process. Created on first use and kept for the process's life:
// destroying it from a static destructor could run after the driver library is unloaded.
class RadvDevice {
 public:
  static RadvDevice& get() {
    static RadvDevice* device = new RadvDevice();
    return *device;
  }
  std::mutex mutex;
  VkDevice device = VK_NULL_HANDLE;
  std::string name;
  PFN_vkGetPipelineExecutablePropertiesKHR executables = nullptr;
  PFN_vkGetPipelineExecutableStatisticsKHR statistics = nullptr;
  PFN_vkGetPipelineExecutableInternalRepresentationsKHR representations = nullptr;

 private:
  RadvDevice() {
    const std::string who = "RADV (the gfx803 graphics shader compiler)";
    // Only RADV, as a Fiji, and no on-disk cache: a cache hit would return no representations.
    setenv("VK_ICD_FILENAMES", kRadvIcd, 1);
    setenv("RADV_FORCE_FAMILY", "fiji", 1);
    setenv("MESA_SHADER_CACHE_DISABLE", "true", 1);
    if (!getenv("XDG_RUNTIME_DIR")) setenv("XDG_RUNTIME_DIR", "/tmp", 0);
    VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
    app.pApplicationName = "strobe";
    app.apiVersion = VK_API_VERSION_1_2;
    VkInstanceCreateInfo ici{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
    ici.pApplicationInfo = &app;
    VkInstance instance;
    check(vkCreateInstance(&ici, nullptr, &instance), "vkCreateInstance (is mesa-vulkan-drivers installed?)", who);
    uint32_t n = 0;
    vkEnumeratePhysicalDevices(instance, &n, nullptr);
    if (n == 0) throw InputError(who + ": RADV offers no device (RADV_FORCE_FAMILY=fiji on the null winsys)");
    std::vector<VkPhysicalDevice> devices(n);
    vkEnumeratePhysicalDevices(instance, &n, devices.data());
    VkPhysicalDeviceProperties props;
    vkGetPhysicalDeviceProperties(devices[0], &props);
    name = props.deviceName;
    if (name.find("FIJI") == std::string::npos)
      throw InputError(fmt::format("{}: the device is '{}', not a Fiji (gfx803)", who, name));
    float priority = 1;
    VkDeviceQueueCreateInfo queue{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
    queue.queueCount = 1;
    queue.pQueuePriorities = &priority;
    VkPhysicalDevicePipelineExecutablePropertiesFeaturesKHR feature{
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_EXECUTABLE_PROPERTIES_FEATURES_KHR};
    feature.pipelineExecutableInfo = VK_TRUE;
    const char* extension = VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME;
    VkDeviceCreateInfo dci{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
    dci.pNext = &feature;
    dci.queueCreateInfoCount = 1;
    dci.pQueueCreateInfos = &queue;
    dci.enabledExtensionCount = 1;
    dci.ppEnabledExtensionNames = &extension;
    check(vkCreateDevice(devices[0], &dci, nullptr, &device), "vkCreateDevice", who);
    executables = reinterpret_cast<PFN_vkGetPipelineExecutablePropertiesKHR>(
        vkGetDeviceProcAddr(device, "vkGetPipelineExecutablePropertiesKHR"));
    statistics = reinterpret_cast<PFN_vkGetPipelineExecutableStatisticsKHR>(
        vkGetDeviceProcAddr(device, "vkGetPipelineExecutableStatisticsKHR"));
    representations = reinterpret_cast<PFN_vkGetPipelineExecutableInternalRepresentationsKHR>(
        vkGetDeviceProcAddr(device, "vkGetPipelineExecutableInternalRepresentationsKHR"));
    if (!executables || !statistics || !representations)
      throw InputError(who + ": VK_KHR_pipeline_executable_properties is missing");
  }
};

// Vulkan objects of one compilation, destroyed when it ends however it ends.
struct Scope {
  VkDevice d;
  std::vector<VkShaderModule> modules;
  VkDescriptorSetLayout set_layout = VK_NULL_HANDLE;
  VkPipelineLayout layout = VK_NULL_HANDLE;
  VkRenderPass pass = VK_NULL_HANDLE;
  VkPipeline pipeline = VK_NULL_HANDLE;
  ~Scope() {
    if (pipeline) vkDestroyPipeline(d, pipeline, nullptr);
    if (pass) vkDestroyRenderPass(d, pass, nullptr);
    if (layout) vkDestroyPipelineLayout(d, layout, nullptr);
    if (set_layout) vkDestroyDescriptorSetLayout(d, set_layout, nullptr);
    for (auto m : modules) vkDestroyShaderModule(d, m, nullptr);
  }
};

void read_executable(RadvDevice& dev, VkPipeline pipeline, uint32_t index, CompiledShader& out, const std::string& name) {
  VkPipelineExecutableInfoKHR info{VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_INFO_KHR};
  info.pipeline = pipeline;
  info.executableIndex = index;
  uint32_t n = 0;
  dev.statistics(dev.device, &info, &n, nullptr);
  std::vector<VkPipelineExecutableStatisticKHR> stats(n, {VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_STATISTIC_KHR});
  dev.statistics(dev.device, &info, &n, stats.data());
  for (const auto& s : stats) {
    std::string key = s.name;
    if (key == "SGPRs") out.sgprs = static_cast<uint32_t>(s.value.u64);
    if (key == "VGPRs") out.vgprs = static_cast<uint32_t>(s.value.u64);
    if (key == "Scratch size") out.scratch_bytes = static_cast<uint32_t>(s.value.u64);
  }
  dev.representations(dev.device, &info, &n, nullptr);
  std::vector<VkPipelineExecutableInternalRepresentationKHR> reps(
      n, {VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_INTERNAL_REPRESENTATION_KHR});
  dev.representations(dev.device, &info, &n, reps.data());
  std::vector<std::string> texts(n);
  for (uint32_t i = 0; i < n; ++i) {
    texts[i].resize(reps[i].dataSize);
    reps[i].pData = texts[i].data();
  }
  dev.representations(dev.device, &info, &n, reps.data());
  for (uint32_t i = 0; i < n; ++i) {
    std::string key = reps[i].name;
    std::string text = texts[i].c_str();  // the driver's text ends in a NUL
    if (key.rfind("NIR", 0) == 0) out.nir = text;
    if (key == "ACO IR") out.aco_ir = text;
    if (key == "Assembly") out.assembly = text;
  }
  if (out.assembly.empty() || out.aco_ir.empty())
    throw InputError(fmt::format("{}: RADV returned no assembly or ACO IR (is it using LLVM instead of ACO?)", name));
  out.code = words_of_listing(out.assembly, name);
}

}  // namespace

std::vector<ListingInstruction> listing_instructions(const std::string& assembly, const std::string& shader) {
  std::vector<ListingInstruction> out;
  static const std::regex repeated(R"(^\s*\(then repeated (\d+) times\)\s*$)");
  std::istringstream in(assembly);
  std::string line;
  while (std::getline(in, line)) {
    const auto semi = line.find(';');
    if (semi == std::string::npos) {
      // ACO prints a run of identical instructions once, then "(then repeated N times)".
      std::smatch m;
      if (std::regex_match(line, m, repeated)) {
        if (out.empty()) throw InputError(fmt::format("{}: the disassembly repeats before any instruction", shader));
        const ListingInstruction last = out.back();
        for (unsigned long k = std::stoul(m[1]); k > 0; --k) out.push_back(last);
        continue;
      }
      const auto text = line.find_first_not_of(" \t");
      if (text == std::string::npos || line.back() == ':') continue;  // blank, or a block label
      throw InputError(fmt::format("{}: the disassembly line '{}' is neither an instruction nor a label", shader, line));
    }
    ListingInstruction inst;
    inst.text = line.substr(0, semi);
    inst.text.erase(0, inst.text.find_first_not_of(" \t"));
    inst.text.erase(inst.text.find_last_not_of(" \t") + 1);
    std::istringstream tail(line.substr(semi + 1));
    std::string word;
    while (tail >> word) {
      if (word.size() != 8 || word.find_first_not_of("0123456789abcdefABCDEF") != std::string::npos)
        throw InputError(fmt::format("{}: the disassembly line '{}' has '{}' where an encoded word belongs", shader,
                                     line, word));
      inst.words.push_back(static_cast<uint32_t>(std::stoul(word, nullptr, 16)));
    }
    if (inst.words.empty()) throw InputError(fmt::format("{}: the disassembly line '{}' has no encoding", shader, line));
    out.push_back(std::move(inst));
  }
  if (out.empty()) throw InputError(shader + ": the disassembly has no instructions");
  return out;
}

std::vector<uint32_t> words_of_listing(const std::string& assembly, const std::string& shader) {
  std::vector<uint32_t> words;
  for (const auto& inst : listing_instructions(assembly, shader)) words.insert(words.end(), inst.words.begin(), inst.words.end());
  return words;
}

std::string radv_device_name() { return RadvDevice::get().name; }

CompiledPipeline compile_pipeline(const SpirvProgram& program, const PipelineKey& key, const std::string& name) {
  auto& dev = RadvDevice::get();
  std::lock_guard lock(dev.mutex);
  Scope scope{dev.device};
  for (const auto* code : {&program.vertex, &program.fragment}) {
    VkShaderModuleCreateInfo info{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
    info.codeSize = code->size() * sizeof(uint32_t);
    info.pCode = code->data();
    VkShaderModule m;
    check(vkCreateShaderModule(dev.device, &info, nullptr, &m), "vkCreateShaderModule", name);
    scope.modules.push_back(m);
  }

  // Set 0: the default uniform block at binding 0, then one combined image sampler per sampler.
  std::vector<VkDescriptorSetLayoutBinding> bindings;
  bindings.push_back({kDefaultUniformBinding, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1, VK_SHADER_STAGE_ALL_GRAPHICS, nullptr});
  // GL's samplers of every dimension are Vulkan's combined image samplers.
  for (const auto& [sampler, binding] : program.slots.samplers)
    bindings.push_back({static_cast<uint32_t>(binding), VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1,
                        VK_SHADER_STAGE_ALL_GRAPHICS, nullptr});
  VkDescriptorSetLayoutCreateInfo sli{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
  sli.bindingCount = static_cast<uint32_t>(bindings.size());
  sli.pBindings = bindings.data();
  check(vkCreateDescriptorSetLayout(dev.device, &sli, nullptr, &scope.set_layout), "vkCreateDescriptorSetLayout", name);
  VkPipelineLayoutCreateInfo pli{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
  pli.setLayoutCount = 1;
  pli.pSetLayouts = &scope.set_layout;
  check(vkCreatePipelineLayout(dev.device, &pli, nullptr, &scope.layout), "vkCreatePipelineLayout", name);

  int colors = std::max(1, program.slots.color_outputs);
  std::vector<VkAttachmentDescription> attachments;
  std::vector<VkAttachmentReference> color_refs;
  for (int c = 0; c < colors; ++c) {
    attachments.push_back({0, static_cast<VkFormat>(key.color_format), VK_SAMPLE_COUNT_1_BIT, VK_ATTACHMENT_LOAD_OP_LOAD,
                           VK_ATTACHMENT_STORE_OP_STORE, VK_ATTACHMENT_LOAD_OP_DONT_CARE, VK_ATTACHMENT_STORE_OP_DONT_CARE,
                           VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL});
    color_refs.push_back({static_cast<uint32_t>(c), VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL});
  }
  VkAttachmentReference depth_ref{static_cast<uint32_t>(colors), VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL};
  if (key.depth)
    attachments.push_back({0, VK_FORMAT_D32_SFLOAT, VK_SAMPLE_COUNT_1_BIT, VK_ATTACHMENT_LOAD_OP_LOAD,
                           VK_ATTACHMENT_STORE_OP_STORE, VK_ATTACHMENT_LOAD_OP_DONT_CARE, VK_ATTACHMENT_STORE_OP_DONT_CARE,
                           VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL, VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL});
  VkSubpassDescription subpass{};
  subpass.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
  subpass.colorAttachmentCount = static_cast<uint32_t>(color_refs.size());
  subpass.pColorAttachments = color_refs.data();
  subpass.pDepthStencilAttachment = key.depth ? &depth_ref : nullptr;
  VkRenderPassCreateInfo rpi{VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO};
  rpi.attachmentCount = static_cast<uint32_t>(attachments.size());
  rpi.pAttachments = attachments.data();
  rpi.subpassCount = 1;
  rpi.pSubpasses = &subpass;
  check(vkCreateRenderPass(dev.device, &rpi, nullptr, &scope.pass), "vkCreateRenderPass", name);

  // One binding per attribute location; a matrix attribute's columns are consecutive locations.
  std::vector<VkVertexInputBindingDescription> vbind;
  std::vector<VkVertexInputAttributeDescription> vattr;
  for (const auto& [attr, location] : program.slots.attributes) {
    auto t = program.attribute_gl_types.find(attr);
    if (t == program.attribute_gl_types.end()) continue;  // declared but not read: not an input
    for (int c = 0; c < attribute_columns(t->second); ++c) {
      uint32_t loc = static_cast<uint32_t>(location + c);
      auto f = key.attribute_formats.find(static_cast<int>(loc));
      VkFormat format = f == key.attribute_formats.end() ? VK_FORMAT_R32G32B32A32_SFLOAT : static_cast<VkFormat>(f->second);
      vbind.push_back({loc, 16, VK_VERTEX_INPUT_RATE_VERTEX});
      vattr.push_back({loc, loc, format, 0});
    }
  }
  VkPipelineVertexInputStateCreateInfo vi{VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO};
  vi.vertexBindingDescriptionCount = static_cast<uint32_t>(vbind.size());
  vi.pVertexBindingDescriptions = vbind.data();
  vi.vertexAttributeDescriptionCount = static_cast<uint32_t>(vattr.size());
  vi.pVertexAttributeDescriptions = vattr.data();
  VkPipelineInputAssemblyStateCreateInfo ia{VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO};
  ia.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
  VkPipelineViewportStateCreateInfo vp{VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO};
  vp.viewportCount = 1;
  vp.scissorCount = 1;
  VkDynamicState dynamic[] = {VK_DYNAMIC_STATE_VIEWPORT, VK_DYNAMIC_STATE_SCISSOR};
  VkPipelineDynamicStateCreateInfo dyn{VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO};
  dyn.dynamicStateCount = 2;
  dyn.pDynamicStates = dynamic;
  VkPipelineRasterizationStateCreateInfo rs{VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO};
  rs.lineWidth = 1;
  VkPipelineMultisampleStateCreateInfo ms{VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO};
  ms.rasterizationSamples = VK_SAMPLE_COUNT_1_BIT;
  std::vector<VkPipelineColorBlendAttachmentState> blend(colors);
  for (auto& b : blend) b.colorWriteMask = 0xf;
  VkPipelineColorBlendStateCreateInfo cb{VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO};
  cb.attachmentCount = static_cast<uint32_t>(blend.size());
  cb.pAttachments = blend.data();
  VkPipelineDepthStencilStateCreateInfo ds{VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO};
  ds.depthTestEnable = key.depth;
  ds.depthWriteEnable = key.depth;
  ds.depthCompareOp = VK_COMPARE_OP_LESS;
  VkPipelineShaderStageCreateInfo stages[2] = {
      {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, VK_SHADER_STAGE_VERTEX_BIT, scope.modules[0], "main", nullptr},
      {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, VK_SHADER_STAGE_FRAGMENT_BIT, scope.modules[1], "main", nullptr}};
  VkGraphicsPipelineCreateInfo gp{VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO};
  gp.flags = VK_PIPELINE_CREATE_CAPTURE_INTERNAL_REPRESENTATIONS_BIT_KHR | VK_PIPELINE_CREATE_CAPTURE_STATISTICS_BIT_KHR;
  gp.stageCount = 2;
  gp.pStages = stages;
  gp.pVertexInputState = &vi;
  gp.pInputAssemblyState = &ia;
  gp.pViewportState = &vp;
  gp.pRasterizationState = &rs;
  gp.pMultisampleState = &ms;
  gp.pDepthStencilState = key.depth ? &ds : nullptr;
  gp.pColorBlendState = &cb;
  gp.pDynamicState = &dyn;
  gp.layout = scope.layout;
  gp.renderPass = scope.pass;
  check(vkCreateGraphicsPipelines(dev.device, VK_NULL_HANDLE, 1, &gp, nullptr, &scope.pipeline),
        "vkCreateGraphicsPipelines", name);

  VkPipelineInfoKHR pinfo{VK_STRUCTURE_TYPE_PIPELINE_INFO_KHR};
  pinfo.pipeline = scope.pipeline;
  uint32_t n = 0;
  dev.executables(dev.device, &pinfo, &n, nullptr);
  std::vector<VkPipelineExecutablePropertiesKHR> execs(n, {VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_PROPERTIES_KHR});
  dev.executables(dev.device, &pinfo, &n, execs.data());
  CompiledPipeline out;
  bool have_vs = false, have_fs = false;
  for (uint32_t i = 0; i < n; ++i) {
    if (execs[i].stages & VK_SHADER_STAGE_VERTEX_BIT) {
      read_executable(dev, scope.pipeline, i, out.vertex, name + " (vertex)");
      out.vertex.args = read_vertex_args(out.vertex.aco_ir, out.vertex.nir, name + " (vertex)");
      have_vs = true;
    } else if (execs[i].stages & VK_SHADER_STAGE_FRAGMENT_BIT) {
      read_executable(dev, scope.pipeline, i, out.fragment, name + " (fragment)");
      out.fragment.args = read_fragment_args(out.fragment.aco_ir, out.fragment.nir, name + " (fragment)");
      have_fs = true;
    }
  }
  if (!have_vs || !have_fs) throw InputError(name + ": RADV's pipeline lacks a vertex or fragment executable");
  return out;
}

}  // namespace strobe::gfx
