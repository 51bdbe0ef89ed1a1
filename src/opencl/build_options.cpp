// Build option parsing (see build_options.h).
#include "opencl/build_options.h"

#include <cctype>
#include <filesystem>

#include "opencl/api.h"

namespace strobe::opencl {

namespace {

std::string absolute(const std::string& path) {
  if (path.empty() || path[0] == '/') return path;
  std::error_code ec;
  auto abs = std::filesystem::absolute(path, ec);
  return ec ? path : abs.string();
}

}  // namespace

std::vector<std::string> split_options(std::string_view s, cl_int invalid_code) {
  std::vector<std::string> out;
  std::string cur;
  bool in_token = false;
  char quote = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (quote) {
      if (c == quote) quote = 0;
      else if (c == '\\' && quote == '"' && i + 1 < s.size() && (s[i + 1] == '"' || s[i + 1] == '\\')) cur += s[++i];
      else cur += c;
    } else if (c == '"' || c == '\'') {
      quote = c;
      in_token = true;
    } else if (c == '\\' && i + 1 < s.size()) {
      cur += s[++i];
      in_token = true;
    } else if (std::isspace(static_cast<unsigned char>(c))) {
      if (in_token) out.push_back(std::move(cur));
      cur.clear();
      in_token = false;
    } else {
      cur += c;
      in_token = true;
    }
  }
  if (quote) fail(invalid_code, "unterminated quote in the options");
  if (in_token) out.push_back(std::move(cur));
  return out;
}

BuildOptions parse_compile_options(std::string_view options, cl_int invalid_code) {
  BuildOptions r;
  auto tokens = split_options(options, invalid_code);
  auto value_of = [&](size_t& i, const std::string& flag) -> std::string {
    if (tokens[i].size() > flag.size()) return tokens[i].substr(flag.size());
    if (i + 1 >= tokens.size()) fail(invalid_code, "option " + flag + " needs a value");
    return tokens[++i];
  };
  for (size_t i = 0; i < tokens.size(); ++i) {
    const std::string& t = tokens[i];
    if (t.starts_with("-D")) {
      r.compiler_args.push_back("-D" + value_of(i, "-D"));
    } else if (t.starts_with("-U")) {
      r.compiler_args.push_back("-U" + value_of(i, "-U"));
    } else if (t.starts_with("-I")) {
      r.compiler_args.push_back("-I" + absolute(value_of(i, "-I")));
    } else if (t == "-include") {
      r.compiler_args.push_back("-include");
      r.compiler_args.push_back(absolute(value_of(i, "-include")));
    } else if (t.starts_with("-cl-std=")) {
      r.compiler_args.push_back(t);
    } else if (t == "-cl-kernel-arg-info") {
      r.kernel_arg_info = true;
      r.compiler_args.push_back(t);
    } else if (t.starts_with("-cl-") || t == "-w" || t.starts_with("-W") || t == "-g" ||
               (t.size() == 3 && t.starts_with("-O") && std::string_view("0123s").find(t[2]) != std::string_view::npos)) {
      if (t == "-cl-denorms-are-zero") r.math.daz_opt = true;
      if (t == "-cl-finite-math-only" || t == "-cl-fast-relaxed-math") r.math.finite_only = true;
      if (t == "-cl-unsafe-math-optimizations" || t == "-cl-fast-relaxed-math") r.math.unsafe_math = true;
      if (t == "-cl-fp32-correctly-rounded-divide-sqrt") r.math.correctly_rounded_sqrt = true;
      r.compiler_args.push_back(t);  // the compiler rejects what it does not know
    } else {
      fail(invalid_code, "unsupported build option '" + t + "' (strobe passes -D, -U, -I, -include, -cl-*, -w, -W*, -g, -O0..3)");
    }
  }
  return r;
}

BuildOptions parse_link_options(std::string_view options) {
  BuildOptions r;
  for (const std::string& t : split_options(options, CL_INVALID_LINKER_OPTIONS)) {
    if (t == "-create-library") r.create_library = true;
    else if (t == "-enable-link-options" || t == "-cl-denorms-are-zero" || t == "-cl-no-signed-zeros" ||
             t == "-cl-unsafe-math-optimizations" || t == "-cl-finite-math-only" || t == "-cl-fast-relaxed-math")
      r.notes += "strobe: link option " + t + " has no effect: code is generated when each object is compiled\n";
    else fail(CL_INVALID_LINKER_OPTIONS, "unsupported link option '" + t + "'");
  }
  return r;
}

}  // namespace strobe::opencl
