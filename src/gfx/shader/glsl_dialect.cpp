// The dialect step works on tokens of preprocessed text: it rewrites only global declarations and
// a handful of identifiers, and copies everything else (function bodies included) unchanged, so
// what glslang compiles is the application's own code.
#include "gfx/shader/glsl_dialect.h"

#include <algorithm>
#include <cctype>
#include <set>
#include <vector>

#include <fmt/format.h>

#include "common/error.h"

namespace strobe::gfx {
namespace {

enum class Kind { Ident, Number, Punct, Space, Directive };

struct Token {
  Kind kind;
  std::string text;
};

std::vector<Token> tokenize(const std::string& s) {
  std::vector<Token> out;
  size_t i = 0;
  bool line_start = true;
  while (i < s.size()) {
    char c = s[i];
    size_t j = i + 1;
    if (c == '#' && line_start) {
      while (j < s.size() && s[j] != '\n') ++j;
      out.push_back({Kind::Directive, s.substr(i, j - i)});
    } else if (std::isspace(static_cast<unsigned char>(c))) {
      while (j < s.size() && std::isspace(static_cast<unsigned char>(s[j]))) ++j;
      out.push_back({Kind::Space, s.substr(i, j - i)});
    } else if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
      while (j < s.size() && (std::isalnum(static_cast<unsigned char>(s[j])) || s[j] == '_')) ++j;
      out.push_back({Kind::Ident, s.substr(i, j - i)});
    } else if (std::isdigit(static_cast<unsigned char>(c)) || (c == '.' && j < s.size() && std::isdigit(static_cast<unsigned char>(s[j])))) {
      // Numbers with exponents and suffixes ("1.0e-3", "2u", "0x1F") stay one token.
      while (j < s.size() && (std::isalnum(static_cast<unsigned char>(s[j])) || s[j] == '.' ||
                              ((s[j] == '-' || s[j] == '+') && (s[j - 1] == 'e' || s[j - 1] == 'E')))) ++j;
      out.push_back({Kind::Number, s.substr(i, j - i)});
    } else {
      out.push_back({Kind::Punct, std::string(1, c)});
    }
    // A directive starts a line: after a newline, or after indentation that follows one.
    if (out.back().kind == Kind::Space) {
      if (out.back().text.find('\n') != std::string::npos) line_start = true;
    } else {
      line_start = false;
    }
    i = j;
  }
  return out;
}

// Compatibility-profile built-ins: removed from core GLSL, with no Vulkan meaning.
const std::set<std::string> kCompatibilityBuiltins = {
    "ftransform", "gl_ModelViewMatrix", "gl_ProjectionMatrix", "gl_ModelViewProjectionMatrix",
    "gl_TextureMatrix", "gl_NormalMatrix", "gl_ModelViewMatrixInverse", "gl_NormalScale",
    "gl_Vertex", "gl_Normal", "gl_Color", "gl_SecondaryColor", "gl_FogCoord", "gl_MultiTexCoord0",
    "gl_MultiTexCoord1", "gl_MultiTexCoord2", "gl_MultiTexCoord3", "gl_TexCoord", "gl_FrontColor",
    "gl_BackColor", "gl_FrontSecondaryColor", "gl_BackSecondaryColor", "gl_FogFragCoord",
    "gl_LightSource", "gl_FrontMaterial", "gl_BackMaterial", "gl_Fog", "gl_ClipVertex"};

// Words that are ordinary identifiers before GLSL 1.30 but keywords or built-in functions in 4.50;
// a legacy shader that uses one as a name gets it renamed.
const std::set<std::string> kLegacyNamesTaken = {
    "texture", "sample", "patch", "input", "output", "filter", "common", "partition", "active",
    "buffer", "shared", "resource", "coherent", "restrict", "readonly", "writeonly", "subroutine",
    "precise", "noperspective", "smooth", "flat", "layout", "round", "trunc", "sinh",
    "cosh", "tanh", "asinh", "acosh", "atanh", "modf", "isnan", "isinf", "determinant", "inverse"};

// Pre-1.30 texture functions and their 4.50 names (same arguments).
const std::map<std::string, std::string> kTextureRenames = {
    {"texture1D", "texture"}, {"texture2D", "texture"}, {"texture3D", "texture"},
    {"textureCube", "texture"}, {"texture1DProj", "textureProj"}, {"texture2DProj", "textureProj"},
    {"texture3DProj", "textureProj"}, {"texture1DLod", "textureLod"}, {"texture2DLod", "textureLod"},
    {"texture3DLod", "textureLod"}, {"textureCubeLod", "textureLod"}, {"texture2DProjLod", "textureProjLod"},
    {"texture2DLodEXT", "textureLod"}, {"textureCubeLodEXT", "textureLod"},
    {"texture2DGradEXT", "textureGrad"}, {"textureCubeGradEXT", "textureGrad"}};

// Extensions whose features GLSL 4.50 has in core; their #extension lines would only warn or fail.
const std::set<std::string> kCoreExtensions = {"GL_OES_standard_derivatives", "GL_EXT_shader_texture_lod",
                                               "GL_ARB_shader_texture_lod", "GL_OES_texture_3D",
                                               "GL_EXT_frag_depth", "GL_EXT_draw_buffers"};

const std::set<std::string> kQualifiers = {"attribute", "varying", "uniform", "in", "out", "inout", "const",
                                           "centroid", "flat", "smooth", "noperspective", "invariant",
                                           "highp", "mediump", "lowp", "precise"};

const std::set<std::string> kInterpolation = {"centroid", "flat", "smooth", "noperspective"};
const std::set<std::string> kPrecision = {"highp", "mediump", "lowp"};

struct Version {
  int number = 110;
  bool es = false;
  bool legacy() const { return number < 130 || (es && number < 300); }
};

Version read_version(const std::vector<Token>& toks) {
  Version v;
  for (const auto& t : toks) {
    if (t.kind != Kind::Directive) continue;
    auto words = t.text.substr(1);
    size_t p = words.find_first_not_of(" \t");
    if (p == std::string::npos || words.compare(p, 7, "version") != 0) continue;
    auto rest = words.substr(p + 7);
    v.number = std::atoi(rest.c_str());
    v.es = rest.find("es") != std::string::npos || v.number == 100;
  }
  return v;
}

// Locations one value of GLSL type `type` occupies: a matrix takes one per column.
int slots_of(const std::string& type) {
  if (type.rfind("mat", 0) == 0 || type.rfind("dmat", 0) == 0) {
    size_t p = type.find("mat") + 3;
    return p < type.size() && std::isdigit(static_cast<unsigned char>(type[p])) ? type[p] - '0' : 1;
  }
  return 1;
}

bool is_sampler(const std::string& type) {
  return type.find("sampler") != std::string::npos && type.find("sampler") <= 1;
}

// One name in a declaration: "name", its "[N]" text and count, and any "= init" text.
struct Declarator {
  std::string name;
  std::string array;
  int count = 1;
  std::string init;
};

struct Declaration {
  std::set<std::string> qualifiers;
  std::string layout;  // the text inside layout(...), if any
  std::string precision;
  std::string type;
  std::string type_array;
  std::vector<Declarator> names;
};

class StageRewriter {
 public:
  StageRewriter(bool vertex, const std::string& program, std::map<std::string, int>& varyings,
                std::map<std::string, int>& samplers)
      : vertex_(vertex), program_(program), varyings_(varyings), samplers_(samplers) {}

