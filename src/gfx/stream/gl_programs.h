// The GLSL programs a captured GL program links: shader objects, their sources and attachments,
// and attribute locations, followed through the trace up to each glLinkProgram.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace strobe::gfx {

namespace trace {
class Call;
}

/// One successful-looking glLinkProgram: what was attached and bound at that call.
struct GlProgram {
  uint64_t id = 0;         ///< the program object's name in the trace
  uint64_t link_call = 0;  ///< the glLinkProgram call's number
  std::string vertex;      ///< the attached vertex shader's source, as glShaderSource gave it
  std::string fragment;    ///< the attached fragment shader's source
  /// Attribute locations bound before the link. apitrace records the locations the capturing
  /// driver chose as glBindAttribLocation calls of its own, so these are the ones the program used.
  std::map<std::string, int> attribute_locations;
};

/// Follows shader and program objects call by call (the GL's rules: a shader's source is its
/// last glShaderSource; a program links what is attached at glLinkProgram).
class ProgramTracker {
 public:
  /// `path` names the trace in errors.
  explicit ProgramTracker(std::string path);
  ~ProgramTracker();
  /// Movable, so each GL context of a trace can keep its own.
  ProgramTracker(ProgramTracker&&) noexcept;
  ProgramTracker& operator=(ProgramTracker&&) noexcept;
  /// Applies `c`; returns the program it linked when it is a glLinkProgram. Programs of other
  /// shapes raise NotImplementedError naming the call; a malformed call is an InputError.
  std::optional<GlProgram> apply(const trace::Call& c);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

/// Every glLinkProgram of the trace at `path` that links one vertex and one fragment shader,
/// in call order. Programs of other shapes (geometry stages, separable or binary programs) raise
/// NotImplementedError naming the call; a malformed call is an InputError naming it.
std::vector<GlProgram> linked_programs(const std::string& path);

}  // namespace strobe::gfx
