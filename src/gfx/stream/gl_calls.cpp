#include "gfx/stream/gl_calls.h"

#include <string>
#include <unordered_map>

namespace strobe::gfx {

namespace {

using K = GlCallKind;

/// The table: exact names (after gl_core_name, except the ARB program-object entry points).
const std::unordered_map<std::string_view, GlCallKind>& table() {
  static const std::unordered_map<std::string_view, GlCallKind> t = {
      // Contexts.
      {"glXMakeCurrent", K::Context}, {"glXMakeContextCurrent", K::Context}, {"eglMakeCurrent", K::Context},
      {"glXDestroyContext", K::Context}, {"eglDestroyContext", K::Context},
      // Shader and program objects (gl_programs).
      {"glCreateShader", K::Program}, {"glCreateShaderObjectARB", K::Program}, {"glShaderSource", K::Program},
      {"glShaderSourceARB", K::Program}, {"glCreateProgram", K::Program}, {"glCreateProgramObjectARB", K::Program},
      {"glAttachShader", K::Program}, {"glAttachObjectARB", K::Program}, {"glDetachShader", K::Program},
      {"glDetachObjectARB", K::Program}, {"glBindAttribLocation", K::Program}, {"glBindAttribLocationARB", K::Program},
      {"glProgramBinary", K::Program}, {"glProgramParameteri", K::Program}, {"glCreateShaderProgramv", K::Program},
      {"glLinkProgram", K::Program}, {"glLinkProgramARB", K::Program},
      {"glUseProgram", K::State}, {"glUseProgramObjectARB", K::State}, {"glGetUniformLocation", K::State},
      // Buffers and vertex inputs.
      {"glBindBuffer", K::State}, {"glDeleteBuffers", K::State}, {"glBufferData", K::State},
      {"glBufferSubData", K::State}, {"glEnableVertexAttribArray", K::State}, {"glDisableVertexAttribArray", K::State},
      {"glVertexAttribPointer", K::State}, {"glBindVertexArray", K::State}, {"glDeleteVertexArrays", K::State},
      {"glVertexAttrib1f", K::State}, {"glVertexAttrib2f", K::State}, {"glVertexAttrib3f", K::State},
      {"glVertexAttrib4f", K::State}, {"glVertexAttrib1fv", K::State}, {"glVertexAttrib2fv", K::State},
      {"glVertexAttrib3fv", K::State}, {"glVertexAttrib4fv", K::State}, {"glVertexAttrib1s", K::State},
      {"glVertexAttrib2s", K::State}, {"glVertexAttrib3s", K::State}, {"glVertexAttrib4s", K::State},
      {"glVertexAttrib1d", K::State}, {"glVertexAttrib2d", K::State}, {"glVertexAttrib3d", K::State},
      {"glVertexAttrib4d", K::State}, {"glVertexAttrib1sv", K::State}, {"glVertexAttrib2sv", K::State},
      {"glVertexAttrib3sv", K::State}, {"glVertexAttrib4sv", K::State}, {"glVertexAttrib1dv", K::State},
      {"glVertexAttrib2dv", K::State}, {"glVertexAttrib3dv", K::State}, {"glVertexAttrib4dv", K::State},
      // Textures.
      {"glActiveTexture", K::State}, {"glBindTexture", K::State}, {"glPixelStorei", K::State},
      {"glTexImage2D", K::State}, {"glTexSubImage2D", K::State}, {"glTexParameteri", K::State},
      {"glTexParameterf", K::State}, {"glGenerateMipmap", K::State}, {"glDeleteTextures", K::State},
      // Framebuffers.
      {"glBindFramebuffer", K::State}, {"glDeleteFramebuffers", K::State}, {"glFramebufferTexture2D", K::State},
      {"glFramebufferRenderbuffer", K::State}, {"glBindRenderbuffer", K::State},
      {"glRenderbufferStorage", K::State}, {"glRenderbufferStorageMultisample", K::State},
      // Fixed function.
      {"glEnable", K::State}, {"glDisable", K::State}, {"glDepthFunc", K::State}, {"glDepthMask", K::State},
      {"glBlendFunc", K::State}, {"glBlendFuncSeparate", K::State}, {"glBlendEquation", K::State},
      {"glCullFace", K::State}, {"glFrontFace", K::State}, {"glViewport", K::State}, {"glScissor", K::State},
      {"glColorMask", K::State}, {"glClearColor", K::State}, {"glClearDepth", K::State}, {"glClearDepthf", K::State},
      {"glPolygonOffset", K::State}, {"glDepthRange", K::State}, {"glDepthRangef", K::State},
      // Work.
      {"glClear", K::Clear}, {"glBlitFramebuffer", K::Blit},
      {"glDrawArrays", K::Draw}, {"glDrawElements", K::Draw}, {"glDrawRangeElements", K::Draw},
      {"glMultiDrawArrays", K::UnsupportedDraw}, {"glMultiDrawElements", K::UnsupportedDraw},
      {"glMultiDrawArraysIndirect", K::UnsupportedDraw}, {"glMultiDrawElementsIndirect", K::UnsupportedDraw},
      {"glMultiDrawElementsBaseVertex", K::UnsupportedDraw}, {"glDrawArraysInstanced", K::UnsupportedDraw},
      {"glDrawElementsInstanced", K::UnsupportedDraw}, {"glDrawArraysIndirect", K::UnsupportedDraw},
      {"glDrawElementsIndirect", K::UnsupportedDraw}, {"glDrawElementsBaseVertex", K::UnsupportedDraw},
      {"glDrawRangeElementsBaseVertex", K::UnsupportedDraw}, {"glDrawElementsInstancedBaseVertex", K::UnsupportedDraw},
      {"glDrawArraysInstancedBaseInstance", K::UnsupportedDraw},
      {"glDrawElementsInstancedBaseInstance", K::UnsupportedDraw},
      {"glDrawElementsInstancedBaseVertexBaseInstance", K::UnsupportedDraw},
      // Nothing to follow: names allocated before they are bound (objects are made on first
      // bind), compilation (the program is read at link), and presentation.
      {"glGenBuffers", K::NoEffect}, {"glGenTextures", K::NoEffect}, {"glGenFramebuffers", K::NoEffect},
      {"glGenRenderbuffers", K::NoEffect}, {"glGenVertexArrays", K::NoEffect}, {"glCompileShader", K::NoEffect},
      {"glCompileShaderARB", K::NoEffect}, {"glDeleteShader", K::NoEffect}, {"glDeleteProgram", K::NoEffect},
      {"glDeleteObjectARB", K::NoEffect}, {"glDeleteRenderbuffers", K::NoEffect}, {"glFlush", K::NoEffect},
      {"glFinish", K::NoEffect}, {"glXSwapBuffers", K::NoEffect}, {"eglSwapBuffers", K::NoEffect},
      {"glXCreateNewContext", K::NoEffect}, {"glXCreateContext", K::NoEffect},
      {"glXCreateContextAttribsARB", K::NoEffect}, {"eglCreateContext", K::NoEffect},
      {"glXChooseFBConfig", K::NoEffect}, {"glXChooseVisual", K::NoEffect}, {"glXGetFBConfigAttrib", K::NoEffect},
      {"glXGetVisualFromFBConfig", K::NoEffect}, {"glXQueryExtensionsString", K::NoEffect},
      {"glXGetProcAddress", K::NoEffect}, {"glXGetProcAddressARB", K::NoEffect}, {"glXSwapIntervalEXT", K::NoEffect},
      {"glXSwapIntervalMESA", K::NoEffect}, {"glXQueryDrawable", K::NoEffect}, {"glXGetSwapIntervalMESA", K::NoEffect},
      {"glXCreateWindow", K::NoEffect}, {"glXDestroyWindow", K::NoEffect}, {"glHint", K::NoEffect},
      {"glReadPixels", K::NoEffect}, {"glValidateProgram", K::NoEffect}, {"glReleaseShaderCompiler", K::NoEffect},
  };
  return t;
}

bool starts(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

}  // namespace

std::string_view gl_core_name(std::string_view n) {
  for (std::string_view suffix : {"EXT", "ARB", "OES"})
    if (n.size() > suffix.size() && n.substr(n.size() - suffix.size()) == suffix) return n.substr(0, n.size() - suffix.size());
  return n;
}

GlCallKind gl_call_kind(std::string_view name) {
  const auto& t = table();
  if (auto it = t.find(name); it != t.end()) return it->second;
  const std::string_view core = gl_core_name(name);
  if (auto it = t.find(core); it != t.end()) return it->second;
  // Families: the uniform setters, and calls that only read state back.
  if (starts(core, "glUniform")) return K::Uniform;
  if (starts(core, "glGet") || starts(core, "glIs") || starts(core, "glCheck") || starts(core, "glXGet") ||
      starts(core, "glXQuery") || starts(core, "eglGet") || starts(core, "eglQuery"))
    return K::NoEffect;
  return K::Unknown;
}

}  // namespace strobe::gfx
