#!/usr/bin/python3
"""Renders real strobe reports in headless Chromium and checks what a reader would see.

Usage: browser_test.py STROBE WORKDIR
       browser_test.py --page REPORT.html SCREENSHOT.png   (checks an existing page only)

Makes a detailed run (with a fine timeline), a comparison of sampling methods against full
detail (GPUMech's CPI stacks, TBPoint's skipped regions, SimProf's interval), a set comparison
a sweep table, a graphics run with MEGsim's frame selection, a timed graphics run and a frame-sampling
comparison against every frame in detail, each by its strobe command, writes one report of them all, opens it from disk in Chromium (driven by Debian's
python3-selenium and chromium-driver) and asserts that the page logged no console error, that
every chart drew marks and coloured pixels, that nothing was fetched, and that a screenshot is produced
(WORKDIR/report.png). Exit 0 on success, 1 with the reason on failure.
"""
import os
import shutil
import subprocess
import sys
import time

from selenium import webdriver
from selenium.webdriver.chrome.service import Service

EXPECTED_CHARTS = [
    "CPI stack", "IPC timeline", "Dispatch and retire", "Per-CU issue rate over the run",
    "Per-SIMD VALU utilisation", "Cache hit rates", "Error against speedup", "Estimates",
    "Launches: simulated, predicted or skipped, per method", "CPI stacks compared",
    "Error against speedup, every run and method", "Error against speedup, every grid point and method",
    "Sweep cycles", "GPUMech CPI stack", "Per-frame work", "Frame similarity (MEGsim)", "Frames by cluster",
    "Per-frame cycles", "Per-frame cycles and the frames simulated", "Frame-sampling estimates",
    "Shader cores' CPI stack per frame", "Fixed-function stages busy per frame",
]


def fail(msg):
    print(f"FAIL: {msg}", file=sys.stderr)
    sys.exit(1)


def strobe(binary, *args):
    r = subprocess.run([binary, *args], capture_output=True, text=True)
    if r.returncode != 0:
        fail(f"strobe {' '.join(args)} exited {r.returncode}: {r.stderr.strip()[-2000:]}")
    return r


def make_results(binary, work):
    run = os.path.join(work, "run.json")
    cmp = os.path.join(work, "compare.json")
    strobe(binary, "run", "gaussian", "--param", "n=24", "--mode", "timing", "--timeline-interval", "100",
           "--json", run)
    analytical = os.path.join(work, "analytical.json")
    strobe(binary, "run", "gaussian", "--param", "n=24", "--mode", "analytical", "--set", "cu.scheduler=gto",
           "--json", analytical)
    # GPUMech models the rr and gto wave schedulers: the comparison simulates gto.
    strobe(binary, "compare", "gaussian", "--param", "n=24", "--sampling", "gpumech,tbpoint,simprof",
           "--set", "cu.scheduler=gto", "--json", cmp)
    # A set comparison (a set file of one line) and a sweep table, as their commands write them.
    set_file = os.path.join(work, "runs.txt")
    open(set_file, "w").write("gaussian --param n=16\n")
    set_json = os.path.join(work, "set.json")
    strobe(binary, "compare", "--set-file", set_file, "--sampling", "tbpoint,pka", "--json", set_json)
    spec = os.path.join(work, "l2.toml")
    open(spec, "w").write('workloads = ["gaussian --param n=16"]\nmethods = ["tbpoint"]\n'
                          '[grid]\n"l2.size_kb" = [512, 2048]\n')
    strobe(binary, "sweep", spec, "-j", "2", "--out", os.path.join(work, "sweep"))
    # A graphics run with MEGsim's frame selection (the setup's small glmark2 capture).
    gfx = os.path.join(work, "gfx.json")
    strobe(binary, "run", "gfx:glmark2-small", "--sampling", "megsim", "--json", gfx)
    # Its frames timed, and frame sampling against every frame in detail.
    gfx_timed = os.path.join(work, "gfx-timed.json")
    strobe(binary, "run", "gfx:glmark2-small", "--mode", "timing", "--json", gfx_timed)
    gfx_cmp = os.path.join(work, "gfx-compare.json")
    strobe(binary, "compare", "gfx:glmark2-small", "--sampling", "megsim,megsim-stratified,random-frames", "--json", gfx_cmp)
    paths = [run, analytical, cmp, set_json, os.path.join(work, "sweep", "results.json"), gfx, gfx_timed, gfx_cmp]
    return paths


