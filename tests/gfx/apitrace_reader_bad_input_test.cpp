// Bad input to the apitrace reader: each defect raises one strobe::InputError naming the file,
// where in it (call number, byte offset) and why; none crashes or raises anything else.
#include <gtest/gtest.h>

#include <random>

#include "common/error.h"
#include "gfx/trace/apitrace_reader.h"
#include "gfx/trace_builder.h"

namespace strobe::gfx::trace {
namespace {

/// Reads every call of `file`; returns the InputError's message, or "" when it reads cleanly.
/// Any other exception fails the test.
std::string read_all(const std::string& bytes, std::string_view name = "bad.trace") {
  TempFile f(name, bytes);
  try {
    ApitraceReader r(f.path());
    while (r.next()) {
    }
  } catch (const InputError& e) {
    const std::string what = e.what();
    EXPECT_TRUE(what.starts_with(f.path() + ": ")) << what;
    return what;
  } catch (const std::exception& e) {
    ADD_FAILURE() << "not an InputError: " << e.what();
    return "not an InputError";
  }
  return "";
}

#define EXPECT_ERROR(bytes, text) EXPECT_PRED_FORMAT2(::testing::IsSubstring, text, read_all(bytes))

// A well-formed call to build defects on: glFlush, signature id 1, no arguments.
TraceBuilder one_call() {
  TraceBuilder t;
  t.enter(0, 1, "glFlush", {}).end().leave(0).end();
  return t;
}

TEST(ApitraceReaderBadInput, NotATrace) {
  EXPECT_ERROR("", "file byte 0: empty file, not an apitrace trace");
  EXPECT_ERROR("a", "not an apitrace trace");
  EXPECT_ERROR("#version 330\nvoid main() {}\n", "file byte 0: not an apitrace trace");
  EXPECT_ERROR("\x1f\x8b\x08\x00", "a gzip-compressed trace");
  EXPECT_ERROR("\x28\xb5\x2f\xfd", "a zstd-compressed trace");
  EXPECT_ERROR("at", "file byte 2: no trace data");
  const std::string missing = "/nonexistent/strobe-gfx.trace";
  try {
    ApitraceReader r(missing);
    ADD_FAILURE() << "opened a missing file";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), missing + ": cannot open: No such file or directory");
  }
}

TEST(ApitraceReaderBadInput, TruncatedFile) {
  const std::string file = one_call().file();
  EXPECT_ERROR(file.substr(0, 4), "file byte 2: truncated: the file ends inside a snappy chunk's length");
  EXPECT_ERROR(file.substr(0, file.size() - 1), "file byte 2: truncated: the snappy chunk here holds");
  // Cut at a chunk boundary, the container is whole but the last event is not.
  const std::string data = one_call().data();
  EXPECT_ERROR(snappy_container(data.substr(0, data.size() - 1)),
               "call 0, trace data byte 18 (in the snappy chunk at file byte 2): truncated: the trace data ends "
               "in the middle of an event");
}

TEST(ApitraceReaderBadInput, BadSnappyChunk) {
  std::string file = one_call().file();
  file[6] = '\x7f';  // the uncompressed length (snappy's own header) no longer matches the data
  EXPECT_ERROR(file, "file byte 2: bad snappy chunk");
  std::string huge = "at";
  huge += std::string("\xff\xff\xff\x7f", 4);
  EXPECT_ERROR(huge, "file byte 2: bad snappy chunk: a compressed length of 2147483647 bytes");
  EXPECT_ERROR(std::string("at\0\0\0\0", 6), "file byte 2: bad snappy chunk: a compressed length of 0 bytes");
  // A second chunk that is garbage: the error names its offset, after the first one.
  const std::string good = one_call().file();
  const std::string second = good + std::string("\x05\0\0\0\xff\xff\xff\xff\xff", 9);
  EXPECT_ERROR(second, "file byte " + std::to_string(good.size()) + ": bad snappy chunk");
}

TEST(ApitraceReaderBadInput, UnknownValueType) {
  TraceBuilder t;
  t.enter(0, 1, "glFlush", {}).end().leave(0).end();
  t.enter(0, 2, "glEnable", {"cap"}).arg(0).byte(0x10);
  EXPECT_ERROR(t.file(), "call 1, trace data byte 38 (in the snappy chunk at file byte 2): unknown value type 0x10");
}

TEST(ApitraceReaderBadInput, UnknownEventAndCallDetail) {
  TraceBuilder event = one_call();
  event.byte(0x02);
  EXPECT_ERROR(event.file(), "trace data byte 19 (in the snappy chunk at file byte 2): unknown event type 0x02");
  TraceBuilder detail;
  detail.enter(0, 1, "glFlush", {}).byte(0x09);
  EXPECT_ERROR(detail.file(), "call 0, trace data byte 15 (in the snappy chunk at file byte 2): unknown call detail 0x09");
}

TEST(ApitraceReaderBadInput, SignatureIdOutOfRange) {
  TraceBuilder fn;
  fn.enter(0, uint64_t{1} << 40, "glFlush", {});
  EXPECT_ERROR(fn.file(), "call 0, trace data byte 5 (in the snappy chunk at file byte 2): function signature id "
                          "1099511627776 is out of range");
  TraceBuilder en;
  en.enter(0, 1, "glEnable", {"cap"}).arg(0).byte(0x09).uint(uint64_t{1} << 21);
  EXPECT_ERROR(en.file(), "enum signature id 2097152 is out of range");
  TraceBuilder st;
  st.enter(0, 1, "f", {"s"}).arg(0).byte(0x0c).uint(uint64_t{1} << 30);
  EXPECT_ERROR(st.file(), "struct signature id 1073741824 is out of range");
}

