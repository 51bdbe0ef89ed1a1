// The program cache: compiled code objects stored by a content hash of everything that went
// into them, in $STROBE_CACHE_DIR, else $XDG_CACHE_HOME/strobe, else ~/.cache/strobe (the
// opencl/ subdirectory; an entry is KEY.bin, KEY.log and KEY.deps). Files a build #included
// from outside the compiler's own tree are recorded with their hashes and checked on every
// lookup, so an edited header is a miss.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace strobe::opencl {

/// One cached build.
struct CacheEntry {
  std::vector<uint8_t> binary;
  std::string log;
  std::vector<std::pair<std::string, std::string>> deps;  ///< (path, sha256) of included files
};

/// The cache directory, created on first use; empty when no usable directory exists.
std::string cache_dir();

/// The entry stored under `key`, if present and its recorded dependencies are unchanged.
std::optional<CacheEntry> cache_lookup(const std::string& key);

/// Stores an entry (atomically; a failure to write only costs the next build a compile).
void cache_store(const std::string& key, const CacheEntry& entry);

}  // namespace strobe::opencl
