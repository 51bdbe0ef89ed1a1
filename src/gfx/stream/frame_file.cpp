#include "gfx/stream/frame_file.h"

#include <fstream>
#include <iterator>
#include <map>
#include <memory>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "common/atomic_file.h"
#include "common/error.h"

namespace strobe::gfx {

namespace {

/// The unsigned 32-bit integer at `key` of `j`: a size read from a damaged file (1e62, -1) is
/// refused by name here, where nlohmann's conversion would cast it to an arbitrary value.
uint32_t strict_u32(const nlohmann::json& j, const char* key) {
  const nlohmann::json& v = j.at(key);
  if (!v.is_number_unsigned() || v.get<uint64_t>() > UINT32_MAX)
    throw InputError(fmt::format("'{}' is {}, not a size", key, v.dump()));
  return v.get<uint32_t>();
}

}  // namespace

// Plain state structs convert field by field under their own names (found by ADL, so here in
// their namespace rather than in the anonymous one). A target's sizes are read strictly.
void to_json(nlohmann::json& j, const GlTarget& t) {
  j = {{"framebuffer", t.framebuffer}, {"color_texture", t.color_texture}, {"color_level", t.color_level},
       {"depth_texture", t.depth_texture}, {"color", t.color}, {"depth", t.depth}, {"width", t.width},
       {"height", t.height}, {"color_float", t.color_float}};
}
void from_json(const nlohmann::json& j, GlTarget& t) {
  j.at("framebuffer").get_to(t.framebuffer);
  j.at("color_texture").get_to(t.color_texture);
  t.color_level = strict_u32(j, "color_level");
  j.at("depth_texture").get_to(t.depth_texture);
  j.at("color").get_to(t.color);
  j.at("depth").get_to(t.depth);
  t.width = strict_u32(j, "width");
  t.height = strict_u32(j, "height");
  j.at("color_float").get_to(t.color_float);
}
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(GlFixed, depth_test, blend, cull, scissor_test, depth_func, depth_mask,
                                   blend_src_rgb, blend_dst_rgb, blend_src_alpha, blend_dst_alpha, blend_equation,
                                   cull_face, front_face, viewport, depth_range, polygon_offset_fill,
                                   polygon_offset_factor, polygon_offset_units, scissor, color_mask, clear_color,
                                   clear_depth, framebuffer, target)

namespace {

using json = nlohmann::json;

// The file: this line, then one msgpack map.
constexpr std::string_view kMagic = "STROBE-FRAMES\n";
constexpr int kVersion = 1;

// ---- writing: shared contents go to pools once, referred to by index.

struct Pools {
  /// Where byte contents go when they are not kept in the file's own pool (a capture's blobs).
  const PutContent* put = nullptr;
  std::map<const std::vector<uint8_t>*, size_t> blob_index;
  std::map<const GlProgram*, size_t> program_index;
  std::map<const std::map<std::string, std::vector<uint8_t>>*, size_t> uniform_index;
  std::map<const GlTexture*, size_t> texture_index;
  json blobs = json::array(), programs = json::array(), uniforms = json::array(), textures = json::array();

