// Streaming apitrace reader (see apitrace_reader.h; the value types are in apitrace_values.cpp).
// The file is "at" followed by chunks, each a little-endian uint32 length and that many bytes of
// raw snappy data (about 1 MB of trace data each); the trace data is the version header and then
// enter/leave events. Calls are numbered at their enter event and complete at their leave event,
// so a call's values come from two events that other threads' events may separate, possibly in
// different chunks: a chunk stays alive while any open call points into it.
#include "gfx/trace/apitrace_reader.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>

#include <fmt/format.h>
#include <snappy.h>

#include "common/error.h"

namespace strobe::gfx::trace {

/// One decompressed chunk of trace data, shared by the reader and the calls pointing into it.
struct Chunk {
  std::unique_ptr<char[]> data;
  size_t capacity = 0, size = 0;
  uint64_t file_offset = 0;  // of its length prefix
  uint32_t refs = 0;         // the reader's, while it parses it, plus one per call using it
};

namespace {

// apitrace writes 1 MB chunks; anything far beyond is a corrupt length, not a big chunk.
constexpr size_t kMaxChunk = size_t{64} << 20;
// Signature ids index tables; the tracers' ids are a few thousand, so a huge id is corruption
// (and would otherwise size a table to it).
constexpr uint64_t kMaxId = uint64_t{1} << 20;
// Names in one signature (parameters, members, enum values, flags).
constexpr uint64_t kMaxNames = uint64_t{1} << 16;
// Values nest (arrays of structs of arrays); a deeper nest is corruption, and recursing on it
// would exhaust the stack.
constexpr int kMaxDepth = 64;
// Calls open at once: one per thread in practice; more means leave events are missing.
constexpr size_t kMaxOpenCalls = 4096;
// Copies a call may keep after it is recycled; a 64 MB texture copy is not kept for ever.
constexpr size_t kKeepOwned = size_t{16} << 20;

enum : uint8_t { kEventEnter = 0, kEventLeave = 1 };
enum : uint8_t { kDetailEnd = 0, kDetailArg, kDetailRet, kDetailThread, kDetailBacktrace, kDetailFlags };
enum : uint8_t { kFrameEnd = 0, kFrameModule, kFrameFunction, kFrameFile, kFrameLine, kFrameOffset };
constexpr uint64_t kFlagFake = 1;
// Type bytes: a Bool is two of them (0x01 false, 0x02 true); after it, ValueKind's order.
enum : uint8_t { kTypeNull = 0, kTypeFalse, kTypeTrue, kTypeSInt, kTypeUInt, kTypeWString = 0x0f };

}  // namespace

// ---------------------------------------------------------------------------------- Call

void Call::reset() {
  for (Chunk* c : chunks_) --c->refs;
  chunks_.clear();
  args_.clear();
  ret_ = Value();
  ret_.kind_ = Value::kAbsent;
  pool_.clear();
  owned_.clear();
  if (owned_.capacity() > kKeepOwned) std::vector<char>().swap(owned_);
  wide_.clear();
  backtrace_.clear();
  fake_ = incomplete_ = false;
}

// While a call is parsed its pools grow, so values hold indices; once it is complete the pools
// are final and the indices become the pointers the accessors use.
void Call::resolve(Value& v) {
  switch (v.kind_) {
    case ValueKind::Array:
    case ValueKind::Struct:
    case ValueKind::Repr: v.ptr_.children = pool_.data() + v.ptr_.offset; break;
    case ValueKind::String:
    case ValueKind::Blob:
      if (v.owned_) v.ptr_.bytes = owned_.data() + v.ptr_.offset;
      break;
    case ValueKind::WString: v.ptr_.wide = wide_.data() + v.ptr_.offset; break;
    default: break;
  }
}

void Call::resolve() {
  for (Value& v : pool_) resolve(v);
  for (Value& v : args_) resolve(v);
  resolve(ret_);
}

// ---------------------------------------------------------------------------------- container

ApitraceReader::ApitraceReader(std::string path) : path_(std::move(path)) {
  file_ = std::fopen(path_.c_str(), "rb");
  if (!file_) throw InputError(fmt::format("{}: cannot open: {}", path_, std::strerror(errno)));
  // Chunks are read whole into the reader's own buffer; stdio's buffer would only add a copy.
  std::setvbuf(file_, nullptr, _IONBF, 0);
  std::error_code ec;
  file_size_ = std::filesystem::file_size(path_, ec);
  if (ec) file_size_ = 0;
  try {
    read_header();
  } catch (...) {
    // A constructor that throws runs no destructor: the file is closed here, or a process that
    // refuses many damaged traces runs out of descriptors.
    std::fclose(file_);
    file_ = nullptr;
    throw;
  }
}

ApitraceReader::~ApitraceReader() {
  if (file_) std::fclose(file_);
}

uint64_t ApitraceReader::position() const {
  return chunk_ ? data_base_ + static_cast<uint64_t>(p_ - chunk_->data.get()) : 0;
}

void ApitraceReader::fail(std::string_view why) { fail_at(position(), why); }

void ApitraceReader::fail_at(uint64_t at, std::string_view why) {
  std::string where;
  if (context_call_ >= 0) where = fmt::format("call {}, ", context_call_);
  if (chunk_) {
    where += fmt::format("trace data byte {}", at);
    // The offending bytes may have begun in the chunk before; then only the data offset is sure.
    if (at >= data_base_) where += fmt::format(" (in the snappy chunk at file byte {})", chunk_->file_offset);
  } else {
    where += fmt::format("file byte {}", file_pos_);
  }
  failed_ = true;
  failure_ = fmt::format("{}: {}: {}", path_, where, why);
  throw InputError(failure_);
}

void ApitraceReader::fail_at_file(uint64_t offset, std::string_view why) {
  const std::string call = context_call_ >= 0 ? fmt::format("call {}, ", context_call_) : "";
  failed_ = true;
  failure_ = fmt::format("{}: {}file byte {}: {}", path_, call, offset, why);
  throw InputError(failure_);
}

size_t ApitraceReader::chunk_size() const { return chunk_ ? chunk_->size : 0; }

// Reads and decompresses the next chunk and makes it current; false at the end of the file.
bool ApitraceReader::load_chunk() {
  const uint64_t at = file_pos_;
  unsigned char len[4];
  const size_t got = std::fread(len, 1, sizeof len, file_);
  file_pos_ += got;
  if (got == 0) {
    if (std::ferror(file_)) fail_at_file(at, fmt::format("read error: {}", std::strerror(errno)));
    return false;
  }
  if (got < sizeof len) fail_at_file(at, "truncated: the file ends inside a snappy chunk's length");
  const uint32_t n = uint32_t{len[0]} | uint32_t{len[1]} << 8 | uint32_t{len[2]} << 16 | uint32_t{len[3]} << 24;
  if (n == 0 || n > snappy::MaxCompressedLength(kMaxChunk))
    fail_at_file(at, fmt::format("bad snappy chunk: a compressed length of {} bytes", n));
  if (compressed_.size() < n) compressed_.resize(n);
  const size_t body = std::fread(compressed_.data(), 1, n, file_);
  file_pos_ += body;
  if (body < n) {
    if (std::ferror(file_)) fail_at_file(at, fmt::format("read error: {}", std::strerror(errno)));
    fail_at_file(at, fmt::format("truncated: the snappy chunk here holds {} bytes but the file ends after {}", n, body));
  }
  size_t size = 0;
  if (!snappy::GetUncompressedLength(compressed_.data(), n, &size))
    fail_at_file(at, "bad snappy chunk: its header is corrupt");
  if (size == 0 || size > kMaxChunk)
    fail_at_file(at, fmt::format("bad snappy chunk: it claims {} bytes of data (at most {})", size, kMaxChunk));

  Chunk* chunk = nullptr;
  for (auto& c : chunk_pool_)
    if (c->refs == 0) chunk = c.get();
  if (!chunk) chunk = chunk_pool_.emplace_back(std::make_unique<Chunk>()).get();
  if (chunk->capacity < size) {
    chunk->data = std::make_unique_for_overwrite<char[]>(size);
    chunk->capacity = size;
  }
  if (!snappy::RawUncompress(compressed_.data(), n, chunk->data.get()))
    fail_at_file(at, "bad snappy chunk: its data is corrupt");
  chunk->size = size;
  chunk->file_offset = at;
  chunk->refs = 1;
  if (chunk_) {
    data_base_ += chunk_->size;
    --chunk_->refs;
  }
  chunk_ = chunk;
  p_ = chunk->data.get();
  end_ = p_ + size;
  return true;
}

bool ApitraceReader::at_end() { return p_ == end_ && !load_chunk(); }

void ApitraceReader::need_more() {
  if (!load_chunk()) fail("truncated: the trace data ends in the middle of an event");
}

void ApitraceReader::retain(Call& call) {
  if (call.chunks_.empty() || call.chunks_.back() != chunk_) {
    ++chunk_->refs;
    call.chunks_.push_back(chunk_);
  }
}

// ---------------------------------------------------------------------------------- primitives

// LEB128-style: 7 bits per byte, least significant first, high bit set on all but the last.
uint64_t ApitraceReader::uint() {
  if (end_ - p_ < 10) return uint_slow();
  const auto* q = reinterpret_cast<const uint8_t*>(p_);
  uint64_t v = q[0];
  if (v < 0x80) {
    ++p_;
    return v;
  }
  v &= 0x7f;
  for (int i = 1; i < 10; ++i) {
    const uint64_t c = q[i];
    v |= (c & 0x7f) << (7 * i);
    if (!(c & 0x80)) {
      if (i == 9 && c > 1) fail("an unsigned integer wider than 64 bits");
      p_ += i + 1;
      return v;
    }
  }
  fail("an unsigned integer longer than 10 bytes");
}

uint64_t ApitraceReader::uint_slow() {
  uint64_t v = 0;
  for (int i = 0; i < 10; ++i) {
    const uint64_t c = byte();
    v |= (c & 0x7f) << (7 * i);
    if (!(c & 0x80)) {
      if (i == 9 && c > 1) fail("an unsigned integer wider than 64 bits");
      return v;
    }
  }
  fail("an unsigned integer longer than 10 bytes");
}

void ApitraceReader::raw(void* dst, size_t n) {
  auto* out = static_cast<char*>(dst);
  while (n) {
    if (p_ == end_) need_more();
    const size_t k = std::min(n, static_cast<size_t>(end_ - p_));
    std::memcpy(out, p_, k);
    out += k, p_ += k, n -= k;
  }
}

// An integer written as a value (type byte SInt or UInt): enum signatures' values and enums.
int64_t ApitraceReader::typed_sint() {
  const uint8_t t = byte();
  if (t == kTypeSInt) return static_cast<int64_t>(0 - uint());
  if (t == kTypeUInt) return static_cast<int64_t>(uint());
  fail_at(position() - 1, fmt::format("an integer (type byte 0x03 or 0x04) expected, found type byte 0x{:02x}", t));
}

// A signature's string, copied a chunk's worth at a time so a corrupt length meets the end of
// the data before it meets an allocation of that length.
std::string ApitraceReader::string() {
  uint64_t n = uint();
  std::string s;
  while (n) {
    if (p_ == end_) need_more();
    const size_t k = static_cast<size_t>(std::min<uint64_t>(n, static_cast<uint64_t>(end_ - p_)));
    s.append(p_, k);
    p_ += k, n -= k;
  }
  return s;
}

// A string's or blob's bytes: a view into the chunk when they lie in it, else a copy.
void ApitraceReader::bytes(Call& call, Value& v, uint64_t n) {
  v.size_ = n;
  if (n <= static_cast<uint64_t>(end_ - p_)) {
    v.ptr_.bytes = p_;
    if (n) retain(call);
    p_ += n;
    return;
  }
  v.owned_ = true;
  v.ptr_.offset = call.owned_.size();
  while (n) {
    if (p_ == end_) need_more();
    const size_t k = static_cast<size_t>(std::min<uint64_t>(n, static_cast<uint64_t>(end_ - p_)));
    call.owned_.insert(call.owned_.end(), p_, p_ + k);
    p_ += k, n -= k;
  }
}

// ---------------------------------------------------------------------------------- signatures

template <typename T>
std::unique_ptr<T>& ApitraceReader::slot(std::vector<std::unique_ptr<T>>& table, std::string_view what, uint64_t& id) {
  const uint64_t at = position();
  id = uint();
  if (id >= kMaxId) fail_at(at, fmt::format("{} signature id {} is out of range (ids are below {})", what, id, kMaxId));
  if (id >= table.size()) table.resize(id + 1);
  return table[id];
}

// A signature is written in full at its id's first occurrence and as the bare id afterwards.
const FunctionSig& ApitraceReader::function_sig() {
  uint64_t id = 0;
  auto& sig = slot(functions_, "function", id);
  if (!sig) {
    auto s = std::make_unique<FunctionSig>();
    s->id = id;
    s->name = string();
    const uint64_t n = uint();
    if (n > kMaxNames) fail(fmt::format("function {} has {} parameters", s->name, n));
    for (uint64_t i = 0; i < n; ++i) s->arg_names.push_back(string());
    s->ends_frame = trace::ends_frame(s->name);
    sig = std::move(s);
  }
  return *sig;
}

const EnumSig& ApitraceReader::enum_sig() {
  uint64_t id = 0;
  auto& sig = slot(enums_, "enum", id);
  if (!sig) {
    auto s = std::make_unique<EnumSig>();
    s->id = id;
    const uint64_t n = uint();
    if (n > kMaxNames) fail(fmt::format("enum signature {} has {} values", id, n));
    for (uint64_t i = 0; i < n; ++i) {
      std::string name = string();
      s->values.emplace_back(std::move(name), typed_sint());
    }
    sig = std::move(s);
  }
  return *sig;
}

// Before format version 3 an enum signature was a single name and value.
const EnumSig& ApitraceReader::old_enum_sig() {
  uint64_t id = 0;
  auto& sig = slot(enums_, "enum", id);
  if (!sig) {
    auto s = std::make_unique<EnumSig>();
    s->id = id;
    std::string name = string();
    s->values.emplace_back(std::move(name), typed_sint());
    sig = std::move(s);
  }
  return *sig;
}

const BitmaskSig& ApitraceReader::bitmask_sig() {
  uint64_t id = 0;
  auto& sig = slot(bitmasks_, "bitmask", id);
  if (!sig) {
    auto s = std::make_unique<BitmaskSig>();
    s->id = id;
    const uint64_t n = uint();
    if (n > kMaxNames) fail(fmt::format("bitmask signature {} has {} flags", id, n));
    for (uint64_t i = 0; i < n; ++i) {
      std::string name = string();
      s->flags.emplace_back(std::move(name), uint());
    }
    sig = std::move(s);
  }
  return *sig;
}

const StructSig& ApitraceReader::struct_sig() {
  uint64_t id = 0;
  auto& sig = slot(structs_, "struct", id);
  if (!sig) {
    auto s = std::make_unique<StructSig>();
    s->id = id;
    s->name = string();
    const uint64_t n = uint();
    if (n > kMaxNames) fail(fmt::format("struct {} has {} members", s->name, n));
    for (uint64_t i = 0; i < n; ++i) s->member_names.push_back(string());
    sig = std::move(s);
  }
  return *sig;
}

const StackFrame& ApitraceReader::stack_frame() {
  uint64_t id = 0;
  auto& frame = slot(frames_, "stack frame", id);
  if (!frame) {
    auto f = std::make_unique<StackFrame>();
    f->id = id;
    for (uint8_t d; (d = byte()) != kFrameEnd;) {
      switch (d) {
        case kFrameModule: f->module = string(); break;
        case kFrameFunction: f->function = string(); break;
        case kFrameFile: f->filename = string(); break;
        case kFrameLine: f->line = uint(); break;
        case kFrameOffset: f->offset = uint(); break;
        default: fail_at(position() - 1, fmt::format("unknown stack frame detail 0x{:02x}", d));
      }
    }
    frame = std::move(f);
  }
  return *frame;
}

// ---------------------------------------------------------------------------------- values

// An aggregate's direct children must be contiguous, but each child's own children are appended
// to the pool while it is parsed; so the direct children wait on a stack and move together.
void ApitraceReader::aggregate(Call& call, Value& v, uint64_t n, int depth) {
  if (depth >= kMaxDepth) fail(fmt::format("values nested more than {} deep", kMaxDepth));
  const size_t base = scratch_.size();
  for (uint64_t i = 0; i < n; ++i) scratch_.push_back(value(call, depth + 1));
  v.ptr_.offset = call.pool_.size();
  v.size_ = n;
  call.pool_.insert(call.pool_.end(), scratch_.begin() + static_cast<ptrdiff_t>(base), scratch_.end());
  scratch_.resize(base);
}

Value ApitraceReader::value(Call& call, int depth) {
  Value v;
  const uint8_t type = byte();
  if (type > kTypeWString) fail_at(position() - 1, fmt::format("unknown value type 0x{:02x}", type));
  v.kind_ = type <= kTypeTrue ? static_cast<ValueKind>(type != kTypeNull) : static_cast<ValueKind>(type - 1);
  switch (v.kind_) {
    case ValueKind::Null: break;
    case ValueKind::Bool: v.num_.b = type == kTypeTrue; break;
    case ValueKind::SInt: v.num_.i = static_cast<int64_t>(0 - uint()); break;
    case ValueKind::UInt:
    case ValueKind::Pointer: v.num_.u = uint(); break;
    case ValueKind::Float: raw(&v.num_.f, sizeof(float)); break;
    case ValueKind::Double: raw(&v.num_.d, sizeof(double)); break;
    case ValueKind::String:
    case ValueKind::Blob: bytes(call, v, uint()); break;
    case ValueKind::Enum:
      if (version_ >= 3) {
        v.sig_ = &enum_sig();
        v.num_.i = typed_sint();
      } else {
        const EnumSig& sig = old_enum_sig();
        v.sig_ = &sig;
        v.num_.i = sig.values.front().second;
      }
      break;
    case ValueKind::Bitmask:
      v.sig_ = &bitmask_sig();
      v.num_.u = uint();
      break;
    case ValueKind::Array: aggregate(call, v, uint(), depth); break;
    case ValueKind::Struct: {
      const StructSig& sig = struct_sig();
      v.sig_ = &sig;
      aggregate(call, v, sig.member_names.size(), depth);
      break;
    }
    case ValueKind::Repr:  // human-readable value, then machine value
      aggregate(call, v, 2, depth);
      break;
    case ValueKind::WString: {
      const uint64_t n = uint();
      v.ptr_.offset = call.wide_.size();
      v.size_ = n;
      for (uint64_t i = 0; i < n; ++i) call.wide_.push_back(static_cast<char32_t>(uint()));
      break;
    }
  }
  return v;
}

// ---------------------------------------------------------------------------------- events

void ApitraceReader::read_header() {
  unsigned char magic[2] = {0, 0};
  const size_t got = std::fread(magic, 1, 2, file_);
  file_pos_ = got;
  if (got == 0) fail_at_file(0, "empty file, not an apitrace trace");
  if (got == 2 && magic[0] == 0x1f && magic[1] == 0x8b)
    fail_at_file(0, "a gzip-compressed trace (apitrace's container before 2011); this reader reads the snappy "
                    "container: convert it with `apitrace repack`");
  if (got == 2 && magic[0] == 0x28 && magic[1] == 0xb5)
    fail_at_file(0, "a zstd-compressed trace; this reader reads the snappy container: convert it with "
                    "`apitrace repack`");
  if (got < 2 || magic[0] != 'a' || magic[1] != 't')
    fail_at_file(0, "not an apitrace trace (it does not start with the snappy container's \"at\")");
  if (at_end()) fail_at_file(2, "no trace data: the file holds no snappy chunk");
  const uint64_t version = uint();
  if (version > kMaxFormatVersion)
    fail(fmt::format("trace format version {} is newer than this reader's ({})", version, kMaxFormatVersion));
  version_ = semantic_version_ = static_cast<unsigned>(version);
  if (version_ >= 6) {
    const uint64_t semantic = uint();
    if (semantic > version_) fail(fmt::format("semantic version {} is above the format version {}", semantic, version_));
    semantic_version_ = static_cast<unsigned>(semantic);
    for (;;) {  // name/value pairs, ended by an empty name
      std::string name = string();
      if (name.empty()) break;
      std::string value = string();
      properties_.emplace_back(std::move(name), std::move(value));
    }
  }
}

std::unique_ptr<Call> ApitraceReader::take_call() {
  if (spare_.empty()) {
    auto call = std::make_unique<Call>();
    call->reset();
    return call;
  }
  auto call = std::move(spare_.back());
  spare_.pop_back();
  return call;
}

void ApitraceReader::details(Call& call) {
  for (;;) {
    const uint8_t detail = byte();
    switch (detail) {
      case kDetailEnd: return;
      case kDetailArg: {
        const uint64_t at = position();
        const uint64_t i = uint();
        if (i >= call.args_.size())
          fail_at(at, fmt::format("argument {} of {}, which has {} parameters", i, call.sig_->name, call.args_.size()));
        call.args_[i] = value(call, 0);
        break;
      }
      case kDetailRet: call.ret_ = value(call, 0); break;
      case kDetailThread: call.thread_ = uint(); break;  // where format versions before 4 put it
      case kDetailBacktrace: {
        const uint64_t n = uint();
        for (uint64_t i = 0; i < n; ++i) call.backtrace_.push_back(&stack_frame());
        break;
      }
      case kDetailFlags:
        if (uint() & kFlagFake) call.fake_ = true;
        break;
      default: fail_at(position() - 1, fmt::format("unknown call detail 0x{:02x}", detail));
    }
  }
}

void ApitraceReader::enter() {
  context_call_ = static_cast<int64_t>(next_number_);
  if (open_.size() >= kMaxOpenCalls) fail(fmt::format("more than {} calls entered and not left", kMaxOpenCalls));
  const uint64_t thread = version_ >= 4 ? uint() : 0;
  const FunctionSig& sig = function_sig();
  std::unique_ptr<Call> call = take_call();
  call->number_ = next_number_++;
  call->thread_ = thread;
  call->sig_ = &sig;
  Value absent;
  absent.kind_ = Value::kAbsent;
  call->args_.assign(sig.arg_names.size(), absent);
  open_.push_back(std::move(call));
  details(*open_.back());
}

Call* ApitraceReader::leave() {
  const uint64_t at = position() - 1;  // the event byte
  const uint64_t number = uint();
  context_call_ = static_cast<int64_t>(std::min<uint64_t>(number, INT64_MAX));
  // The call left is nearly always the one entered last (another thread's, rarely).
  auto it = std::find_if(open_.rbegin(), open_.rend(), [&](const auto& c) { return c->number_ == number; });
  if (it == open_.rend()) fail_at(at, fmt::format("a leave event for call {}, which is not open", number));
  details(**it);
  current_ = std::move(*it);
  open_.erase(std::next(it).base());
  current_->resolve();
  return current_.get();
}

const Call* ApitraceReader::next() {
  if (failed_) throw InputError(failure_);
  if (current_) {
    current_->reset();
    spare_.push_back(std::move(current_));
  }
  for (;;) {
    context_call_ = -1;
    if (at_end()) {
      if (open_.empty()) return nullptr;
      current_ = std::move(open_.front());
      open_.erase(open_.begin());
      current_->incomplete_ = true;
      current_->resolve();
      return current_.get();
    }
    const uint8_t event = byte();
    if (event == kEventLeave) return leave();
    if (event != kEventEnter) fail_at(position() - 1, fmt::format("unknown event type 0x{:02x}", event));
    enter();
  }
}

}  // namespace strobe::gfx::trace
