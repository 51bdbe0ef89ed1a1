// The clang/ld.lld driver behind clBuildProgram, clCompileProgram and clLinkProgram.
#include "opencl/compiler.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <sstream>

#include <sys/stat.h>
#include <unistd.h>

#include "opencl/process.h"
#include "opencl/program_cache.h"
#include "opencl/sha256.h"

namespace strobe::opencl {

namespace fs = std::filesystem;

namespace {

std::string tool(const char* env_name, const char* built_in) {
  const char* v = std::getenv(env_name);
  return v && *v ? v : built_in;
}
std::string clang_path() { return tool("STROBE_CLANG", STROBE_CLANG); }
std::string lld_path() { return tool("STROBE_LLD", STROBE_LLD); }
std::string device_libs_dir() { return tool("STROBE_DEVICE_LIBS", STROBE_DEVICE_LIBS); }
/// llvm-link of the same LLVM as clang (it sits beside the real clang binary).
std::string llvm_link_path() {
  if (const char* v = std::getenv("STROBE_LLVM_LINK"); v && *v) return v;
  std::error_code ec;
  fs::path real = fs::canonical(clang_path(), ec);
  return ec ? "llvm-link" : (real.parent_path() / "llvm-link").string();
}

/// The code generation flags of cmake/kernels.cmake, shared by source and bitcode compiles.
const std::vector<std::string>& target_flags() {
  static const std::vector<std::string> flags = {"-target", "amdgcn-amd-amdhsa", "-mcpu=gfx803", "-nogpulib", "-O3"};
  return flags;
}

/// The major version of the compiler at `path` (`clang -dumpversion`), asked once per path.
int clang_major(const std::string& path) {
  static std::mutex mutex;
  static std::map<std::string, int> known;
  std::lock_guard lock(mutex);
  auto it = known.find(path);
  if (it != known.end()) return it->second;
  ProcessResult p = run_process({path, "-dumpversion"}, "/");
  return known[path] = p.exit_code == 0 ? std::atoi(p.output.c_str()) : 0;
}

/// gfx803 has no fast f32 denormals: clang compiles f32 code flushing them
/// (-fdenormal-fp-math-f32=preserve-sign, visible in the kernel's MODE), so ROCm's driver links
/// oclc_daz_opt_on for it whatever the options say; ocml's _off paths assume kept denormals.
constexpr bool kTargetFlushesF32Denormals = true;

/// The ROCm device libraries a program links, in link order, chosen like ROCm's clang driver:
/// the oclc_* controls follow the math options and the target, and the ABI version follows the
/// code object version the compiler emits (v5 from clang 17 on: hidden arguments move, see ockl).
std::vector<std::string> device_libs(const MathLibraryControls& math) {
  auto on_off = [](bool on) { return on ? "on" : "off"; };
  const std::string abi = clang_major(clang_path()) >= 17 ? "500" : "400";
  std::vector<std::string> libs = {"opencl",
                                   "ocml",
                                   "ockl",
                                   std::string("oclc_finite_only_") + on_off(math.finite_only),
                                   std::string("oclc_unsafe_math_") + on_off(math.unsafe_math),
                                   std::string("oclc_daz_opt_") + on_off(math.daz_opt || kTargetFlushesF32Denormals),
                                   std::string("oclc_correctly_rounded_sqrt_") + on_off(math.correctly_rounded_sqrt),
                                   "oclc_wavefrontsize64_on",
                                   "oclc_isa_version_803",
                                   "oclc_abi_version_" + abi};
  for (std::string& l : libs) l = (fs::path(device_libs_dir()) / (l + ".bc")).string();
  return libs;
}

/// Identifies a tool binary: where it really is, its size and modification time.
std::string tool_identity(const std::string& path) {
  std::error_code ec;
  fs::path real = fs::canonical(path, ec);
  struct stat st{};
  if (ec || ::stat(real.c_str(), &st) != 0) return path + " (missing)";
  return real.string() + " " + std::to_string(st.st_size) + " " + std::to_string(st.st_mtim.tv_sec) + "." +
         std::to_string(st.st_mtim.tv_nsec);
}

/// The directory the compiler is installed in (its bin/..): headers under it are the
/// compiler's own and change only with it.
std::string compiler_prefix() {
  std::error_code ec;
  fs::path real = fs::canonical(clang_path(), ec);
  return ec ? std::string() : real.parent_path().parent_path().string() + "/";
}

/// A private scratch directory, removed with the object.
class TempDir {
 public:
  TempDir() {
    const char* base = std::getenv("TMPDIR");
    std::string tmpl = std::string(base && *base ? base : "/tmp") + "/strobe-cl-XXXXXX";
    if (::mkdtemp(tmpl.data())) path_ = tmpl;
  }
  ~TempDir() {
    std::error_code ec;
    if (!path_.empty()) fs::remove_all(path_, ec);
  }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

bool write_file(const fs::path& p, std::string_view text) {
  std::error_code ec;
  fs::create_directories(p.parent_path(), ec);
  std::ofstream out(p, std::ios::binary);
  out.write(text.data(), std::streamsize(text.size()));
  return bool(out);
}

std::optional<std::vector<uint8_t>> read_bytes(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  if (!in) return std::nullopt;
  return std::vector<uint8_t>((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

/// The files a make-style dependency list (clang -MD) names.
std::vector<std::string> parse_deps(const std::string& text) {
  std::vector<std::string> out;
  size_t colon = text.find(": ");
  if (colon == std::string::npos) return out;
  std::string cur;
  for (size_t i = colon + 2; i < text.size(); ++i) {
    char c = text[i];
    if (c == '\\' && i + 1 < text.size() && text[i + 1] == '\n') {
      ++i;
    } else if (c == '\\' && i + 1 < text.size() && text[i + 1] == ' ') {
      cur += ' ';
      ++i;
    } else if (c == ' ' || c == '\n' || c == '\t') {
      if (!cur.empty()) out.push_back(std::move(cur));
      cur.clear();
    } else {
      cur += c;
    }
  }
  if (!cur.empty()) out.push_back(std::move(cur));
  return out;
}

BuildOutput failure(cl_int code, std::string log) {
  BuildOutput r;
  r.error = code;
  r.log = std::move(log);
  return r;
}

std::string undefined_symbol_hint(const std::string& log) {
  if (log.find("error: undefined") == std::string::npos) return "";
  return "strobe: OpenCL C library functions come from the ROCm device libraries in " + device_libs_dir() +
         "; the functions above are neither there nor in the program\n";
}

/// Compiles `source` to `dir`/program.o (machine code, or LLVM bitcode when `bitcode`: compiled
/// objects stay bitcode so linking can inline across them); fills the log and dependency list.
BuildOutput run_clang(const std::string& dir, const std::string& source, const BuildOptions& opts,
                      const std::vector<NamedHeader>& headers, bool bitcode,
                      std::vector<std::pair<std::string, std::string>>& deps) {
  const fs::path d(dir);
  if (!write_file(d / "program.cl", source))
    return failure(CL_OUT_OF_HOST_MEMORY, "strobe: cannot write the program to " + dir + "\n");
  std::vector<std::string> argv = {clang_path(), "-cl-std=CL2.0"};
  argv.insert(argv.end(), target_flags().begin(), target_flags().end());
  for (const char* a : {"-Xclang", "-finclude-default-header"}) argv.push_back(a);
  for (const std::string& lib : device_libs(opts.math))
    for (const std::string& a : {std::string("-Xclang"), std::string("-mlink-builtin-bitcode"), std::string("-Xclang"), lib})
      argv.push_back(a);
  if (bitcode) argv.push_back("-emit-llvm");
  if (!headers.empty()) {
    for (const auto& [name, text] : headers)
      if (!write_file(d / "headers" / name, text))
        return failure(CL_OUT_OF_HOST_MEMORY, "strobe: cannot write header " + name + "\n");
    argv.push_back("-I" + (d / "headers").string());
  }
  argv.insert(argv.end(), opts.compiler_args.begin(), opts.compiler_args.end());
  for (const char* a : {"-MD", "-MF", "program.d", "-c", "program.cl", "-o", "program.o"}) argv.push_back(a);
  ProcessResult p = run_process(argv, dir);
  BuildOutput r;
  r.log = opts.notes + p.output;
  auto object = read_bytes(d / "program.o");
  if (!p.started || (p.exit_code != 0 && p.exit_code != -1) || !object) {
    r.error = r.log.find("unknown argument") != std::string::npos ? CL_INVALID_BUILD_OPTIONS : CL_BUILD_PROGRAM_FAILURE;
    if (r.log.empty()) r.log = "strobe: the compiler failed without a message\n";
    return r;
  }
  r.ok = true;
  r.binary = std::move(*object);
  std::ifstream dep_in(d / "program.d");
  std::stringstream dep_text;
  dep_text << dep_in.rdbuf();
  const std::string prefix = compiler_prefix();
  for (const std::string& f : parse_deps(dep_text.str())) {
    std::error_code ec;
    fs::path abs = fs::absolute(d / f, ec);
    std::string path = abs.lexically_normal().string();
    if (path.starts_with(dir) || (!prefix.empty() && path.starts_with(prefix))) continue;
    std::ifstream in(path, std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    deps.emplace_back(path, sha256_hex(text.str()));
  }
  return r;
}

/// Runs one tool in `dir`, appending its output to `log`; false if it failed or left no `output`.
bool step(const std::string& dir, std::vector<std::string> argv, const std::string& output, std::string& log) {
  ProcessResult p = run_process(argv, dir);
  log += p.output;
  return p.started && (p.exit_code == 0 || p.exit_code == -1) && fs::exists(fs::path(dir) / output);
}

/// Links objects in `dir`: ELF objects with ld.lld; bitcode (what clCompileProgram makes) with
/// llvm-link, then code generation of the whole program, then ld.lld.
BuildOutput run_link(const std::string& dir, const std::vector<std::vector<uint8_t>>& objects, bool library) {
  const fs::path d(dir);
  bool all_bitcode = true;
  std::vector<std::string> inputs;
  for (size_t i = 0; i < objects.size(); ++i) {
    const bool bc = objects[i].size() >= 4 && objects[i][0] == 'B' && objects[i][1] == 'C';
    all_bitcode &= bc;
    std::string name = "input" + std::to_string(i) + (bc ? ".bc" : ".o");
    if (!write_file(d / name, {reinterpret_cast<const char*>(objects[i].data()), objects[i].size()}))
      return failure(CL_OUT_OF_HOST_MEMORY, "strobe: cannot write " + name + "\n");
    inputs.push_back(name);
  }
  BuildOutput r;
  r.error = CL_LINK_PROGRAM_FAILURE;
  std::string output;
  if (all_bitcode) {
    std::vector<std::string> link = {llvm_link_path()};
    link.insert(link.end(), inputs.begin(), inputs.end());
    for (const char* a : {"-o", "merged.bc"}) link.push_back(a);
    if (!step(dir, link, "merged.bc", r.log)) return r;
    if (library) {
      output = "merged.bc";
    } else {
      std::vector<std::string> codegen = {clang_path()};
      codegen.insert(codegen.end(), target_flags().begin(), target_flags().end());
      for (const char* a : {"-c", "merged.bc", "-o", "merged.o"}) codegen.push_back(a);
      if (!step(dir, codegen, "merged.o", r.log)) return r;
      inputs = {"merged.o"};
    }
  } else if (objects.size() > 1 || library) {
    r.log += "strobe: only compiled objects (LLVM bitcode from clCompileProgram) can be linked with others\n";
    return r;
  }
  if (output.empty()) {
    std::vector<std::string> link = {lld_path(), "-shared", "--no-undefined"};
    link.insert(link.end(), inputs.begin(), inputs.end());
    for (const char* a : {"-o", "output.hsaco"}) link.push_back(a);
    if (!step(dir, link, "output.hsaco", r.log)) {
      r.log += undefined_symbol_hint(r.log);
      return r;
    }
    output = "output.hsaco";
  }
  auto out = read_bytes(d / output);
  if (!out) return r;
  r.ok = true;
  r.error = CL_SUCCESS;
  r.binary = std::move(*out);
  return r;
}

std::string cache_key(std::string_view kind, const std::string& source, const BuildOptions& opts,
                      const std::vector<NamedHeader>& headers) {
  Sha256 h;
  h.field("strobe-opencl-cache-2").field(kind);
  h.field(tool_identity(clang_path())).field(tool_identity(lld_path())).field(tool_identity(llvm_link_path()));
  for (const std::string& lib : device_libs(opts.math)) h.field(tool_identity(lib));
  h.field(opts.notes);
  for (const auto& a : opts.compiler_args) h.field(a);
  h.field("--source--").field(source);
  for (const auto& [name, text] : headers) h.field(name).field(text);
  return h.hex();
}

/// Compile (and for executables link) through the cache.
BuildOutput cached_build(std::string_view kind, const std::string& source, const BuildOptions& opts,
                         const std::vector<NamedHeader>& headers) {
  if (!compiler_available())
    return failure(CL_COMPILER_NOT_AVAILABLE, "strobe: cannot run the compiler " + clang_path() + " or linker " +
                                                  lld_path() + ", or find the ROCm device libraries in " +
                                                  device_libs_dir() +
                                                  " (set STROBE_CLANG / STROBE_LLD / STROBE_DEVICE_LIBS)\n");
  const std::string key = cache_key(kind, source, opts, headers);
  if (auto hit = cache_lookup(key)) {
    BuildOutput r;
    r.ok = true;
    r.binary = std::move(hit->binary);
    r.log = std::move(hit->log);
    r.from_cache = true;
    return r;
  }
  TempDir tmp;
  if (tmp.path().empty()) return failure(CL_OUT_OF_HOST_MEMORY, "strobe: cannot create a temporary directory\n");
  std::vector<std::pair<std::string, std::string>> deps;
  BuildOutput r = run_clang(tmp.path(), source, opts, headers, kind == "object", deps);
  if (!r.ok) return r;
  if (kind == "executable") {
    BuildOutput linked = run_link(tmp.path(), {r.binary}, false);
    linked.log = r.log + linked.log;
    if (!linked.ok) {
      linked.error = CL_BUILD_PROGRAM_FAILURE;
      return linked;
    }
    r = std::move(linked);
  }
  cache_store(key, {r.binary, r.log, deps});
  return r;
}

}  // namespace

bool compiler_available() {
  return ::access(clang_path().c_str(), X_OK) == 0 && ::access(lld_path().c_str(), X_OK) == 0 &&
         ::access((fs::path(device_libs_dir()) / "ocml.bc").c_str(), R_OK) == 0;
}

BuildOutput build_executable(const std::string& source, const BuildOptions& opts) {
  return cached_build("executable", source, opts, {});
}

BuildOutput compile_object(const std::string& source, const BuildOptions& opts, const std::vector<NamedHeader>& headers) {
  return cached_build("object", source, opts, headers);
}

BuildOutput link_objects(const std::vector<std::vector<uint8_t>>& objects, bool library) {
  if (!compiler_available()) return failure(CL_LINKER_NOT_AVAILABLE, "strobe: cannot run the linker " + lld_path() + "\n");
  TempDir tmp;
  if (tmp.path().empty()) return failure(CL_OUT_OF_HOST_MEMORY, "strobe: cannot create a temporary directory\n");
  return run_link(tmp.path(), objects, library);
}

bool is_relocatable(const std::vector<uint8_t>& b) {
  // LLVM bitcode ('BC' 0xC0DE), or ELF with e_type (offset 16, little-endian) ET_REL.
  if (b.size() >= 4 && b[0] == 'B' && b[1] == 'C' && b[2] == 0xC0 && b[3] == 0xDE) return true;
  return b.size() >= 18 && b[0] == 0x7f && b[1] == 'E' && b[2] == 'L' && b[3] == 'F' && b[16] == 1 && b[17] == 0;
}

}  // namespace strobe::opencl
