// A streaming reader of apitrace's binary traces (`.trace`, the snappy container, format versions
// 0..6): the calls a captured OpenGL program made, one at a time, with every argument value.
// The graphics pipeline replays frames from these captures; a capture can be hundreds of MB, so
// the reader keeps one decompressed chunk (about 1 MB) in memory, not the trace.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace strobe::gfx::trace {

/// The newest trace format version the reader understands (apitrace 11 writes 6).
inline constexpr unsigned kMaxFormatVersion = 6;

/// The kinds of value the format has, in the order of their type bytes (Null is 0x00; Bool is
/// two, 0x01 false and 0x02 true; WString is 0x0f).
enum class ValueKind : uint8_t {
  Null, Bool, SInt, UInt, Float, Double, String, Blob, Enum, Bitmask, Array, Struct, Pointer, Repr, WString,
};

/// The kind's name as error messages and dumps spell it ("blob", "wstring", ...).
std::string_view kind_name(ValueKind kind);

/// True when a call to `function` ends a frame: the swaps and presents apitrace itself counts
/// as frame ends (glXSwapBuffers, eglSwapBuffers*, wglSwap*Buffers, CGLFlushDrawable,
/// glFrameTerminatorGREMEDY, the Direct3D/DXGI presents).
bool ends_frame(std::string_view function);

/// A function's signature, defined in the trace at its first call and shared by later calls.
struct FunctionSig {
  uint64_t id = 0;                     ///< the trace's id for it
  std::string name;                    ///< "glDrawArrays"
  std::vector<std::string> arg_names;  ///< one per parameter
  bool ends_frame = false;             ///< see trace::ends_frame()
};

/// An enumeration's signature: every name/value pair of the enum (format version 3 and later).
struct EnumSig {
  uint64_t id = 0;                                       ///< the trace's id for it
  std::vector<std::pair<std::string, int64_t>> values;  ///< in the order the trace lists them
  /// The first name listed for `value`, or "" when none has it (apitrace then shows the number).
  std::string_view name_of(int64_t value) const;
};

/// A bitmask's signature: its flags, in the order the trace lists them.
struct BitmaskSig {
  uint64_t id = 0;                                        ///< the trace's id for it
  std::vector<std::pair<std::string, uint64_t>> flags;  ///< name and bits of each flag
};

/// A structure's signature: its type name and member names.
struct StructSig {
  uint64_t id = 0;                        ///< the trace's id for it
  std::string name;                       ///< the C type name, "" for an anonymous one
  std::vector<std::string> member_names;  ///< one per member, "" for an anonymous member
};

/// One frame of a call's backtrace (traces taken with APITRACE_BACKTRACE); absent parts are empty.
struct StackFrame {
  uint64_t id = 0;                           ///< the trace's id for it
  std::string module, function, filename;    ///< "" when the trace does not say
  std::optional<uint64_t> line, offset;      ///< source line, byte offset in the module
};

/// One argument or return value. Accessors check the kind and throw strobe::InputError naming
/// the kind found (a trace's values are input: a NULL where a blob was expected must not crash).
/// Strings, blobs, wide strings, elements and members live in the reader's buffers: they stay
/// valid until the next ApitraceReader::next() call, the lifetime of the Call holding them.
class Value {
 public:
  /// Which kind of value this is.
  ValueKind kind() const { return kind_; }
  /// A Bool's value.
  bool boolean() const;
  /// A SInt's value (the format stores negative integers as SInt, the others as UInt).
  int64_t sint() const;
  /// A UInt's value.
  uint64_t uint() const;
  /// The number carried by a Bool, SInt, UInt, Enum or Bitmask, whichever encoding the tracer
  /// picked (a GLint is a SInt when negative, a UInt otherwise; a GLenum may be an Enum).
  int64_t integer() const;
  /// A Float's value.
  float f32() const;
  /// A Double's value.
  double f64() const;
  /// A String's bytes (without the implied terminating zero).
  std::string_view string() const;
  /// A Blob's bytes: a view into the decompressed trace when the blob lies in one chunk, else
  /// into a copy the reader made; either way valid until the next ApitraceReader::next().
  std::span<const std::byte> blob() const;
  /// A WString's code units.
  std::u32string_view wstring() const;
  /// An Enum's signature.
  const EnumSig& enum_sig() const;
  /// An Enum's value.
  int64_t enum_value() const;
  /// A Bitmask's signature.
  const BitmaskSig& bitmask_sig() const;
  /// A Bitmask's value.
  uint64_t bitmask_value() const;
  /// An Array's elements (apitrace records pointers to one object as one-element arrays).
  std::span<const Value> elements() const;
  /// A Struct's signature.
  const StructSig& struct_sig() const;
  /// A Struct's members, in the signature's order.
  std::span<const Value> members() const;
  /// An opaque Pointer's address; 0 for Null, which is how the tracer writes a null pointer.
  uint64_t pointer() const;
  /// A Repr's human-readable side (what apitrace shows: an enum name for a GLint parameter).
  const Value& human() const;
  /// A Repr's machine side (the value the call was made with).
  const Value& machine() const;

