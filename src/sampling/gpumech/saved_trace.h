// A launch's GPUMech trace saved in the functional profile (`strobe profile --gpumech`), so the
// model re-runs for another configuration without tracing again: only the cache-only simulation
// and the representative wave are redone, as the dissertation's §4.6.5 does (METHODS.md §2.7).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "sampling/gpumech/launch_trace.h"
#include "sampling/gpumech/static_inst.h"

namespace strobe::sampling::gpumech {

/// The key of GPUMech's data among a profile launch's blobs.
inline constexpr const char* kProfileBlob = "gpumech";

/// A launch's trace and the representative wave chosen when it was saved.
struct SavedTrace {
  LaunchTrace trace;
  uint64_t representative = 0;  ///< index into trace.waves, chosen once per input (§2.7)
};

/// Encodes `s` (msgpack: a version, the launch's shape, per wave its PCs, producers and lines).
std::string encode_saved_trace(const SavedTrace& s);

/// Decodes a saved trace; `where` ("profile F launch 3") is named in the InputError thrown for a
/// truncated or corrupt blob, another version, or a trace inconsistent with itself (lengths that
/// disagree, a producer that is not earlier, lines that do not parse, a representative out of
/// range).
SavedTrace decode_saved_trace(std::string_view bytes, const std::string& where);

/// Checks a decoded trace against the program it is about to be modelled with: every PC inside
/// the program and one line entry per vector memory instruction. InputError naming `where`.
void check_trace_program(const LaunchTrace& trace, const std::vector<StaticInst>& statics, const std::string& where);

}  // namespace strobe::sampling::gpumech