  json blob(const Bytes& b) {
    if (!b) return nullptr;
    auto [it, fresh] = blob_index.try_emplace(b.get(), put ? 0 : blobs.size());
    if (fresh) {
      if (put)
        it->second = (*put)(*b);
      else
        blobs.push_back(json::binary(std::vector<uint8_t>(*b)));
    }
    return it->second;
  }
  json program(const std::shared_ptr<const GlProgram>& p) {
    if (!p) return nullptr;
    auto [it, fresh] = program_index.try_emplace(p.get(), programs.size());
    if (fresh)
      programs.push_back({{"id", p->id}, {"link_call", p->link_call}, {"vertex", p->vertex}, {"fragment", p->fragment},
                          {"attribute_locations", p->attribute_locations}});
    return it->second;
  }
  json uniform_set(const std::shared_ptr<const std::map<std::string, std::vector<uint8_t>>>& u) {
    if (!u) return nullptr;
    auto [it, fresh] = uniform_index.try_emplace(u.get(), uniforms.size());
    if (fresh) {
      json o = json::object();
      for (const auto& [name, value] : *u) o[name] = json::binary(value);
      uniforms.push_back(std::move(o));
    }
    return it->second;
  }
  json texture(const std::shared_ptr<const GlTexture>& t) {
    auto [it, fresh] = texture_index.try_emplace(t.get(), textures.size());
    if (fresh) {
      json levels = json::array();
      for (const GlTexLevel& l : t->levels)
        levels.push_back({{"width", l.width}, {"height", l.height}, {"format", l.format}, {"type", l.type},
                          {"unpack_alignment", l.unpack_alignment}, {"pixels", blob(l.pixels)},
                          {"internal_format", l.internal_format}});
      textures.push_back({{"name", t->name}, {"version", t->version}, {"levels", std::move(levels)},
                          {"min_filter", t->min_filter}, {"mag_filter", t->mag_filter}, {"wrap_s", t->wrap_s},
                          {"wrap_t", t->wrap_t}, {"generate_mipmap", t->generate_mipmap}});
    }
    return it->second;
  }
};

json op_json(const GlDraw& d, Pools& p) {
  json attribs = json::array();
  for (const auto& [index, a] : d.attribs)
    attribs.push_back({{"index", index}, {"enabled", a.enabled}, {"size", a.size}, {"type", a.type},
                       {"normalized", a.normalized}, {"stride", a.stride}, {"offset", a.offset}, {"buffer", a.buffer},
                       {"data", p.blob(a.data)}, {"current", a.current}});
  json textures = json::array();
  for (const auto& [unit, t] : d.textures) textures.push_back({{"unit", unit}, {"texture", t ? p.texture(t) : json()}});
  return {{"op", "draw"}, {"call", d.call}, {"mode", d.mode}, {"first", d.first}, {"count", d.count},
          {"index_type", d.index_type}, {"index_offset", d.index_offset}, {"indices", p.blob(d.indices)},
          {"program", p.program(d.program)}, {"uniforms", p.uniform_set(d.uniforms)}, {"attribs", std::move(attribs)},
          {"textures", std::move(textures)}, {"fixed", json(d.fixed)}};
}

json op_json(const GlClear& c, Pools&) {
  return {{"op", "clear"}, {"call", c.call}, {"mask", c.mask}, {"fixed", json(c.fixed)}};
}

json op_json(const GlBlit& b, Pools&) {
  return {{"op", "blit"}, {"call", b.call}, {"src", b.src}, {"dst", b.dst}, {"mask", b.mask}, {"linear", b.linear},
          {"read", json(b.read)}, {"fixed", json(b.fixed)}};
}

// ---- reading: the pools become shared objects again.

struct Shared {
  /// Where byte contents come from when the file's own pool does not hold them.
  const GetContent* get = nullptr;
  std::vector<Bytes> blobs;
  std::vector<std::shared_ptr<const GlProgram>> programs;
  std::vector<std::shared_ptr<const std::map<std::string, std::vector<uint8_t>>>> uniforms;
  std::vector<std::shared_ptr<const GlTexture>> textures;

