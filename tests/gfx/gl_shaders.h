// GL shader sources the graphics tests share: real programs' shaders, as the programs wrote them.
#pragma once

namespace strobe::gfx::test {

/// glmark2's "build" scene vertex shader: clip position and a diffuse colour from two matrices.
inline constexpr const char* kLitVertex = R"(#version 100
attribute vec3 position;
attribute vec3 normal;
uniform mat4 ModelViewProjectionMatrix;
uniform mat4 NormalMatrix;
varying vec4 Color;
void main(void) {
  vec3 N = normalize(vec3(NormalMatrix * vec4(normal, 1.0)));
  float diffuse = max(dot(N, normalize(vec3(1.0, 1.0, 1.0))), 0.0);
  Color = vec4(diffuse * vec3(0.7, 0.4, 0.2), 1.0);
  gl_Position = ModelViewProjectionMatrix * vec4(position, 1.0);
}
)";

/// Its fragment shader.
inline constexpr const char* kLitFragment = R"(#version 100
precision mediump float;
varying vec4 Color;
void main(void) { gl_FragColor = Color; }
)";

}  // namespace strobe::gfx::test
