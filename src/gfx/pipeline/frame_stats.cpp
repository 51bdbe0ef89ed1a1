#include "gfx/pipeline/frame_stats.h"

#include <nlohmann/json.hpp>

namespace strobe::gfx {
namespace {

// Every scalar counter, once, for adding and printing alike.
template <class S, class F>
void each_counter(S& s, F&& f) {
  f("clears", s.clears), f("draws", s.draws), f("blits", s.blits), f("vertices", s.vertices), f("vs_invocations", s.vs_invocations);
  f("primitives", s.primitives), f("frustum_culled", s.frustum_culled), f("clipped", s.clipped);
  f("face_culled", s.face_culled), f("rasterized", s.rasterized), f("bin_entries", s.bin_entries);
  f("quads", s.quads), f("fragments", s.fragments), f("hiz_rejected_quads", s.hiz_rejected_quads);
  f("early_z_tested", s.early_z_tested);
  f("early_z_passed", s.early_z_passed), f("late_z_tested", s.late_z_tested), f("late_z_passed", s.late_z_passed);
  f("ps_invocations", s.ps_invocations), f("helper_lanes", s.helper_lanes), f("discarded", s.discarded);
  f("pixels_written", s.pixels_written), f("blended_pixels", s.blended_pixels);
}

constexpr const char* kFilterNames[emu::kTexFilterKinds] = {"point", "bilinear", "trilinear"};

}  // namespace

ShaderCounts& ShaderCounts::operator+=(const ShaderCounts& o) {
  invocations += o.invocations;
  waves += o.waves;
  wave_instructions += o.wave_instructions;
  sample_instructions += o.sample_instructions;
  sample_lanes += o.sample_lanes;
  texel_fetches += o.texel_fetches;
  return *this;
}

double ShaderCounts::texture_weighted_instructions() const {
  if (!sample_lanes) return double(wave_instructions);
  const double per_lane = double(texel_fetches) / double(sample_lanes);
  return double(wave_instructions) + double(sample_instructions) * (per_lane - 1);
}

FrameStats& FrameStats::operator+=(const FrameStats& o) {
  // Pair each counter of this with the same counter of `o` by walking both in the same order.
  std::array<uint64_t, 32> theirs{};
  size_t k = 0;
  each_counter(o, [&](const char*, const uint64_t& v) { theirs[k++] = v; });
  k = 0;
  each_counter(*this, [&](const char*, uint64_t& v) { v += theirs[k++]; });
  for (int f = 0; f < emu::kTexFilterKinds; ++f) {
    sample_lanes[size_t(f)] += o.sample_lanes[size_t(f)];
    texel_fetches[size_t(f)] += o.texel_fetches[size_t(f)];
  }
  for (auto [mine_map, theirs_map] : {std::pair{&vertex_shaders, &o.vertex_shaders}, std::pair{&pixel_shaders, &o.pixel_shaders}})
    for (const auto& [name, c] : *theirs_map) {
      ShaderCounts& mine = (*mine_map)[name];
      mine += c;
    }
  seconds += o.seconds;
  cpu_seconds += o.cpu_seconds;
  return *this;
}

FrameStats frame_stats_from_json(const nlohmann::json& j) {
  FrameStats s;
  s.frame = j.value("frame", uint64_t{0});
  each_counter(s, [&](const char* name, uint64_t& v) { v = j.value(name, uint64_t{0}); });
  for (int f = 0; f < emu::kTexFilterKinds; ++f) {
    if (j.contains("sample_lanes")) s.sample_lanes[size_t(f)] = j["sample_lanes"].value(kFilterNames[f], uint64_t{0});
    if (j.contains("texel_fetches")) s.texel_fetches[size_t(f)] = j["texel_fetches"].value(kFilterNames[f], uint64_t{0});
  }
  for (auto [key, map] : {std::pair{"vertex_shaders", &s.vertex_shaders}, std::pair{"pixel_shaders", &s.pixel_shaders}}) {
    const nlohmann::json programs = j.value(key, nlohmann::json::object());  // must outlive items()
    for (const auto& [name, c] : programs.items())
      (*map)[name] = {c.value("invocations", uint64_t{0}),         c.value("waves", uint64_t{0}),
                      c.value("wave_instructions", uint64_t{0}),   c.value("sample_instructions", uint64_t{0}),
                      c.value("sample_lanes", uint64_t{0}),        c.value("texel_fetches", uint64_t{0})};
  }
  s.seconds = j.value("seconds", 0.0);
  s.cpu_seconds = j.value("cpu_seconds", 0.0);
  return s;
}

nlohmann::json to_json(const FrameStats& s) {
  nlohmann::json j{{"frame", s.frame}};
  each_counter(s, [&](const char* name, const uint64_t& v) { j[name] = v; });
  for (int f = 0; f < emu::kTexFilterKinds; ++f) {
    j["sample_lanes"][kFilterNames[f]] = s.sample_lanes[size_t(f)];
    j["texel_fetches"][kFilterNames[f]] = s.texel_fetches[size_t(f)];
  }
  for (auto [key, map] : {std::pair{"vertex_shaders", &s.vertex_shaders}, std::pair{"pixel_shaders", &s.pixel_shaders}}) {
    nlohmann::json m = nlohmann::json::object();
    for (const auto& [name, c] : *map)
      m[name] = {{"invocations", c.invocations},       {"waves", c.waves},
                 {"wave_instructions", c.wave_instructions}, {"sample_instructions", c.sample_instructions},
                 {"sample_lanes", c.sample_lanes},           {"texel_fetches", c.texel_fetches}};
    j[key] = std::move(m);
  }
  j["seconds"] = s.seconds;
  j["cpu_seconds"] = s.cpu_seconds;
  return j;
}

}  // namespace strobe::gfx