  template <class T>
  static const T& at(const std::vector<T>& v, const json& index, const char* what) {
    const size_t i = index.get<size_t>();
    if (i >= v.size()) throw InputError(fmt::format("{} {} of {}", what, i, v.size()));
    return v[i];
  }
  Bytes blob(const json& j) const {
    if (j.is_null()) return nullptr;
    return get ? (*get)(j.get<uint64_t>()) : at(blobs, j, "blob");
  }
};

/// The largest render target or texture side a frame may have (GL_MAX_TEXTURE_SIZE and
/// GL_MAX_RENDERBUFFER_SIZE of the GPUs captured, RADV's included): a larger one is a damaged
/// file, whose buffers would otherwise grow host memory without bound.
constexpr uint32_t kMaxSide = 16384;

/// Refuses a target of `what` larger than kMaxSide on a side, naming it and its size.
const GlTarget& checked(const GlTarget& t, const char* what) {
  if (t.width > kMaxSide || t.height > kMaxSide)
    throw InputError(fmt::format("{} {}x{}: larger than {}x{}", what, t.width, t.height, kMaxSide, kMaxSide));
  return t;
}

Shared shared_of(const json& file, const GetContent* get = nullptr) {
  Shared s;
  s.get = get;
  if (!get)
    for (const json& b : file.at("blobs"))
      s.blobs.push_back(std::make_shared<const std::vector<uint8_t>>(b.get_binary()));
  for (const json& p : file.at("programs")) {
    auto g = std::make_shared<GlProgram>();
    g->id = p.at("id");
    g->link_call = p.at("link_call");
    g->vertex = p.at("vertex");
    g->fragment = p.at("fragment");
    g->attribute_locations = p.at("attribute_locations").get<std::map<std::string, int>>();
    s.programs.push_back(std::move(g));
  }
  for (const json& u : file.at("uniforms")) {
    auto m = std::make_shared<std::map<std::string, std::vector<uint8_t>>>();
    for (const auto& [name, value] : u.items()) (*m)[name] = value.get_binary();
    s.uniforms.push_back(std::move(m));
  }
  for (const json& t : file.at("textures")) {
    auto x = std::make_shared<GlTexture>();
    x->name = t.at("name");
    x->version = t.at("version");
    for (const json& l : t.at("levels")) {
      GlTexLevel v;
      v.width = strict_u32(l, "width");
      v.height = strict_u32(l, "height");
      if (v.width > kMaxSide || v.height > kMaxSide)
        throw InputError(fmt::format("texture {} level {}: {}x{} is larger than {}x{}", x->name, x->levels.size(),
                                     v.width, v.height, kMaxSide, kMaxSide));
      v.format = l.at("format");
      v.type = l.at("type");
      v.unpack_alignment = l.at("unpack_alignment");
      v.pixels = s.blob(l.at("pixels"));
      v.internal_format = l.at("internal_format");
      x->levels.push_back(std::move(v));
    }
    x->min_filter = t.at("min_filter");
    x->mag_filter = t.at("mag_filter");
    x->wrap_s = t.at("wrap_s");
    x->wrap_t = t.at("wrap_t");
    x->generate_mipmap = t.at("generate_mipmap");
    s.textures.push_back(std::move(x));
  }
  return s;
}

std::variant<GlClear, GlDraw, GlBlit> op_of(const json& j, const Shared& s) {
  const std::string kind = j.at("op");
  if (kind == "clear") {
    GlClear c;
    c.call = j.at("call");
    c.mask = j.at("mask");
    c.fixed = j.at("fixed").get<GlFixed>();
    checked(c.fixed.target, "a clear's render target");
    return c;
  }
  if (kind == "blit") {
    GlBlit b;
    b.call = j.at("call");
    b.src = j.at("src");
    b.dst = j.at("dst");
    b.mask = j.at("mask");
    b.linear = j.at("linear");
    b.read = checked(j.at("read").get<GlTarget>(), "a blit's source");
    b.fixed = j.at("fixed").get<GlFixed>();
    checked(b.fixed.target, "a blit's destination");
    return b;
  }
  if (kind != "draw") throw InputError(fmt::format("an operation '{}'", kind));
  GlDraw d;
  d.call = j.at("call");
  d.mode = j.at("mode");
  d.first = j.at("first");
  d.count = j.at("count");
  d.index_type = j.at("index_type");
  d.index_offset = j.at("index_offset");
  d.indices = s.blob(j.at("indices"));
  if (!j.at("program").is_null()) d.program = Shared::at(s.programs, j.at("program"), "program");
  if (!j.at("uniforms").is_null()) d.uniforms = Shared::at(s.uniforms, j.at("uniforms"), "uniform set");
  for (const json& a : j.at("attribs")) {
    GlAttrib x;
    x.enabled = a.at("enabled");
    x.size = a.at("size");
    x.type = a.at("type");
    x.normalized = a.at("normalized");
    x.stride = a.at("stride");
    x.offset = a.at("offset");
    x.buffer = a.at("buffer");
    x.data = s.blob(a.at("data"));
    x.current = a.at("current");
    d.attribs[a.at("index").get<int>()] = std::move(x);
  }
  for (const json& t : j.at("textures"))
    d.textures[t.at("unit").get<int>()] =
        t.at("texture").is_null() ? nullptr : Shared::at(s.textures, t.at("texture"), "texture");
  d.fixed = j.at("fixed").get<GlFixed>();
  checked(d.fixed.target, "a draw's render target");
  return d;
}

json frame_json(const GlFrame& f, uint64_t index, Pools& pools) {
  json ops = json::array();
  for (const auto& op : f.ops) ops.push_back(std::visit([&](const auto& o) { return op_json(o, pools); }, op));
  return {{"index", index}, {"first_call", f.first_call}, {"ops", std::move(ops)}};
}

GlFrame frame_of(const json& f, const Shared& shared) {
  GlFrame frame;
  frame.first_call = f.at("first_call");
  for (const json& op : f.at("ops")) frame.ops.push_back(op_of(op, shared));
  return frame;
}

}  // namespace

std::string encode_frame(const GlFrame& frame, uint64_t index, const PutContent& put) {
  Pools pools;
  pools.put = &put;
  json j = frame_json(frame, index, pools);
  j["programs"] = std::move(pools.programs);
  j["uniforms"] = std::move(pools.uniforms);
  j["textures"] = std::move(pools.textures);
  const std::vector<uint8_t> bytes = json::to_msgpack(j);
  return std::string(bytes.begin(), bytes.end());
}

std::pair<uint64_t, GlFrame> decode_frame(std::string_view bytes, const GetContent& get, const std::string& what) {
  try {
    const json j = json::from_msgpack(bytes.begin(), bytes.end());
    const Shared shared = shared_of(j, &get);
    return {j.at("index").get<uint64_t>(), frame_of(j, shared)};
  } catch (const InputError& e) {
    if (std::string_view(e.what()).rfind(what, 0) == 0) throw;
    throw InputError(fmt::format("{}: malformed frame: {}", what, e.what()));
  } catch (const json::exception& e) {
    throw InputError(fmt::format("{}: malformed frame: {}", what, e.what()));
  }
}

size_t write_frame_file(const std::string& out, const std::string& trace, const std::vector<FrameRange>& ranges) {
  Pools pools;
  json frames = json::array();
  FrameStream stream(trace, ranges);
  GlFrame f;
  uint64_t index = 0;
  while (stream.next(f, index)) frames.push_back(frame_json(f, index, pools));
  const FrameRange& last = ranges.back();
  if (last.last != UINT64_MAX && stream.frames_seen() <= last.last)
    throw InputError(fmt::format("{}: frames up to {} asked for, but the trace has {} frames", trace, last.last,
                                 stream.frames_seen()));
  const size_t n = frames.size();
  const json file{{"format", "strobe-frames"}, {"version", kVersion},  {"trace", trace},
                  {"frames", std::move(frames)}, {"blobs", std::move(pools.blobs)}, {"programs", std::move(pools.programs)},
                  {"uniforms", std::move(pools.uniforms)}, {"textures", std::move(pools.textures)}};
  const std::vector<uint8_t> bytes = json::to_msgpack(file);
  std::string content(kMagic);
  content.append(reinterpret_cast<const char*>(bytes.data()), bytes.size());
  write_file_atomic(out, content);
  return n;
}

bool is_frame_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::string head(kMagic.size(), '\0');
  return in.read(head.data(), std::streamsize(head.size())) && head == kMagic;
}

