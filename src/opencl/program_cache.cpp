// Content-addressed storage of compiled programs (see program_cache.h).
#include "opencl/program_cache.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <sstream>

#include "common/atomic_file.h"
#include "opencl/sha256.h"

namespace strobe::opencl {

namespace fs = std::filesystem;

namespace {

std::optional<std::string> slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string resolve_dir() {
  std::string base;
  if (const char* d = std::getenv("STROBE_CACHE_DIR"); d && *d) base = d;
  else if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x) base = std::string(x) + "/strobe";
  else if (const char* h = std::getenv("HOME"); h && *h) base = std::string(h) + "/.cache/strobe";
  if (base.empty()) return "";
  std::error_code ec;
  fs::path dir = fs::path(base) / "opencl";
  fs::create_directories(dir, ec);
  if (ec || !fs::is_directory(dir)) {
    std::fprintf(stderr, "strobe: program cache disabled: cannot create %s: %s\n", dir.c_str(), ec.message().c_str());
    return "";
  }
  return dir.string();
}

}  // namespace

std::string cache_dir() {
  static const std::string dir = resolve_dir();
  return dir;
}

std::optional<CacheEntry> cache_lookup(const std::string& key) {
  const std::string dir = cache_dir();
  if (dir.empty()) return std::nullopt;
  const fs::path base = fs::path(dir) / key;
  auto binary = slurp(base.string() + ".bin");
  auto deps = slurp(base.string() + ".deps");
  if (!binary || !deps) return std::nullopt;
  CacheEntry e;
  std::istringstream lines(*deps);
  std::string hash, path;
  while (lines >> hash && std::getline(lines >> std::ws, path)) {
    auto text = slurp(path);
    if (!text || sha256_hex(*text) != hash) return std::nullopt;
    e.deps.emplace_back(path, hash);
  }
  e.binary.assign(binary->begin(), binary->end());
  e.log = slurp(base.string() + ".log").value_or("");
  return e;
}

void cache_store(const std::string& key, const CacheEntry& entry) {
  const std::string dir = cache_dir();
  if (dir.empty()) return;
  const std::string base = (fs::path(dir) / key).string();
  std::string deps;
  for (const auto& [path, hash] : entry.deps) deps += hash + " " + path + "\n";
  try {
    write_file_atomic(base + ".deps", deps);
    write_file_atomic(base + ".log", entry.log);
    // Written last: a present .bin marks a complete entry.
    write_file_atomic(base + ".bin",
                      std::string_view(reinterpret_cast<const char*>(entry.binary.data()), entry.binary.size()));
  } catch (const std::exception& e) {
    static std::once_flag warned;
    std::call_once(warned, [&] { std::fprintf(stderr, "strobe: cannot write the program cache: %s\n", e.what()); });
  }
}

}  // namespace strobe::opencl
