// The HTML report page (see html.h).
#include "report/html.h"

#include <cstdlib>

#include <fmt/core.h>

#include "common/atomic_file.h"
#include "common/error.h"

namespace strobe::report {

namespace {

std::string read_asset(const std::string& path, const char* what) {
  try {
    return read_file(path);
  } catch (const InputError& e) {
    throw InputError(fmt::format("report: {} is missing ({})", what, e.what()));
  }
}

/// Text safe inside a <script> element: no "</" can close it early (JSON and JavaScript both
/// read "<\/" as "</").
std::string script_safe(std::string s) {
  for (size_t at = 0; (at = s.find("</", at)) != std::string::npos; at += 3) s.replace(at, 2, "<\\/");
  return s;
}

std::string html_escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

}  // namespace

HtmlAssets load_html_assets() {
  const char* chart = std::getenv("STROBE_CHARTJS");
  const char* dir = std::getenv("STROBE_REPORT_ASSETS");
  const std::string assets = dir ? dir : std::string(STROBE_SOURCE_DIR) + "/src/report/assets";
  HtmlAssets a;
  a.chart_js = read_asset(chart ? chart : "/usr/share/javascript/chart.js/chart.min.js",
                          "Chart.js (Debian package libjs-chart.js, which scripts/setup installs)");
  a.script = read_asset(assets + "/report.js", "the report's script");
  a.style = read_asset(assets + "/report.css", "the report's style sheet");
  return a;
}

std::string html_page(const nlohmann::json& page, const std::string& title, const HtmlAssets& assets) {
  // Non-finite numbers have no JSON form; nlohmann writes them as null, which the page reads
  // as "no value".
  const std::string data = script_safe(page.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
  return fmt::format(
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>{}</title>\n"
      "<style>\n{}\n</style>\n</head>\n<body>\n<header><h1>{}</h1></header>\n<main id=\"report\"></main>\n"
      "<script id=\"strobe-data\" type=\"application/json\">{}</script>\n"
      "<script>\n{}\n</script>\n<script>\n{}\n</script>\n</body>\n</html>\n",
      html_escape(title), assets.style, html_escape(title), data, script_safe(assets.chart_js), script_safe(assets.script));
}

}  // namespace strobe::report
