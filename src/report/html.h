// The HTML report: one self-contained page (report/page.h's model, the page's script and
// style, and Chart.js, all inlined) that opens offline and fetches nothing.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace strobe::report {

/// What the page inlines besides its data.
struct HtmlAssets {
  std::string chart_js;   ///< Chart.js (Debian libjs-chart.js)
  std::string script;     ///< the page's own script (src/report/assets/report.js)
  std::string style;      ///< its style sheet (src/report/assets/report.css)
};

/// Reads the assets: Chart.js from $STROBE_CHARTJS or Debian's libjs-chart.js, the page's own
/// from $STROBE_REPORT_ASSETS or the source tree. Throws InputError naming a missing file and
/// the package or setup step that provides it.
HtmlAssets load_html_assets();

/// The page: `page` (report_page's model) as inert JSON, with the assets, titled `title`.
std::string html_page(const nlohmann::json& page, const std::string& title, const HtmlAssets& assets);

}  // namespace strobe::report