def check_page(html, png, expected):
    """Opens `html` in headless Chromium; fails unless every check holds; writes `png`."""
    page = open(html, encoding="utf-8").read()
    for needle in ("<script src", "<link", "<img", "@import"):
        if needle in page:
            fail(f"the page loads an external resource ({needle})")
    for tool in ("/usr/bin/chromium", "/usr/bin/chromedriver"):
        if not os.path.exists(tool):
            fail(f"{tool} is missing: scripts/setup installs chromium and chromium-driver")
    opts = webdriver.ChromeOptions()
    opts.binary_location = "/usr/bin/chromium"
    for a in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1400,1000"):
        opts.add_argument(a)
    opts.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=opts)
    try:
        t0 = time.monotonic()
        driver.get("file://" + os.path.abspath(html))
        for _ in range(1200):
            if driver.execute_script("return !!(window.strobeReport && window.strobeReport.done)"):
                break
            time.sleep(0.05)
        else:
            fail("the page's script never finished (window.strobeReport.done)")
        load_seconds = time.monotonic() - t0
        severe = [e for e in driver.get_log("browser") if e["level"] in ("SEVERE", "ERROR")]
        if severe:
            fail(f"console errors: {severe}")
        errors = driver.execute_script("return window.strobeReport.errors")
        if errors:
            fail(f"charts failed: {errors}")
        charts = driver.execute_script("""
            return window.strobeReport.charts.map(c => {
              const ctx = c.canvas.getContext('2d');
              const img = ctx.getImageData(0, 0, c.canvas.width, c.canvas.height).data;
              // Axes, grid lines and labels are grey or black; marks are coloured.
              let inked = 0;
              for (let i = 0; i < img.length; i += 4) {
                if (img[i + 3] === 0) continue;
                const hi = Math.max(img[i], img[i + 1], img[i + 2]), lo = Math.min(img[i], img[i + 1], img[i + 2]);
                if (hi - lo > 24) inked++;
              }
              return {title: c.title, marks: c.marks(), inked};
            });""")
        titles = [c["title"] for c in charts]
        for want in expected:
            if want not in titles:
                fail(f"no chart '{want}' (charts: {titles})")
        if not charts:
            fail("the page drew no chart")
        for c in charts:
            if c["marks"] <= 0 or c["inked"] <= 0:
                fail(f"chart '{c['title']}' drew nothing ({c['marks']} marks, {c['inked']} coloured pixels)")
        fetched = driver.execute_script("return performance.getEntriesByType('resource').map(e => e.name)")
        if fetched:
            fail(f"the page fetched {fetched}")
        height = driver.execute_script("return document.documentElement.scrollHeight")
        driver.set_window_size(1400, min(int(height) + 40, 16000))
        if not driver.save_screenshot(png) or os.path.getsize(png) < 20000:
            fail("no screenshot")
        print(f"ok: {len(charts)} charts with marks, loaded and drawn in {load_seconds:.2f} s, screenshot {png} "
              f"({os.path.getsize(png)} bytes), page {len(page)} bytes")
    finally:
        driver.quit()


def main():
    if len(sys.argv) == 4 and sys.argv[1] == "--page":
        check_page(sys.argv[2], sys.argv[3], [])
        return
    if len(sys.argv) != 3:
        fail("usage: browser_test.py STROBE WORKDIR | --page REPORT.html SCREENSHOT.png")
    binary, work = sys.argv[1], sys.argv[2]
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    html = os.path.join(work, "report.html")
    results = make_results(binary, work)
    strobe(binary, "report", *results, "-o", html)
    check_page(html, os.path.join(work, "report.png"), EXPECTED_CHARTS)


if __name__ == "__main__":
    main()
