// Every GL call strobe's trace readers know, in one table: what each consumer does with it. The
// frame scanner, the state tracker and the program tracker classify a call here, so they cannot
// disagree on what a draw is, and a call none of them knows is counted and reported by the state
// tracker instead of being skipped in silence. Names are apitrace's; the EXT, ARB and OES forms
// of a core function are the core function (the ARB program-object entry points, whose
// arguments differ, are entries of their own).
#pragma once

#include <string_view>

namespace strobe::gfx {

/// What strobe does with a GL call.
enum class GlCallKind {
  Unknown,          ///< in no list: the state tracker counts and reports it
  State,            ///< changes state the state tracker follows (bindings, buffers, textures, fixed function)
  Program,          ///< shader and program objects: the program tracker follows it
  Uniform,          ///< sets a uniform of the current program
  Draw,             ///< a draw the renderer draws (glDrawArrays, glDrawElements, glDrawRangeElements)
  UnsupportedDraw,  ///< a draw the renderer cannot draw (multi-draw, instanced, indirect): refused by name
  Clear,            ///< glClear
  Blit,             ///< glBlitFramebuffer
  Context,          ///< makes a context current or destroys one
  NoEffect,         ///< reads state back, allocates names bound later, or presents: nothing to follow
};

/// The kind of the call named `name` (apitrace's name).
GlCallKind gl_call_kind(std::string_view name);

/// `name` without an EXT, ARB or OES suffix.
std::string_view gl_core_name(std::string_view name);

}  // namespace strobe::gfx
