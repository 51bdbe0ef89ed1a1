// The text writer (see text.h): fixed-width tables for a terminal, read from the JSON contract.
#include "report/text.h"

#include <algorithm>

#include <fmt/core.h>
#include <fmt/ranges.h>

#include "report/fields.h"

#include "report/json.h"

namespace strobe::report {

using detail::levels_text;
using detail::params_text;

namespace {

/// A sampled estimate's interval as its method states it (`interval.text` in its summary), or ""
/// for a method without one.
std::string interval_text(const nlohmann::json& method_summary) {
  if (!method_summary.is_object()) return "";
  const auto i = method_summary.find("interval");
  if (i == method_summary.end() || !i->is_object() || !i->contains("text")) return "";
  return (*i)["text"].get<std::string>();
}

/// The method table of a one-run comparison: its header line, then one row per method in the
/// order of `names`.
std::string method_table(const std::vector<std::string>& names, const nlohmann::json& methods) {
  // As wide as the longest name: a variant (pka:parallelism=0) is longer than any method.
  size_t w = 13;
  for (const auto& name : names) w = std::max(w, name.size());
  std::string out =
      fmt::format("{:<{}} {:>14} {:>9} {:>9} {:>10} {:>9} {:>15}   instructions detailed / predicted / analysis\n",
                  "method", w, "est. cycles", "error", "IPC err", "wall s", "speedup", "(min-max)");
  for (const auto& name : names) {
    const auto& m = methods.at(name);
    const auto& sh = m["sampling"]["shares"];
    out += fmt::format("{:<{}} {:>14} {:>8.2f}% {:>8.2f}% {:>10.3f} {:>8.2f}x {:>15}   {:.1f}% / {:.1f}% / {:.1f}%\n",
                       name, w, m["estimated_cycles"].get<uint64_t>(), m["error_pct"].get<double>(),
                       m["ipc_error_pct"].get<double>(), m["sampled_wall_seconds"].get<double>(),
                       m["speedup"].get<double>(),
                       fmt::format("{:.2f}-{:.2f}", m["speedup_min"].get<double>(), m["speedup_max"].get<double>()),
                       100 * sh["detailed"].get<double>(), 100 * sh["predicted"].get<double>(),
                       100 * sh["functional"].get<double>());
  }
  // Warming changes both the estimate and the speed: say when it was on (one comparison warms
  // every method alike; reports from before the option carry no warming).
  for (const auto& name : names) {
    const std::string w = methods.at(name)["sampling"].value("warming", std::string("none"));
    if (w == "none") continue;
    out += fmt::format("functional work warmed the {} (--sampling-warming {})\n", w, w);
    break;
  }
  // A statistical estimate's interval, and whether the full-detail cycles fell inside it.
  for (const auto& name : names) {
    const auto& m = methods.at(name);
    const auto& ms = m["sampling"].value("method_summary", nlohmann::json::object());
    const std::string i = interval_text(ms);
    if (i.empty()) continue;
    out += fmt::format("{}: {}", name, i);
    const auto iv = ms.find("interval");
    if (iv->contains("low") && !(*iv)["low"].is_null()) {
      const double full = double(m["full_cycles"].get<uint64_t>());
      const bool inside = full >= (*iv)["low"].get<double>() && full <= (*iv)["high"].get<double>();
      out += fmt::format("; full detail {} it", inside ? "inside" : "outside");
    }
    out += "\n";
  }
  // From a capture the speedup is per configuration, the capture reused: say what one
  // configuration costs with the capture counted.
  for (const auto& name : names)
    if (const auto& m = methods.at(name); m.contains("one_shot_speedup"))
      out += fmt::format("{}: from a capture; counting the capture's time, the speedup is {:.2f}x\n", name,
                         m["one_shot_speedup"].get<double>());
  // A reused profile's collection is not in the method's time: say what it cost (a capture's
  // profile came with the capture, whose cost the line above counts).
  for (const auto& name : names) {
    const auto& ms = methods.at(name)["sampling"].value("method_summary", nlohmann::json::object());
    const auto reused = ms.find("reused_profile");
    if (reused == ms.end() || reused->is_null() || methods.at(name).contains("one_shot_speedup")) continue;
    const auto& m = methods.at(name);
    const double seconds = (*reused)["seconds"].get<double>();
    const double with = m["full_wall_seconds"].get<double>() / (m["sampled_wall_seconds"].get<double>() + seconds);
    out += fmt::format("{}: profile {} reused (collected in {:.3f} s; counting it, the speedup is {:.2f}x)\n", name,
                       (*reused)["file"].get<std::string>(), seconds, with);
  }
  return out;
}

/// An analytical launch's CPI and stack (its `detail.cpi`, e.g. GPUMech's) on one indented line.
std::string predicted_cpi_text(const runtime::SampledLaunch& sm) {
  const nlohmann::json& c = sm.detail["cpi"];
  std::string stack;
  for (const auto& [name, v] : c["stack"].items())
    stack += fmt::format("{}{} {:.3f}", stack.empty() ? "" : " + ", name, v.get<double>());
  return fmt::format("  {} (level {}): CPI {:.3f} = {} (cycles per wave instruction per SIMD, {} SIMDs)\n", sm.method,
                     sm.detail.value("ablation", sm.level), c["cpi"].get<double>(), stack, c["simds"].get<uint32_t>());
}

/// Launches whose CPI stacks a text comparison shows; the JSON holds every one.
constexpr size_t kCpiLaunchesShown = 8;

/// Each analytical launch of method `name`: its CPI and the detailed model's, then both stacks
/// category by category (unmodelled detailed categories marked).
std::string cpi_tables(const std::string& name, const nlohmann::json& m) {
  std::string out;
  size_t shown = 0, with_cpi = 0;
  for (const auto& k : m["kernels"]) {
    if (!k.contains("cpi")) continue;
    ++with_cpi;
    if (shown == kCpiLaunchesShown) continue;
    ++shown;
    const auto& c = k["cpi"];
    if (out.empty())
      out = fmt::format("\n{}: CPI stacks, predicted beside detailed (cycles per wave instruction per SIMD)\n", name);
    out += fmt::format("launch {} {}: CPI {:.3f} predicted, {:.3f} detailed: CPI error {:+.2f}%, |cycles error| {:.2f}%\n",
                       k["launch"].get<size_t>(), k["name"].get<std::string>(), c["predicted"].get<double>(),
                       c["detailed"].get<double>(), c["error_pct"].get<double>(), k["error_pct"].get<double>());
    out += fmt::format("  {:<20} {:>10} {:>10}\n", "category", "predicted", "detailed");
    for (const auto& row : c["stack"]) {
      const bool modelled = row["modelled"].get<bool>();
      const std::string label = modelled ? fmt::format("{} / {}", row["category"].get<std::string>(),
                                                       row["detailed_category"].get<std::string>())
                                         : row["detailed_category"].get<std::string>();
      out += fmt::format("  {:<20} {:>10} {:>10.3f}{}\n", label,
                         modelled ? fmt::format("{:.3f}", row["predicted"].get<double>()) : std::string("-"),
                         row["detailed"].get<double>(), modelled ? "" : "  (unmodelled)");
    }
  }
  if (with_cpi > shown) out += fmt::format("({} more launches with CPI stacks in --json)\n", with_cpi - shown);
  if (m.contains("mean_abs_cpi_error_pct"))
    out += fmt::format("{}: mean |CPI error| {:.2f}% over {} launch{}\n", name, m["mean_abs_cpi_error_pct"].get<double>(),
                       with_cpi, with_cpi == 1 ? "" : "es");
  return out;
}

}  // namespace

std::string run_text(const RunReport& r) {
  std::string out;
  uint64_t wave = 0, cycles = 0;
  double kernel_wall = 0, sim_seconds = 0;
  for (const auto& l : r.launches) {
    wave += l.result.stats.wave_instructions;
    kernel_wall += l.result.wall_seconds;
    std::string timing;
    if (const auto& t = l.result.timing) {
      cycles += t->cycles;
      sim_seconds += t->sim_seconds;
      timing = fmt::format("  {} cycles  IPC {:.2f}", t->cycles, t->ipc);
    }
    out += fmt::format("{:<24} grid {}x{}x{} local {}x{}x{}  {} waves  {} wave instructions{}\n", l.result.kernel,
                       l.grid[0], l.grid[1], l.grid[2], l.local[0], l.local[1], l.local[2], l.result.stats.wavefronts,
                       l.result.stats.wave_instructions, timing);
    if (const auto& sm = l.result.sampling; sm && sm->detail.contains("cpi")) out += predicted_cpi_text(*sm);
  }
  if (cycles) out += fmt::format("simulated: {} cycles, {:.6f} ms\n", cycles, sim_seconds * 1e3);
  if (r.host.is_object()) {
    // A host program's whole simulated time, and what its copies across the link took.
    auto engine = [&](const char* key) { return r.host.value(key, nlohmann::json::object()); };
    const auto to_dev = engine("to_device"), to_host = engine("to_host"), compute = engine("compute");
    out += fmt::format(
        "host program: {:.6f} ms simulated; copies to the device {} ({} B, {:.6f} ms), to the host {} ({} B, {:.6f} ms); "
        "compute engine busy {:.6f} ms\n",
        r.host.value("span_seconds", 0.0) * 1e3, to_dev.value("commands", uint64_t(0)), to_dev.value("bytes", uint64_t(0)),
        to_dev.value("busy_seconds", 0.0) * 1e3, to_host.value("commands", uint64_t(0)), to_host.value("bytes", uint64_t(0)),
        to_host.value("busy_seconds", 0.0) * 1e3, compute.value("busy_seconds", 0.0) * 1e3);
  }
  if (r.sampling_summary.is_object())
    if (const std::string i = interval_text(r.sampling_summary.value("method_summary", nlohmann::json::object()));
        !i.empty())
      out += fmt::format("{}: {}\n", r.sampling, i);
  double rate = kernel_wall > 0 ? double(wave) / kernel_wall : 0;
  out += fmt::format("{}: {} mode, {} launch{}, {} wave instructions, {:.3f} s wall ({:.2f} M wave instructions/s)\n",
                     r.benchmark, r.mode, r.launches.size(), r.launches.size() == 1 ? "" : "es", wave, r.wall_seconds,
                     rate / 1e6);
  return out;
}

std::string comparison_text(const nlohmann::json& c) {
  // The methods in the order they were asked for: `sampling` keeps the --sampling list, while
  // the `methods` object is ordered by name.
  std::vector<std::string> names;
  {
    const std::string list = c["sampling"].get<std::string>();
    size_t start = 0;
    for (size_t comma; (comma = list.find(',', start)) != std::string::npos; start = comma + 1)
      names.push_back(list.substr(start, comma - start));
    names.push_back(list.substr(start));
  }
  const auto& first = c["methods"].at(names.front());
  const size_t launches = c["kernels"].size();
  const int repeat = c["repeat"].get<int>();
  std::string out = fmt::format("{}: full detailed simulation {} cycles in {:.3f} s ({} launch{}, median of {} run{})\n",
                                c["benchmark"].get<std::string>(), first["full_cycles"].get<uint64_t>(),
                                first["full_wall_seconds"].get<double>(), launches, launches == 1 ? "" : "es", repeat,
                                repeat == 1 ? "" : "s");
  out += method_table(names, c["methods"]);
  for (const auto& name : names) out += cpi_tables(name, c["methods"].at(name));
  return out;
}

std::string set_comparison_text(const nlohmann::json& rep) {
  const auto methods = rep["methods"].get<std::vector<std::string>>();
  std::string out = fmt::format("set {} (size {}): {} run{}, {} repeat{} of the reference and each method\n",
                                rep["set"].get<std::string>(), rep["size"].get<std::string>(), rep["runs"].size(),
                                rep["runs"].size() == 1 ? "" : "s", rep["repeat"].get<int>(),
                                rep["repeat"].get<int>() == 1 ? "" : "s");
  out += fmt::format("{:<13} {:<30} {:>13}", "benchmark", "params", "full cycles");
  for (const auto& m : methods)
    out += fmt::format(" | {:>14} {:>22}  {:<28}", m + " error", "speedup (min-max)", "levels");
  out += "\n";
  for (const auto& r : rep["runs"]) {
    out += fmt::format("{:<13} {:<30} {:>13}", r["benchmark"].get<std::string>(), params_text(r["args"]),
                       r["full_cycles"].get<uint64_t>());
    for (const auto& m : methods) {
      const auto& x = r["methods"][m];
      if (x.contains("failure")) {
        out += fmt::format(" | {:>14} {:>22}  {:<28}", "failed", "-", "(see below)");
        continue;
      }
      const std::string speedup = fmt::format("{:.2f}x ({:.2f}-{:.2f})", x["speedup"].get<double>(),
                                              x["speedup_min"].get<double>(), x["speedup_max"].get<double>());
      out += fmt::format(" | {:>13.2f}% {:>22}  {:<28}", x["error_pct"].get<double>(), speedup,
                         levels_text(x["levels"]) + (x["fallback"].get<bool>() ? " (fallback)" : ""));
    }
    out += "\n";
  }
  for (const auto& r : rep["runs"])
    for (const auto& m : methods)
      if (r["methods"][m].contains("failure"))
        out += fmt::format("{} failed on {} {}: {}\n", m, r["benchmark"].get<std::string>(), params_text(r["args"]),
                           r["methods"][m]["failure"].get<std::string>());
  out += fmt::format("\n{:<13} {:>5} {:>14} {:>16} {:>11} {:>10} {:>18} {:>9} {:>20} {:>16} {:>12} {:>7}\n", "method",
                     "runs", "total speedup", "geomean speedup", "mean |err|", "max |err|", "summed-cycles err",
                     "fallback", "mean |err| sampled", "geomean IPC err", "sample size", "failed");
  for (const auto& m : methods) {
    const auto& a = rep["aggregates"][m];
    out += fmt::format("{:<13} {:>5} {:>13.2f}x {:>15.2f}x {:>10.2f}% {:>9.2f}% {:>17.2f}% {:>9} {:>19.2f}% {:>15.2f}% "
                       "{:>11.2f}% {:>7}\n",
                       m, a["runs"].get<size_t>(), a["total_speedup"].get<double>(), a["geomean_speedup"].get<double>(),
                       a["mean_abs_error_pct"].get<double>(), a["max_abs_error_pct"].get<double>(),
                       a["summed_cycles_error_pct"].get<double>(), a["fallback_runs"].get<size_t>(),
                       a["mean_abs_error_pct_sampled"].get<double>(), a["geomean_ipc_error_pct"].get<double>(),
                       100 * a["sample_size"].get<double>(), a.value("failed_runs", size_t{0}));
  }
  for (const auto& m : methods)
    if (rep["aggregates"][m].contains("one_shot_total_speedup"))
      out += fmt::format("{}: one-shot, every capture counted: {:.2f}x total speedup\n", m,
                         rep["aggregates"][m]["one_shot_total_speedup"].get<double>());
  return out;
}

}  // namespace strobe::report