 private:
  friend class ApitraceReader;
  friend class Call;
  static constexpr auto kAbsent = static_cast<ValueKind>(0xff);  // an argument not recorded
  [[noreturn]] void wrong_kind(std::string_view wanted) const;
  void expect(ValueKind wanted) const {
    if (kind_ != wanted) wrong_kind(kind_name(wanted));
  }

  ValueKind kind_ = ValueKind::Null;
  bool owned_ = false;  // while parsing: ptr_.offset indexes the call's own copies, not a chunk
  union {
    bool b;
    int64_t i;
    uint64_t u;
    float f;
    double d;
  } num_{};
  union {
    const char* bytes;
    const Value* children;
    const char32_t* wide;
    uint64_t offset;  // while parsing: an index into the call's pools, resolved when it ends
  } ptr_{};
  uint64_t size_ = 0;  // bytes, code units, elements or members
  const void* sig_ = nullptr;
};

struct Chunk;

/// One call: the union of its enter and leave events. Owned by the reader; valid (with every
/// Value in it) until the next ApitraceReader::next() call.
class Call {
 public:
  /// The call's number: calls are numbered from 0 in the order they were entered.
  uint64_t number() const { return number_; }
  /// The tracer's number for the calling thread (the program's first thread is 0).
  uint64_t thread() const { return thread_; }
  /// The function's signature.
  const FunctionSig& sig() const { return *sig_; }
  /// The function's name.
  std::string_view name() const { return sig_->name; }
  /// Number of parameters of the function (some may have no recorded value, see arg()).
  size_t arg_count() const { return args_.size(); }
  /// Argument `i`, or nullptr when the trace recorded none for it (apitrace shows "?").
  const Value* arg(size_t i) const;
  /// The argument named `name`, or nullptr when the function has none or it was not recorded.
  const Value* arg(std::string_view name) const;
  /// The return value, or nullptr for a void function (or an incomplete call).
  const Value* ret() const;
  /// True for calls the tracer wrote itself (the format's FLAG_FAKE), not ones the program made.
  bool fake() const { return fake_; }
  /// True for a call entered but never left before the trace ended (its outputs are missing).
  bool incomplete() const { return incomplete_; }
  /// True when the call ends a frame (see trace::ends_frame()).
  bool ends_frame() const { return sig_->ends_frame; }
  /// The call's backtrace, in the tracer's order; empty unless the capture recorded backtraces.
  std::span<const StackFrame* const> backtrace() const { return backtrace_; }

 private:
  friend class ApitraceReader;
  void reset();
  void resolve();
  void resolve(Value& v);

  uint64_t number_ = 0, thread_ = 0;
  const FunctionSig* sig_ = nullptr;
  bool fake_ = false, incomplete_ = false;
  std::vector<Value> args_;
  Value ret_;
  std::vector<Value> pool_;        // elements and members, each aggregate's contiguous
  std::vector<char> owned_;        // strings and blobs that straddle chunks, copied
  std::vector<char32_t> wide_;     // wide strings' code units
  std::vector<Chunk*> chunks_;     // decompressed chunks its strings and blobs point into
  std::vector<const StackFrame*> backtrace_;
};