  std::string rewrite(const std::string& src, const std::map<std::string, int>& bound, GlslInterface& slots);

 private:
  [[noreturn]] void fail(const std::string& why) const {
    throw InputError(fmt::format("program {}: {} shader: {}", program_, vertex_ ? "vertex" : "fragment", why));
  }
  Declaration parse(const std::vector<const Token*>& words) const;
  int array_count(const std::vector<const Token*>& words, size_t& i) const;
  std::string emit(const Declaration& d, const std::map<std::string, int>& bound, GlslInterface& slots);
  int attribute_location(const std::string& name, int slots, const std::map<std::string, int>& bound);
  int varying_location(const std::string& name, int slots);

  bool vertex_;
  std::string program_;
  std::map<std::string, int>& varyings_;
  std::map<std::string, int>& samplers_;
  std::vector<std::pair<std::string, int>> pending_attributes_;  // unbound, in declaration order
  std::set<int> used_attribute_slots_;
  int next_varying_ = 0;
  int next_output_ = 0;
};

int StageRewriter::array_count(const std::vector<const Token*>& words, size_t& i) const {
  // words[i] is "["; reads "[N]" with N an integer literal.
  if (i + 2 >= words.size() || words[i + 1]->kind != Kind::Number || words[i + 2]->text != "]")
    fail(fmt::format("array size after '{}' is not an integer literal", words[i - 1]->text));
  int n = std::atoi(words[i + 1]->text.c_str());
  if (n <= 0) fail(fmt::format("array size {} is not positive", words[i + 1]->text));
  i += 3;
  return n;
}

Declaration StageRewriter::parse(const std::vector<const Token*>& w) const {
  Declaration d;
  size_t i = 0;
  while (i < w.size()) {
    const auto& t = w[i]->text;
    if (t == "layout") {
      if (i + 1 >= w.size() || w[i + 1]->text != "(") fail("layout without '('");
      size_t j = i + 2;
      while (j < w.size() && w[j]->text != ")") d.layout += w[j++]->text;
      i = j + 1;
    } else if (kQualifiers.count(t)) {
      if (kPrecision.count(t)) d.precision = t; else d.qualifiers.insert(t);
      ++i;
    } else {
      break;
    }
  }
  if (i >= w.size() || w[i]->kind != Kind::Ident) fail("a declaration has no type");
  d.type = w[i++]->text;
  if (i < w.size() && w[i]->text == "[") d.type_array = fmt::format("[{}]", array_count(w, i));
  while (i < w.size()) {
    if (w[i]->kind != Kind::Ident) fail(fmt::format("unexpected '{}' in a declaration of type {}", w[i]->text, d.type));
    Declarator n;
    n.name = w[i++]->text;
    if (i < w.size() && w[i]->text == "[") {
      n.count = array_count(w, i);
      n.array = fmt::format("[{}]", n.count);
    }
    if (i < w.size() && w[i]->text == "=") {
      int depth = 0;
      ++i;
      while (i < w.size() && !(depth == 0 && w[i]->text == ",")) {
        if (w[i]->text == "(") ++depth;
        if (w[i]->text == ")") --depth;
        n.init += w[i++]->text;
        n.init += ' ';
      }
    }
    d.names.push_back(std::move(n));
    if (i < w.size()) {
      if (w[i]->text != ",") fail(fmt::format("unexpected '{}' after {}", w[i]->text, d.names.back().name));
      ++i;
    }
  }
  if (d.names.empty()) fail(fmt::format("a declaration of type {} names nothing", d.type));
  return d;
}

int StageRewriter::attribute_location(const std::string& name, int slots, const std::map<std::string, int>& bound) {
  auto it = bound.find(name);
  if (it == bound.end()) return -1;
  for (int s = 0; s < slots; ++s) used_attribute_slots_.insert(it->second + s);
  return it->second;
}

int StageRewriter::varying_location(const std::string& name, int slots) {
  auto it = varyings_.find(name);
  if (it != varyings_.end()) return it->second;
  int loc = 0;
  for (const auto& [n, l] : varyings_) loc = std::max(loc, l + 1);
  loc = std::max(loc, next_varying_);
  // The location after the last one taken; a name's slots follow each other.
  next_varying_ = loc + slots;
  varyings_[name] = loc;
  return loc;
}

std::string StageRewriter::emit(const Declaration& d, const std::map<std::string, int>& bound, GlslInterface& slots) {
  bool is_attribute = d.qualifiers.count("attribute") || (vertex_ && d.qualifiers.count("in"));
  bool is_varying = d.qualifiers.count("varying") || (vertex_ && d.qualifiers.count("out")) ||
                    (!vertex_ && d.qualifiers.count("in"));
  bool is_output = !vertex_ && d.qualifiers.count("out");
  bool is_uniform = d.qualifiers.count("uniform") > 0;
  std::string interp, prec = d.precision.empty() ? "" : d.precision + " ";
  for (const auto& q : d.qualifiers)
    if (kInterpolation.count(q)) interp += q + " ";
  int explicit_location = -1;
  if (!d.layout.empty()) {
    auto p = d.layout.find("location=");
    if (p != std::string::npos) explicit_location = std::atoi(d.layout.c_str() + p + 9);
  }
  std::string out;
  for (const auto& n : d.names) {
    int count = n.count * slots_of(d.type);
    if (is_attribute) {
      int loc = explicit_location >= 0 ? explicit_location : attribute_location(program_name(slots, n.name), count, bound);
      if (loc < 0) {
        pending_attributes_.push_back({n.name, count});
        out += fmt::format("layout(location=@ATTR:{}@) in {}{}{} {}{};", n.name, prec, d.type, d.type_array, n.name, n.array);
      } else {
        slots.attributes[n.name] = loc;
        for (int s = 0; s < count; ++s) used_attribute_slots_.insert(loc + s);
        out += fmt::format("layout(location={}) in {}{}{} {}{};", loc, prec, d.type, d.type_array, n.name, n.array);
      }
    } else if (is_varying) {
      int loc = varying_location(n.name, count);
      out += fmt::format("layout(location={}) {}{} {}{}{} {}{};", loc, interp, vertex_ ? "out" : "in", prec, d.type,
                         d.type_array, n.name, n.array);
    } else if (is_output) {
      int loc = explicit_location >= 0 ? explicit_location : next_output_;
      next_output_ = loc + n.count;
      slots.color_outputs = std::max(slots.color_outputs, loc + n.count);
      out += fmt::format("layout(location={}) out {}{}{} {}{};", loc, prec, d.type, d.type_array, n.name, n.array);
    } else if (is_uniform && is_sampler(d.type)) {
      auto it = samplers_.find(n.name);
      int binding = it != samplers_.end() ? it->second : kDefaultUniformBinding + 1 + static_cast<int>(samplers_.size());
      samplers_[n.name] = binding;
      out += fmt::format("layout(binding={}) uniform {}{}{} {}{};", binding, prec, d.type, d.type_array, n.name, n.array);
    } else {
      std::string quals;
      for (const auto& q : d.qualifiers) quals += q + " ";
      out += fmt::format("{}{}{}{} {}{}{};", quals, prec, d.type, d.type_array, n.name, n.array,
                         n.init.empty() ? "" : " = " + n.init);
    }
  }
  return out;
}

std::string StageRewriter::rewrite(const std::string& src, const std::map<std::string, int>& bound, GlslInterface& slots) {
  auto toks = tokenize(src);
  Version version = read_version(toks);
  bool frag_color = false;
  int frag_data = 0;
  // Identifier pass: compatibility built-ins, names the new version takes, texture functions,
  // and the fragment outputs, so the declaration pass below sees final names.
  for (size_t i = 0; i < toks.size(); ++i) {
    auto& t = toks[i];
    if (t.kind != Kind::Ident) continue;
    if (kCompatibilityBuiltins.count(t.text))
      throw NotImplementedError(fmt::format("program {}: the compatibility-profile built-in {} has no Vulkan equivalent",
                                            program_, t.text));
    if (version.legacy() && kLegacyNamesTaken.count(t.text)) {
      slots.renamed["strobe_" + t.text] = t.text;
      t.text = "strobe_" + t.text;
      continue;
    }
    size_t next = i + 1;
    while (next < toks.size() && toks[next].kind == Kind::Space) ++next;
    bool call = next < toks.size() && toks[next].text == "(";
    if (call) {
      auto r = kTextureRenames.find(t.text);
      if (r != kTextureRenames.end()) t.text = r->second;
      if (t.text == "shadow2D" || t.text == "shadow2DProj")
        throw NotImplementedError(fmt::format("program {}: {} (shadow samplers)", program_, t.text));
    }
    if (!vertex_ && t.text == "gl_FragColor") {
      frag_color = true;
      t.text = "strobe_FragColor";
    } else if (!vertex_ && t.text == "gl_FragData") {
      // gl_FragData[N] with N a literal: outputs 0..N.
      size_t k = next;
      if (k + 2 < toks.size() && toks[k].text == "[" && toks[k + 1].kind == Kind::Number && toks[k + 2].text == "]")
        frag_data = std::max(frag_data, std::atoi(toks[k + 1].text.c_str()) + 1);
      else
        fail("gl_FragData is indexed by something other than an integer literal");
      t.text = "strobe_FragData";
    }
  }
  if (frag_color && frag_data) fail("writes both gl_FragColor and gl_FragData");

  std::string out = "#version 450\n";
  if (frag_color) {
    out += "layout(location=0) out vec4 strobe_FragColor;\n";
    slots.color_outputs = std::max(slots.color_outputs, 1);
  }
  if (frag_data) {
    out += fmt::format("layout(location=0) out vec4 strobe_FragData[{}];\n", frag_data);
    slots.color_outputs = std::max(slots.color_outputs, frag_data);
  }
  size_t i = 0;
  int depth = 0, paren = 0;
  bool start = true;  // at the start of a global statement
  while (i < toks.size()) {
    const auto& t = toks[i];
    if (t.kind == Kind::Directive) {
      std::string d = t.text.substr(1);
      d.erase(0, d.find_first_not_of(" \t"));
      bool drop = d.rfind("version", 0) == 0;
      if (d.rfind("extension", 0) == 0) {
        for (const auto& e : kCoreExtensions)
          if (d.find(e) != std::string::npos) drop = true;
      }
      if (!drop) out += t.text;
      ++i;
      continue;
    }
    if (t.kind == Kind::Space) {
      out += t.text;
      ++i;
      continue;
    }
    if (start && depth == 0 && paren == 0) {
      // A global declaration ends at ';' before any '{' or '(' (a layout's parentheses aside).
      size_t j = i;
      bool declaration = false;
      while (j < toks.size() && toks[j].kind != Kind::Directive) {
        const auto& x = toks[j].text;
        if (x == "layout") {
          while (j < toks.size() && toks[j].text != ")") ++j;
          ++j;
          continue;
        }
        if (x == "{" || x == "(") break;
        if (x == ";") {
          declaration = true;
          break;
        }
        ++j;
      }
      if (declaration) {
        std::vector<const Token*> words;
        for (size_t k = i; k < j; ++k)
          if (toks[k].kind != Kind::Space) words.push_back(&toks[k]);
        bool interface = false;
        for (const auto* w : words) {
          if (w->text == "attribute" || w->text == "varying" || w->text == "uniform" || w->text == "in" ||
              w->text == "out")
            interface = true;
          if (kQualifiers.count(w->text) == 0 && w->text != "layout") break;
        }
        if (interface) {
          out += emit(parse(words), bound, slots);
        } else {
          for (size_t k = i; k <= j; ++k) out += toks[k].text;
        }
        i = j + 1;
        continue;
      }
      // A function, a struct, or a block; interface blocks are not read.
      if (j < toks.size() && toks[j].text == "{") {
        for (size_t k = i; k < j; ++k)
          if (toks[k].kind == Kind::Ident && (toks[k].text == "uniform" || toks[k].text == "buffer"))
            throw NotImplementedError(fmt::format("program {}: interface blocks (uniform/buffer blocks)", program_));
      }
    }
    out += t.text;
    if (t.text == "{") ++depth;
    if (t.text == "}") --depth;
    if (t.text == "(") ++paren;
    if (t.text == ")") --paren;
    start = depth == 0 && paren == 0 && (t.text == ";" || t.text == "}");
    ++i;
  }

  // Unbound attributes take the lowest free locations, in declaration order.
  for (const auto& [name, count] : pending_attributes_) {
    int loc = 0;
    for (;; ++loc) {
      bool free = true;
      for (int s = 0; s < count; ++s) free = free && !used_attribute_slots_.count(loc + s);
      if (free) break;
    }
    for (int s = 0; s < count; ++s) used_attribute_slots_.insert(loc + s);
    slots.attributes[name] = loc;
    std::string marker = fmt::format("@ATTR:{}@", name);
    out.replace(out.find(marker), marker.size(), std::to_string(loc));
  }
  return out;
}

// The maps' keys in the program's own names.
void restore_names(GlslInterface& slots) {
  for (auto* m : {&slots.attributes, &slots.varyings, &slots.samplers}) {
    std::map<std::string, int> named;
    for (const auto& [k, v] : *m) named[program_name(slots, k)] = v;
    *m = std::move(named);
  }
}

}  // namespace

std::string program_name(const GlslInterface& slots, const std::string& name) {
  // Only the leading identifier can be renamed; "[i]" and ".member" follow it unchanged.
  size_t end = name.find_first_of("[.");
  auto it = slots.renamed.find(name.substr(0, end));
  if (it == slots.renamed.end()) return name;
  return it->second + (end == std::string::npos ? "" : name.substr(end));
}

VulkanGlsl to_vulkan_glsl(const std::string& vertex, const std::string& fragment,
                          const std::map<std::string, int>& bound_attributes, const std::string& program) {
  VulkanGlsl r;
  StageRewriter vs(true, program, r.slots.varyings, r.slots.samplers);
  r.vertex = vs.rewrite(vertex, bound_attributes, r.slots);
  StageRewriter fs(false, program, r.slots.varyings, r.slots.samplers);
  r.fragment = fs.rewrite(fragment, {}, r.slots);
  restore_names(r.slots);
  return r;
}

}  // namespace strobe::gfx
