// strobe's own frame file: a window of the small glmark2 capture written and read back renders
// exactly as the same frames streamed from the trace, shares what the trace shared, and bad
// files are refused by name.
#include "gfx/stream/frame_file.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <variant>

#include <nlohmann/json.hpp>

#include "common/error.h"
#include "gfx/pipeline/renderer.h"

namespace strobe::gfx {
namespace {

const std::string kTrace = STROBE_BUILD_DIR "/gfx-traces/glmark2-small.trace";

std::string temp(const std::string& name) { return ::testing::TempDir() + name; }

/// Every frame of `path` in `ranges`, rendered: counts and the window's pixels.
std::vector<std::pair<FrameStats, std::vector<uint8_t>>> render(const std::string& path,
                                                                const std::vector<FrameRange>& ranges) {
  std::vector<std::pair<FrameStats, std::vector<uint8_t>>> out;
  render_trace(path, ranges, RendererOptions{}, [&](const FrameStats& s, const Renderer& r) {
    out.emplace_back(s, r.window().color);
  });
  return out;
}

TEST(FrameFile, AWindowReadBackRendersExactlyAsTheTraceDoes) {
  ASSERT_TRUE(std::filesystem::exists(kTrace)) << "made by scripts/setup (scripts/capture-gfx glmark2-small)";
  const std::string file = temp("window.frames");
  EXPECT_EQ(write_frame_file(file, kTrace, {{3, 6}}), 4u);
  EXPECT_TRUE(is_frame_file(file));
  EXPECT_FALSE(is_frame_file(kTrace));
  const FrameFile f = read_frame_file(file);
  EXPECT_EQ(f.trace, kTrace);
  ASSERT_EQ(f.frames.size(), 4u);
  EXPECT_EQ(f.frames.front().first, 3u);
  // Draws of one scene read the same vertex buffer: stored once, shared again.
  const auto* d4 = std::get_if<GlDraw>(&f.frames[1].second.ops.back());
  const auto* d5 = std::get_if<GlDraw>(&f.frames[2].second.ops.back());
  ASSERT_TRUE(d4 && d5);
  EXPECT_EQ(d4->program.get(), d5->program.get());
  ASSERT_FALSE(d4->attribs.empty());
  EXPECT_EQ(d4->attribs.begin()->second.data.get(), d5->attribs.begin()->second.data.get());

  const auto from_trace = render(kTrace, {{3, 6}});
  const auto from_file = render(file, {{3, 6}});
  ASSERT_EQ(from_file.size(), from_trace.size());
  for (size_t i = 0; i < from_trace.size(); ++i) {
    nlohmann::json a = to_json(from_trace[i].first), b = to_json(from_file[i].first);
    for (const char* k : {"seconds", "cpu_seconds"}) a.erase(k), b.erase(k);
    EXPECT_EQ(a, b) << "frame " << from_trace[i].first.frame;
    EXPECT_EQ(from_trace[i].second, from_file[i].second) << "frame " << from_trace[i].first.frame;
  }
  // A part of the window, and to its end.
  EXPECT_EQ(render(file, {{5, 5}}).size(), 1u);
  EXPECT_EQ(render(file, {{4, UINT64_MAX}}).size(), 3u);
}

TEST(FrameFile, FramesOutsideTheWindowAndBadFilesAreRefusedByName) {
  const std::string file = temp("small.frames");
  write_frame_file(file, kTrace, {{0, 1}});
  try {
    render(file, {{0, 2}});
    FAIL() << "frame 2 is not in the file";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("frame 2 asked for"), std::string::npos) << e.what();
  }
  // Truncated: the header is there, the msgpack is not whole.
  std::ifstream in(file, std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::string cut = temp("cut.frames");
  std::ofstream(cut, std::ios::binary) << bytes.substr(0, bytes.size() / 2);
  EXPECT_TRUE(is_frame_file(cut));
  try {
    read_frame_file(cut);
    FAIL() << "a truncated file";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find(cut), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("malformed"), std::string::npos) << e.what();
  }
  const std::string other = temp("other.frames");
  std::ofstream(other, std::ios::binary) << "not frames";
  EXPECT_THROW(read_frame_file(other), InputError);
  EXPECT_THROW(write_frame_file(temp("past.frames"), kTrace, {{10, 40}}), InputError);
}

TEST(FrameFile, B04_ARenderTargetOrTextureLargerThanAnyGpuTakesIsRefusedNamingIt) {
  // A damaged file's 65535x65535 target grew host memory without bound.
  std::vector<std::vector<uint8_t>> store;
  const PutContent put = [&](const std::vector<uint8_t>& b) {
    store.push_back(b);
    return uint64_t(store.size() - 1);
  };
  const GetContent get = [&](uint64_t i) { return std::make_shared<const std::vector<uint8_t>>(store.at(i)); };
  GlFrame frame;
  GlClear clear;
  clear.fixed.target.width = 65535;
  clear.fixed.target.height = 65535;
  frame.ops.push_back(clear);
  const std::string bytes = encode_frame(frame, 0, put);
  try {
    decode_frame(bytes, get, "frame 0 of w.cap");
    FAIL() << "a 65535x65535 target was accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("frame 0 of w.cap"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("a clear's render target 65535x65535: larger than 16384x16384"),
              std::string::npos)
        << e.what();
  }
  std::get<GlClear>(frame.ops[0]).fixed.target.width = 800;
  std::get<GlClear>(frame.ops[0]).fixed.target.height = 600;
  EXPECT_EQ(decode_frame(encode_frame(frame, 3, put), get, "frame 3").first, 3u);
  // A size no 32-bit field holds (1e62, -1) was cast by the reader before the check saw it.
  for (const nlohmann::json bad : {nlohmann::json(1e62), nlohmann::json(-1), nlohmann::json(600.5)}) {
    nlohmann::json j = nlohmann::json::from_msgpack(encode_frame(frame, 4, put));
    const std::function<void(nlohmann::json&)> damage = [&](nlohmann::json& v) {
      if (v.is_object() && v.contains("height") && v["height"] == 600) v["height"] = bad;
      if (v.is_structured())
        for (auto& x : v) damage(x);
    };
    damage(j);
    const std::vector<uint8_t> damaged = nlohmann::json::to_msgpack(j);
    try {
      decode_frame({reinterpret_cast<const char*>(damaged.data()), damaged.size()}, get, "frame 4 of w.cap");
      FAIL() << "a height of " << bad.dump() << " was accepted";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find("frame 4 of w.cap"), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("'height' is " + bad.dump() + ", not a size"), std::string::npos) << e.what();
    }
  }
}

}  // namespace
}  // namespace strobe::gfx
