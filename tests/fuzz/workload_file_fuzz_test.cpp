// Fuzzing the files that describe work (fuzz_harness.h): code objects, frame files, apitrace
// traces, and the reference renderer's image streams that frames are checked against.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cli/cli_runner.h"
#include "common/error.h"
#include "fuzz_harness.h"
#include "gfx/pipeline/image_compare.h"
#include "gfx/stream/frame_file.h"
#include "gfx/stream/frame_stream.h"
#include "isa/listing.h"
#include "loader/code_object.h"

namespace strobe::fuzz {
namespace {

using clitest::slurp;
using clitest::TempDir;

TEST(FileFuzz, FramesAreDecodedOrRefusedWithInputError) {
  std::vector<std::vector<uint8_t>> store;
  const gfx::PutContent keep = [&](const std::vector<uint8_t>& b) {
    store.push_back(b);
    return uint64_t(store.size() - 1);
  };
  gfx::GlFrame frame;
  gfx::GlClear clear;
  clear.fixed.target.width = 400;
  clear.fixed.target.height = 300;
  frame.ops.push_back(clear);
  frame.ops.push_back(clear);
  const std::string seed = gfx::encode_frame(frame, 7, keep);
  const gfx::GetContent get = [&](uint64_t i) {
    if (i >= store.size()) throw InputError("no content " + std::to_string(i));
    return std::make_shared<const std::vector<uint8_t>>(store[i]);
  };
  // A frame is one msgpack document: half the mutants edit its bytes, half its fields.
  const size_t refused = fuzz("frame", seed, msgpack_mutator("frame"), mutants(2000),
                              [&](const std::string& b) { (void)gfx::decode_frame(b, get, "frame 7"); });
  EXPECT_GT(refused, 0u);
}

TEST(FileFuzz, CodeObjectsAreParsedOrRefusedWithInputError) {
  // The loader's own robustness test mutates every code object's headers and tables; this is the
  // same reader under the harness's mutations, counted with the other kinds.
  const std::string seed = slurp(clitest::kernel("vecadd"));
  ASSERT_FALSE(seed.empty());
  EXPECT_GT(fuzz("code_object", seed, false, mutants(2000),
                 [](const std::string& b) {
                   (void)loader::CodeObject::parse(std::vector<uint8_t>(b.begin(), b.end()), "k.hsaco");
                 }),
            0u);
}

TEST(FileFuzz, Gfx942CodeObjectsAreListedOrRefusedWithInputError) {
  // strobe disasm's path for gfx942: the loader reads the file for decoding only, and its .text
  // is listed as gfx942 code, so mutated words reach the decoder too.
  const fs::path f = fs::path(STROBE_BUILD_DIR) / "gfx942-kernels" / "tests" / "vecadd.hsaco";
  if (!fs::exists(f)) GTEST_SKIP() << "no clang-19 build: " << f;
  EXPECT_GT(fuzz("code_object_gfx942", slurp(f), false, mutants(2000),
                 [](const std::string& b) {
                   const loader::CodeObject co = loader::CodeObject::parse(std::vector<uint8_t>(b.begin(), b.end()),
                                                                           "k.hsaco", loader::Accept::Decodable);
                   (void)isa::list_section({".text", co.text_address(), co.text(), {}, isa::Target::Gfx942});
                 }),
            0u);
}

TEST(FileFuzz, ApitraceTracesAreReplayedOrRefusedWithInputError) {
  // Each mutant is a whole trace read frame by frame through the state tracker (the small
  // glmark2 capture scripts/setup makes); most end early, in its compressed container.
  const fs::path trace = fs::path(STROBE_BUILD_DIR) / "gfx-traces" / "glmark2-small.trace";
  if (!fs::exists(trace)) GTEST_SKIP() << "no " << trace << " (scripts/capture-gfx glmark2-small)";
  TempDir t;
  const fs::path file = t.path / "m.trace";
  EXPECT_GT(fuzz("trace", slurp(trace), false, mutants(1000),
                 [&](const std::string& b) {
                   gfx::FrameStream stream(put(file, b), {{0, UINT64_MAX}});
                   gfx::GlFrame f;
                   uint64_t index = 0;
                   while (stream.next(f, index)) {
                   }
                 }),
            0u);
}

TEST(FileFuzz, ReferenceImageStreamsAreReadOrRefusedWithInputError) {
  const fs::path trace = fs::path(STROBE_BUILD_DIR) / "gfx-traces" / "glmark2-small.trace";
  if (!fs::exists(trace)) GTEST_SKIP() << "no " << trace << " (scripts/capture-gfx glmark2-small)";
  TempDir t;
  // The reference renderer's stream of binary PPM images, one per frame.
  const std::string images = slurp(trace.parent_path() / "glmark2-small.ref.pnm");
  ASSERT_FALSE(images.empty());
  const fs::path pnm = t.path / "m.pnm";
  EXPECT_GT(fuzz("reference_images", images, false, mutants(1000),
                 [&](const std::string& b) { (void)gfx::read_pnm_stream(put(pnm, b)); }),
            0u);
}

}  // namespace
}  // namespace strobe::fuzz
