// The apitrace reader on a real capture (glmark2 on llvmpipe, scripts/capture-gfx glmark2-small,
// which scripts/setup runs) against apitrace's own reading of the same file: every call's text
// as `apitrace dump` prints it, the frame count, and blob bytes as `apitrace dump --blobs` writes
// them.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <unistd.h>

#include <fmt/format.h>

#include "common/error.h"
#include "gfx/dump_text.h"
#include "gfx/trace/apitrace_reader.h"
#include "gfx/trace_builder.h"

namespace strobe::gfx::trace {
namespace {

namespace fs = std::filesystem;

const std::string kSmallTrace = STROBE_BUILD_DIR "/gfx-traces/glmark2-small.trace";

// The small capture's path; fails the test (rather than skipping it) when it was not captured.
#define REQUIRE_SMALL_TRACE()                                                                  \
  ASSERT_TRUE(fs::exists(kSmallTrace)) << kSmallTrace << " is missing: capture it with "      \
                                          "`scripts/capture-gfx glmark2-small " STROBE_BUILD_DIR \
                                          "/gfx-traces` (scripts/setup does)"

// stdout of `command`; fails the test when it cannot run or exits non-zero.
std::string run(const std::string& command) {
  std::string out;
  FILE* p = popen(command.c_str(), "r");
  if (!p) {
    ADD_FAILURE() << "cannot run " << command;
    return out;
  }
  char buf[1 << 16];
  for (size_t n; (n = fread(buf, 1, sizeof buf, p)) > 0;) out.append(buf, n);
  const int status = pclose(p);
  EXPECT_EQ(status, 0) << command << " failed (apitrace is installed by scripts/setup)";
  return out;
}

std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> out;
  size_t at = 0;
  for (size_t nl; (nl = text.find('\n', at)) != std::string::npos; at = nl + 1) out.push_back(text.substr(at, nl - at));
  if (at < text.size()) out.push_back(text.substr(at));
  return out;
}

// Every call (-v: the ones apitrace hides as verbose too), one per line: the properties come
// first as "// name = value" lines, and frames end with an empty line, which are left out.
TEST(ApitraceCapture, EveryCallReadsAsApitraceDumpPrintsIt) {
  REQUIRE_SMALL_TRACE();
  const std::vector<std::string> expected =
      lines(run("apitrace dump -v --color=never --multiline=no '" + kSmallTrace + "'"));
  ApitraceReader r(kSmallTrace);
  size_t e = 0;
  for (const auto& [name, value] : r.properties()) {
    ASSERT_LT(e, expected.size());
    EXPECT_EQ(fmt::format("// {} = \"{}\"", name, value), expected[e++]);
  }
  uint64_t calls = 0, frames = 0, apitrace_frames = 0, mismatches = 0;
  while (const Call* c = r.next()) {
    while (e < expected.size() && expected[e].empty()) ++e;
    ASSERT_LT(e, expected.size()) << "apitrace dump printed fewer calls than the reader read";
    if (dump_text(*c) != expected[e] && ++mismatches <= 5)
      ADD_FAILURE() << "call " << c->number() << ":\n  reader:   " << dump_text(*c) << "\n  apitrace: " << expected[e];
    ++e;
    ++calls;
    frames += c->ends_frame();
  }
  for (; e < expected.size(); ++e) EXPECT_TRUE(expected[e].empty()) << "not read: " << expected[e];
  for (const std::string& line : expected) apitrace_frames += line.find(" glXSwapBuffers(") != std::string::npos;
  EXPECT_EQ(mismatches, 0u);
  EXPECT_EQ(frames, apitrace_frames);
  // capture-gfx asks each of its 3 scenes for 4 frames
  EXPECT_EQ(frames, 12u);
  EXPECT_GT(calls, 1000u);
  EXPECT_EQ(r.file_bytes_read(), r.file_size());
}

// Sizes agree with the arguments that describe them, and the bytes agree with apitrace's.
TEST(ApitraceCapture, BufferDataBlobsHoldTheBytesApitraceExtracts) {
  REQUIRE_SMALL_TRACE();
  ApitraceReader r(kSmallTrace);
  uint64_t biggest = 0, biggest_call = 0, buffers = 0;
  std::vector<std::byte> bytes;
  while (const Call* c = r.next()) {
    if (c->name() != "glBufferData") continue;
    const Value* data = c->arg("data");
    ASSERT_NE(data, nullptr);
    if (data->kind() != ValueKind::Blob) continue;
    ++buffers;
    EXPECT_EQ(static_cast<int64_t>(data->blob().size()), c->arg("size")->integer()) << "call " << c->number();
    if (data->blob().size() > biggest) {
      biggest = data->blob().size();
      biggest_call = c->number();
      bytes.assign(data->blob().begin(), data->blob().end());
    }
  }
  ASSERT_GT(buffers, 0u);
  EXPECT_GT(biggest, 100000u) << "the horse model's vertices";
  // apitrace dump --blobs writes each blob of the calls dumped to blob_callN.bin in the cwd.
  const fs::path dir = fs::temp_directory_path() / ("strobe-gfx-blobs-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  run(fmt::format("cd '{}' && apitrace dump --blobs --calls={} '{}'", dir.string(), biggest_call, kSmallTrace));
  std::ifstream in(dir / fmt::format("blob_call{}.bin", biggest_call), std::ios::binary);
  const std::string theirs((std::istreambuf_iterator<char>(in)), {});
  fs::remove_all(dir);
  ASSERT_EQ(theirs.size(), bytes.size());
  EXPECT_EQ(std::memcmp(theirs.data(), bytes.data(), bytes.size()), 0);
}

// Cut anywhere, a real trace reads up to the cut and then raises InputError naming the file;
// cut at a chunk boundary it may read cleanly, with the calls open there marked incomplete.
TEST(ApitraceCapture, TruncatedCaptureRaisesInputErrorNamingTheFile) {
  REQUIRE_SMALL_TRACE();
  std::ifstream in(kSmallTrace, std::ios::binary);
  const std::string file((std::istreambuf_iterator<char>(in)), {});
  for (size_t cut : {size_t{1}, size_t{3}, size_t{100}, file.size() / 3, file.size() / 2, file.size() - 1}) {
    SCOPED_TRACE(cut);
    TempFile f("cut.trace", file.substr(0, cut));
    try {
      ApitraceReader r(f.path());
      while (r.next()) {
      }
      ADD_FAILURE() << "read a trace cut inside a chunk";
    } catch (const InputError& e) {
      EXPECT_TRUE(std::string(e.what()).starts_with(f.path() + ": ")) << e.what();
    }
  }
}

}  // namespace
}  // namespace strobe::gfx::trace
