// The timing model's configuration: every parameter declared once (params.def), GPU presets as
// TOML data files (configs/), type-checked `key=value` overrides, and the effective
// configuration as JSON. The model resolves this once into its own plain structs.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "common/param_decl.h"
#include "isa/inst.h"

namespace strobe::timing {

/// Every parameter's value, field by field (declared in params.def with its default).
struct GpuConfig {
#define STROBE_INT(field, key, def, lo, hi, unit, doc) int64_t field = def;
#define STROBE_FLOAT(field, key, def, lo, hi, unit, doc) double field = def;
#define STROBE_ENUM(field, key, def, choices, doc) std::string field = def;
#define STROBE_PLUGIN(field, key, def, registry, doc) std::string field = def;
#define STROBE_STR(field, key, def, doc) std::string field = def;
#include "timing/config/params.def"
#undef STROBE_INT
#undef STROBE_FLOAT
#undef STROBE_ENUM
#undef STROBE_PLUGIN
#undef STROBE_STR
};

/// The instruction set a configuration's GPU executes (`gpu.isa`).
inline isa::Target isa_of(const GpuConfig& c) { return c.isa == "gfx942" ? isa::Target::Gfx942 : isa::Target::Gfx803; }

/// Every parameter, in declaration order, as the one declaration type every setting shares
/// (common/param_decl.h): the name is the dotted key.
const std::vector<ParamDecl>& param_table();

/// Directory holding the preset files (the source tree's configs/).
std::string preset_dir();
/// Names of the presets found in preset_dir() ("mi100", "r9nano", ...), sorted.
std::vector<std::string> preset_names();

/// The configuration of a preset name ("r9nano") or a path to a TOML file. The file is applied
/// over the declared defaults. Throws InputError naming the file and the offending key.
GpuConfig load_config(std::string_view preset_or_path);
/// Applies a TOML document (nested tables = dotted keys). `source` names it in errors.
void apply_toml(GpuConfig& cfg, std::string_view toml_text, std::string_view source);
/// Applies one `key=value` override (dotted key, value parsed as the parameter's type).
void apply_override(GpuConfig& cfg, std::string_view assignment);
/// Sets one parameter from text. Throws InputError for an unknown key or a bad value.
void set_param(GpuConfig& cfg, std::string_view key, std::string_view value);
/// Cross-parameter checks (geometry of caches, CUs per shader array, ...). Throws InputError.
void validate(const GpuConfig& cfg);

/// Enumeration keys as the model reads them: typed, so no model code compares the
/// configuration's text (a misspelt value in a comparison would silently be false). Each enum
/// lists its keys' choices in params.def's order (GpuConfig's tests check it); read one with
/// choice<E>(cfg, key).
enum class SimEngine : uint8_t { Exact, Quantum };      ///< sim.engine
enum class Switch : uint8_t { Off, On };                ///< every "off|on" key
enum class RowPolicy : uint8_t { Open, Closed };        ///< dram.row_policy
enum class FrameCaches : uint8_t { Keep, Invalidate };  ///< gfx.frame_caches

/// The index of enumeration key `key`'s value among its declared choices; std::logic_error for
/// a key that is not a declared enumeration (a programming error, not bad input).
size_t choice_index(const GpuConfig& cfg, std::string_view key);

/// The value of enumeration key `key` as `E` (see SimEngine).
template <class E>
E choice(const GpuConfig& cfg, std::string_view key) {
  return static_cast<E>(choice_index(cfg, key));
}

/// The fully expanded effective configuration: {"gpu": {"name": ..., ...}, "l2": {...}, ...}.
nlohmann::json to_json(const GpuConfig& cfg);

}  // namespace strobe::timing