TEST(ApitraceReaderBadInput, EventsThatContradictTheCallsOpen) {
  TraceBuilder never = one_call();
  never.leave(5).end();
  EXPECT_ERROR(never.file(), "call 5, trace data byte 19 (in the snappy chunk at file byte 2): a leave event for "
                             "call 5, which is not open");
  TraceBuilder twice = one_call();
  twice.leave(0).end();
  EXPECT_ERROR(twice.file(), "a leave event for call 0, which is not open");
  TraceBuilder arg;
  arg.enter(0, 1, "glEnable", {"cap"}).arg(3).uint_value(1);
  EXPECT_ERROR(arg.file(), "call 0, trace data byte 21 (in the snappy chunk at file byte 2): argument 3 of glEnable, "
                           "which has 1 parameters");
}

TEST(ApitraceReaderBadInput, ImpossibleNumbers) {
  TraceBuilder version(7);
  EXPECT_ERROR(version.file(), "trace format version 7 is newer than this reader's (6)");
  TraceBuilder semantic(6);
  std::string data = semantic.data();
  data[1] = 9;  // semantic version 9 of format version 6
  EXPECT_ERROR(snappy_container(data), "semantic version 9 is above the format version 6");
  TraceBuilder varint;
  varint.enter(0, 1, "f", {"a"}).arg(0).byte(0x04).raw(std::string(11, '\xff'));
  EXPECT_ERROR(varint.file(), "an unsigned integer longer than 10 bytes");
  TraceBuilder wide;
  wide.enter(0, 1, "f", {"a"}).arg(0).byte(0x04).raw(std::string(9, '\xff')).byte(0x02);
  EXPECT_ERROR(wide.file(), "an unsigned integer wider than 64 bits");
  TraceBuilder enum_value;
  enum_value.enter(0, 1, "f", {"a"}).arg(0).byte(0x09).uint(1).uint(1).str("X").byte(0x07);
  EXPECT_ERROR(enum_value.file(), "an integer (type byte 0x03 or 0x04) expected, found type byte 0x07");
}

TEST(ApitraceReaderBadInput, NestingDeeperThanTheLimit) {
  TraceBuilder t;
  t.enter(0, 1, "f", {"a"}).arg(0);
  for (int i = 0; i < 100000; ++i) t.array(1);
  EXPECT_ERROR(t.file(), "values nested more than 64 deep");
}

TEST(ApitraceReaderBadInput, AnErrorIsRaisedAgainByLaterCalls) {
  TraceBuilder t = one_call();
  t.byte(0x07);
  TempFile f("sticky.trace", t.file());
  ApitraceReader r(f.path());
  ASSERT_NE(r.next(), nullptr);
  std::string first;
  try {
    r.next();
  } catch (const InputError& e) {
    first = e.what();
  }
  EXPECT_NE(first.find("unknown event type 0x07"), std::string::npos) << first;
  try {
    r.next();
    ADD_FAILURE() << "the reader went on after an error";
  } catch (const InputError& e) {
    EXPECT_EQ(e.what(), first);
  }
}

// Random damage to a trace holding every kind of value: to the data (so the container stays
// valid and the parser meets the damage) and to the file (so snappy does). The reader must
// either read it or raise InputError; under scripts/asan-test, without touching bad memory.
TEST(ApitraceReaderBadInput, RandomDamageRaisesInputErrorOrReadsCleanly) {
  TraceBuilder t(6, {{"process.name", "x"}});
  t.enter(0, 7, "every", {"a", "b", "c", "d", "e", "f", "g"});
  t.arg(0).string("hello").arg(1).blob(std::string(100, 'x')).arg(2).enum_def(3, {{"A", 1}, {"B", -2}}, 1);
  t.arg(3).bitmask_def(4, {{"F", 1}}, 1).arg(4).array(2).f32(1).f64(2);
  t.arg(5).struct_def(2, "S", {"m", "n"}).wstring(U"ab").repr().uint_value(1).sint(-1);
  t.arg(6).pointer(0x1234).end();
  t.enter(1, 8, "other", {"x"}).arg(0).null().end().leave(1).ret().boolean(true).end();
  t.leave(0).ret().sint(-4).end();
  const std::string data = t.data();
  std::mt19937 rng(12345);
  int clean = 0;
  for (int i = 0; i < 3000; ++i) {
    std::string d = data;
    for (int k = 0; k < 1 + i % 3; ++k) d[rng() % d.size()] = static_cast<char>(rng());
    if (i % 5 == 0) d.resize(rng() % d.size());
    if (read_all(snappy_container(d, 1 + rng() % 64)).empty()) ++clean;
  }
  const std::string file = t.file(50);
  for (int i = 0; i < 1000; ++i) {
    std::string f = file;
    f[2 + rng() % (f.size() - 2)] = static_cast<char>(rng());
    read_all(f);
  }
  EXPECT_LT(clean, 3000);  // the damage is seen (and some of it is harmless, e.g. in a string)
}

}  // namespace
}  // namespace strobe::gfx::trace