FrameFile read_frame_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(fmt::format("{}: cannot read the frame file", path));
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (bytes.compare(0, kMagic.size(), kMagic) != 0)
    throw InputError(fmt::format("{}: not a strobe frame file (strobe frames gfx:TRACE --frames A-B -o FILE writes one)", path));
  try {
    const json file = json::from_msgpack(bytes.begin() + std::ptrdiff_t(kMagic.size()), bytes.end());
    if (file.at("format") != "strobe-frames" || file.at("version") != kVersion)
      throw InputError(fmt::format("{}: a frame file of format {} version {}; this strobe reads strobe-frames "
                                   "version {}", path, file.at("format").dump(), file.at("version").dump(), kVersion));
    const Shared shared = shared_of(file);
    FrameFile out;
    out.trace = file.at("trace");
    for (const json& f : file.at("frames")) {
      GlFrame frame = frame_of(f, shared);
      const uint64_t index = f.at("index");
      if (!out.frames.empty() && index <= out.frames.back().first)
        throw InputError(fmt::format("frame {} after frame {}", index, out.frames.back().first));
      out.frames.emplace_back(index, std::move(frame));
    }
    return out;
  } catch (const InputError& e) {
    if (std::string_view(e.what()).rfind(path, 0) == 0) throw;
    throw InputError(fmt::format("{}: malformed frame file: {}", path, e.what()));
  } catch (const json::exception& e) {
    throw InputError(fmt::format("{}: malformed frame file: {}", path, e.what()));
  }
}

}  // namespace strobe::gfx