/// Reads one trace file call by call. Every defect of the input (not a trace, a truncated file,
/// a corrupt snappy chunk, an unknown type byte, an impossible signature id, ...) raises
/// strobe::InputError "PATH: WHERE: WHY", WHERE giving the call number and the byte offset;
/// after one, the reader is spent and every later next() raises it again.
class ApitraceReader {
 public:
  /// Opens `path` and reads the header (version, properties). Throws InputError.
  explicit ApitraceReader(std::string path);
  ~ApitraceReader();
  ApitraceReader(const ApitraceReader&) = delete;
  ApitraceReader& operator=(const ApitraceReader&) = delete;

  /// The next completed call, in the order calls were left (the capture order for one thread),
  /// then any calls still open at the end, marked incomplete; nullptr at the end of the trace.
  /// The call stays valid until the next next().
  const Call* next();

  /// The file's path, as given.
  const std::string& path() const { return path_; }
  /// The trace format version (the layout of the bytes).
  unsigned version() const { return version_; }
  /// The semantic version (how calls should be replayed); equals version() before version 6.
  unsigned semantic_version() const { return semantic_version_; }
  /// The header's properties (version 6: "process.name" and the like), in file order.
  const std::vector<std::pair<std::string, std::string>>& properties() const { return properties_; }
  /// The file's size in bytes.
  uint64_t file_size() const { return file_size_; }
  /// Bytes of the file read so far (compressed).
  uint64_t file_bytes_read() const { return file_pos_; }
  /// Bytes of trace data decompressed so far.
  uint64_t data_bytes_read() const { return data_base_ + chunk_size(); }

 private:
  uint64_t position() const;
  [[noreturn]] void fail(std::string_view why);
  [[noreturn]] void fail_at(uint64_t data_offset, std::string_view why);
  [[noreturn]] void fail_at_file(uint64_t offset, std::string_view why);
  size_t chunk_size() const;
  bool load_chunk();
  bool at_end();
  void need_more();
  void retain(Call& call);

  uint8_t byte() {
    if (p_ == end_) need_more();
    return static_cast<uint8_t>(*p_++);
  }
  uint64_t uint();
  uint64_t uint_slow();
  void raw(void* dst, size_t n);
  int64_t typed_sint();
  std::string string();
  void bytes(Call& call, Value& v, uint64_t n);

  void read_header();
  void enter();
  Call* leave();
  void details(Call& call);
  Value value(Call& call, int depth);
  void aggregate(Call& call, Value& v, uint64_t n, int depth);
  const FunctionSig& function_sig();
  const EnumSig& enum_sig();
  const EnumSig& old_enum_sig();
  const BitmaskSig& bitmask_sig();
  const StructSig& struct_sig();
  const StackFrame& stack_frame();
  template <typename T>
  std::unique_ptr<T>& slot(std::vector<std::unique_ptr<T>>& table, std::string_view what, uint64_t& id);
  std::unique_ptr<Call> take_call();

  std::string path_;
  std::FILE* file_ = nullptr;
  uint64_t file_size_ = 0, file_pos_ = 0;
  unsigned version_ = 0, semantic_version_ = 0;
  std::vector<std::pair<std::string, std::string>> properties_;
  bool failed_ = false;
  std::string failure_;

  std::vector<char> compressed_;
  std::vector<std::unique_ptr<Chunk>> chunk_pool_;
  Chunk* chunk_ = nullptr;       // the chunk being parsed (the reader holds a reference)
  const char* p_ = nullptr;      // next byte of it
  const char* end_ = nullptr;
  uint64_t data_base_ = 0;       // trace data bytes before chunk_

  uint64_t next_number_ = 0;
  int64_t context_call_ = -1;    // the call whose bytes are being read, for error messages
  std::vector<std::unique_ptr<Call>> open_;  // entered, not yet left; in enter order
  std::vector<std::unique_ptr<Call>> spare_;
  std::unique_ptr<Call> current_;
  std::vector<Value> scratch_;   // aggregates' direct children while their own are parsed

  std::vector<std::unique_ptr<FunctionSig>> functions_;
  std::vector<std::unique_ptr<EnumSig>> enums_;
  std::vector<std::unique_ptr<BitmaskSig>> bitmasks_;
  std::vector<std::unique_ptr<StructSig>> structs_;
  std::vector<std::unique_ptr<StackFrame>> frames_;
};

}  // namespace strobe::gfx::trace
