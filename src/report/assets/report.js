// strobe's report page: draws the page model (src/report/page.h) inlined as #strobe-data with
// Chart.js, and heat maps on plain canvases. Every chart registers itself in
// window.strobeReport.charts with a count of the marks it drew, which the browser test reads.
'use strict';
(function () {
  const data = JSON.parse(document.getElementById('strobe-data').textContent);
  const report = { charts: [], errors: [] };
  window.strobeReport = report;
  const main = document.getElementById('report');
  const palette = ['#4e79a7', '#f28e2b', '#e15759', '#76b7b2', '#59a14f', '#edc948', '#b07aa1', '#ff9da7',
    '#9c755f', '#bab0ac', '#1f77b4', '#8c564b'];
  const levelColour = {
    detailed: '#4e79a7', region: '#76b7b2', cluster: '#f28e2b', analytical: '#59a14f', 'ipc-projection': '#edc948',
    profile: '#b07aa1', functional: '#bab0ac', predicted: '#e15759', phase: '#ff9da7', range: '#d37295',
    kernel: '#9c755f', warp: '#86bcb6', 'basic-block': '#8cd17d', wave: '#86bcb6', block: '#8cd17d'
  };
  const colourOf = (i) => palette[i % palette.length];
  const levelOf = (l) => levelColour[l] || colourOf(Object.keys(levelColour).length + l.length);
  Chart.defaults.animation = false;
  Chart.defaults.responsive = true;
  Chart.defaults.maintainAspectRatio = false;
  Chart.defaults.font.size = 11;

  // ---- small helpers
  function el(tag, attrs, ...children) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (k === 'class') e.className = v; else e.setAttribute(k, v);
    }
    for (const c of children) e.append(c instanceof Node ? c : document.createTextNode(String(c)));
    return e;
  }
  function fmt(v, digits) {
    if (v === null || v === undefined || (typeof v === 'number' && !isFinite(v))) return '—';
    if (typeof v !== 'number') return typeof v === 'object' ? JSON.stringify(v) : String(v);
    if (Number.isInteger(v) && Math.abs(v) < 1e15) return v.toLocaleString('en-US');
    return v.toLocaleString('en-US', { maximumSignificantDigits: digits || 4 });
  }
  function table(headers, rows, rowClass) {
    const t = el('table');
    t.append(el('thead', {}, el('tr', {}, ...headers.map((h) => el('th', {}, h)))));
    const b = el('tbody');
    rows.forEach((r, i) => {
      const tr = el('tr', rowClass ? { class: rowClass(i) } : {}, ...r.map((c) => el('td', {}, c instanceof Node ? c : fmt(c))));
      b.append(tr);
    });
    t.append(b);
    return t;
  }
  function figure(parent, title, note, height) {
    const f = el('figure', { class: 'chart' });
    f.append(el('figcaption', {}, title));
    if (note) f.append(el('p', { class: 'note' }, note));
    const box = el('div', { class: 'canvas-box', style: `height:${height || 260}px` });
    const canvas = el('canvas');
    box.append(canvas);
    f.append(box);
    parent.append(f);
    return canvas;
  }
  function chartMarks(chart) {
    let n = 0;
    chart.data.datasets.forEach((d, i) => {
      if (!chart.isDatasetVisible(i)) return;
      for (const e of chart.getDatasetMeta(i).data) if (!e.skip && isFinite(e.x) && isFinite(e.y)) n++;
    });
    return n;
  }
  function addChart(canvas, title, config) {
    try {
      const chart = new Chart(canvas, config);
      report.charts.push({ title, canvas, marks: () => chartMarks(chart) });
    } catch (e) {
      report.errors.push(`${title}: ${e}`);
      throw e;
    }
  }
  const linear = (title, extra) => Object.assign({ type: 'linear', title: { display: !!title, text: title } }, extra || {});

  // ---- heat maps (rows x columns of values in [0, max]) on a plain canvas
  function heatmap(parent, title, note, m) {
    const rows = m.values.length, cols = rows ? m.values[0].length : 0;
    const cell = Math.max(2, Math.min(14, Math.floor(240 / Math.max(1, rows))));
    const canvas = figure(parent, title, note, rows * cell + 60);
    const draw = () => {
      const box = canvas.parentElement, ctx = canvas.getContext('2d');
      const w = box.clientWidth, h = box.clientHeight, ratio = window.devicePixelRatio || 1;
      canvas.width = w * ratio, canvas.height = h * ratio;
      canvas.style.width = `${w}px`, canvas.style.height = `${h}px`;
      ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
      ctx.clearRect(0, 0, w, h);
      const left = 56, top = 8, right = 90, plotW = w - left - right, plotH = rows * cell;
      let max = 0;
      for (const r of m.values) for (const v of r) if (v !== null && v > max) max = v;
      const scaleMax = m.max || max || 1;
      let drawn = 0;
      const cw = plotW / Math.max(1, cols);
      for (let r = 0; r < rows; r++) {
        for (let c = 0; c < cols; c++) {
          const v = m.values[r][c];
          if (v === null || v === undefined) continue;
          const t = Math.max(0, Math.min(1, v / scaleMax));
          ctx.fillStyle = `hsl(${220 - 200 * t}, 70%, ${92 - 52 * t}%)`;
          ctx.fillRect(left + c * cw, top + r * cell, Math.ceil(cw), cell);
          drawn++;
        }
      }
      ctx.fillStyle = '#333';
      ctx.font = '11px sans-serif';
      ctx.textAlign = 'right';
      const every = Math.ceil(12 / cell);
      for (let r = 0; r < rows; r += every) ctx.fillText(m.rowLabel(r), left - 4, top + r * cell + cell / 2 + 4);
      ctx.textAlign = 'center';
      const ticks = Math.min(cols, 8);
      for (let i = 0; i < ticks; i++) {
        const c = Math.floor(i * cols / ticks);
        ctx.fillText(m.colLabel(c), left + (c + 0.5) * cw, top + plotH + 14);
      }
      ctx.fillText(m.xTitle, left + plotW / 2, top + plotH + 30);
      // Colour bar.
      for (let i = 0; i < 100; i++) {
        const t = i / 99;
        ctx.fillStyle = `hsl(${220 - 200 * t}, 70%, ${92 - 52 * t}%)`;
        ctx.fillRect(w - right + 20, top + plotH - (i + 1) * plotH / 100, 12, plotH / 100 + 1);
      }
      ctx.fillStyle = '#333';
      ctx.textAlign = 'left';
      ctx.fillText(fmt(scaleMax, 3), w - right + 36, top + 10);
      ctx.fillText('0', w - right + 36, top + plotH);
      ctx.fillText(m.unit, w - right + 14, top + plotH + 30);
      return drawn;
    };
    let marks = draw();
    window.addEventListener('resize', () => { marks = draw(); });
    report.charts.push({ title, canvas, marks: () => marks });
  }

  // ---- run sections
  function modelStacks(sec, parent) {
    const ks = sec.kernels.filter((k) => k.model_cpi);
    if (!ks.length) return;
    const cats = [...new Set(ks.flatMap((k) => Object.keys(k.model_cpi)))];
    addChart(figure(parent, 'CPI stack per kernel (GPUMech)', 'The analytical model\'s cycles per wave instruction by category, weighted by each launch\'s instructions.', 40 + 26 * ks.length + 40),
      'GPUMech CPI stack', {
        type: 'bar', data: { labels: ks.map((k) => `${k.name} (${k.launches})`), datasets: cats.map((c, i) => ({ label: c, backgroundColor: colourOf(i), data: ks.map((k) => k.model_cpi[c] || 0) })) },
        options: { indexAxis: 'y', scales: { x: linear('CPI', { stacked: true, min: 0 }), y: { stacked: true } } }
      });
  }

  function cpiStacks(sec, parent) {
    const total = (k) => Object.values(k.cpi).reduce((a, b) => a + b, 0);
    const ks = sec.kernels.filter((k) => total(k) > 0);
    if (!ks.length) return;
    const datasets = sec.cpi_categories.map((cat, i) => ({
      label: cat, backgroundColor: colourOf(i),
      data: ks.map((k) => {
        const total = Object.values(k.cpi).reduce((a, b) => a + b, 0);
        return total ? 100 * (k.cpi[cat] || 0) / total : 0;
      })
    }));
    addChart(figure(parent, 'CPI stack per kernel (detailed)', 'Share of CU cycles by what held up each CU\'s oldest wave, summed over the kernel\'s launches.', 40 + 26 * ks.length + 40),
      'CPI stack', {
        type: 'bar', data: { labels: ks.map((k) => `${k.name} (${k.launches})`), datasets },
        options: { indexAxis: 'y', scales: { x: linear('% of CU cycles', { stacked: true, max: 100 }), y: { stacked: true } } }
      });
  }

  function launchStrip(parent, title, note, rows) {
    // rows: [{label, launches: [{start, end, level, tip}]}]
    const levels = [...new Set(rows.flatMap((r) => r.launches.map((l) => l.level)))];
    const datasets = levels.map((lv) => ({
      label: lv, backgroundColor: levelOf(lv), borderWidth: 0, barPercentage: 0.8, categoryPercentage: 1,
      data: rows.flatMap((r) => r.launches.filter((l) => l.level === lv).map((l) => ({ x: [l.start, l.end], y: r.label, tip: l.tip })))
    }));
    addChart(figure(parent, title, note, 60 + 30 * rows.length), title, {
      type: 'bar', data: { labels: rows.map((r) => r.label), datasets },
      options: {
        indexAxis: 'y', grouped: false,
        scales: { x: linear('cycles', { min: 0 }), y: { type: 'category', stacked: true } },
        plugins: { tooltip: { callbacks: { label: (c) => c.raw.tip } } }
      }
    });
  }

  function timeline(sec, parent) {
    const t = sec.timeline;
    if (!t) {
      parent.append(el('p', { class: 'note' }, 'No timeline: no launch was simulated in detail with a timeline (sim.timeline_interval=0 or no detailed launch).'));
      return;
    }
    const pts = (ys) => t.t.map((x, i) => ({ x: x + t.bucket_cycles / 2, y: ys[i] }));
    addChart(figure(parent, 'IPC over the run', `Wave instructions per cycle, whole GPU, in buckets of ${fmt(t.bucket_cycles)} cycles; gaps are launches not simulated in detail.`, 220),
      'IPC timeline', {
        type: 'line', data: { datasets: [{ label: 'IPC', data: pts(t.ipc), borderColor: palette[0], backgroundColor: palette[0], pointRadius: 0, borderWidth: 1, spanGaps: false }] },
        options: { parsing: false, normalized: true, scales: { x: linear('cycles', { min: 0 }), y: linear('IPC', { min: 0 }) } }
      });
    addChart(figure(parent, 'Work-group dispatch and retire', 'Work-groups handed to CUs and retired per bucket.', 160),
      'Dispatch and retire', {
        type: 'line', data: {
          datasets: [
            { label: 'dispatched', data: pts(t.dispatched), borderColor: palette[1], backgroundColor: palette[1], pointRadius: 0, borderWidth: 1 },
            { label: 'retired', data: pts(t.retired), borderColor: palette[4], backgroundColor: palette[4], pointRadius: 0, borderWidth: 1 }]
        },
        options: { parsing: false, normalized: true, scales: { x: linear('cycles', { min: 0 }), y: linear('work-groups', { min: 0 }) } }
      });
  }

  function launchLevels(sec, parent) {
    if (sec.sampling === 'none') return;
    const launches = sec.launches.map((l) => ({
      start: l.start, end: l.start + Math.max(l.cycles, 1), level: l.level,
      tip: `launch ${l.launch} ${l.kernel}: ${l.level}, ${fmt(l.cycles)} cycles` +
        (l.detailed_instructions !== undefined ? `; instructions detailed ${fmt(l.detailed_instructions)}, predicted ${fmt(l.predicted_instructions)}, functional ${fmt(l.functional_instructions)}` : '') +
        (l.detail && Object.keys(l.detail).length ? `; ${JSON.stringify(l.detail)}` : '')
    }));
    launchStrip(parent, `Launches by how ${sec.sampling} handled them`, 'Each launch on the run\'s cycle axis (estimated cycles), coloured by its level.', [{ label: sec.sampling, launches }]);
    const withSplit = sec.launches.filter((l) => l.detailed_instructions !== undefined);
    if (withSplit.length) {
      const labels = withSplit.map((l) => `${l.launch}`);
      const ds = [['detailed_instructions', 'detailed', palette[0]], ['predicted_instructions', 'predicted (skipped groups or blocks)', palette[2]], ['functional_instructions', 'functional only', palette[9]]]
        .map(([k, label, c]) => ({ label, backgroundColor: c, data: withSplit.map((l) => l[k]) }));
      addChart(figure(parent, 'Wave instructions per launch by level', 'Within each launch: instructions in work-groups simulated in detail, in groups or regions whose time was predicted, and run only functionally.', 220),
        'Instruction levels', { type: 'bar', data: { labels, datasets: ds }, options: { scales: { x: { stacked: true, title: { display: true, text: 'launch' } }, y: linear('wave instructions', { stacked: true }) } } });
    }
    if (sec.interval) {
      const iv = sec.interval;
      if (iv.low !== null && iv.low !== undefined) parent.append(el('p', { class: 'estimate' }, iv.text || `cycles = ${fmt(iv.cycles)} (${fmt(iv.low)} … ${fmt(iv.high)})`));
      else if (iv.text) parent.append(el('p', { class: 'note' }, iv.text));
    }
  }

  function utilisation(sec, parent) {
    if (sec.cu_map) {
      const m = sec.cu_map;
      heatmap(parent, 'Per-CU issue rate over the run', `Wave instructions issued per cycle by each CU, in columns of ${fmt(m.bucket_cycles)} cycles.`, {
        values: m.ipc, rowLabel: (r) => `CU ${r}`, colLabel: (c) => fmt(m.t[c], 3), xTitle: 'cycles', unit: 'inst/cycle'
      });
    }
    if (sec.simd_map) {
      const m = sec.simd_map;
      const values = [];
      for (let s = 0; s < m.simds; s++) values.push(m.valu_busy.map((cu) => cu[s]));
      heatmap(parent, 'Per-SIMD VALU utilisation', `Share of the ${fmt(m.cycles)} detailed cycles each SIMD's VALU was busy (columns: CUs).`, {
        values, rowLabel: (r) => `SIMD ${r}`, colLabel: (c) => `CU ${c}`, xTitle: 'CU', unit: 'busy'
      });
    }
  }

  function memory(sec, parent) {
    const mem = sec.memory;
    if (!mem) return;
    const levels = Object.keys(mem.caches);
    addChart(figure(parent, 'Cache read hit rates', null, 180), 'Cache hit rates', {
      type: 'bar', data: { labels: levels, datasets: [{ label: 'read hit rate (%)', backgroundColor: palette[3], data: levels.map((l) => 100 * mem.caches[l].read_hit_rate) }] },
      options: { scales: { y: linear('%', { min: 0, max: 100 }) } }
    });
    const fields = ['reads', 'read_hits', 'read_misses', 'mshr_merges', 'mshr_full', 'writes', 'write_hits', 'write_misses', 'atomics', 'writebacks', 'evictions'];
    parent.append(table(['cache', ...fields], levels.map((l) => [l, ...fields.map((f) => mem.caches[l][f])])));
    const d = mem.dram || {};
    parent.append(table(['DRAM', ...Object.keys(d)], [['', ...Object.values(d)]]));
    if (mem.tlb) {
      const paths = ['vector', 'scalar', 'instr'];
      parent.append(table(['TLB', 'lookups', 'hits', 'misses', 'wait cycles'], paths.map((p) => [`L1 ${p}`, mem.tlb[p].lookups, mem.tlb[p].hits, mem.tlb[p].misses, mem.tlb[p].wait_cycles])
        .concat([['L2 (shared)', null, mem.tlb.l2.hits, mem.tlb.l2.misses, mem.tlb.l2.walk_wait_cycles]])));
    }
  }

  function kernelTable(sec, parent) {
    const rate = (k, l) => (k[`${l}_reads`] ? `${fmt(100 * k[`${l}_hits`] / k[`${l}_reads`], 3)}%` : '—');
    parent.append(table(['kernel', 'launches', 'cycles', 'wave instructions', 'IPC', 'L1V hit', 'L2 hit'],
      sec.kernels.map((k) => [k.name, k.launches, k.cycles, k.wave_instructions, k.cycles ? k.wave_instructions / k.cycles : null, rate(k, 'l1v'), rate(k, 'l2')])));
  }

  function config(sec, parent) {
    if (!sec.config) return;
    const changed = sec.config.filter((r) => r.changed);
    const d = el('details', { class: 'config' });
    d.append(el('summary', {}, `Effective configuration (${sec.arch}): ${changed.length} parameter(s) changed from the preset, highlighted`));
    const only = el('input', { type: 'checkbox' });
    d.append(el('label', {}, only, ' show only changed parameters'));
    const holder = el('div');
    const render = () => {
      const rows = only.checked ? changed : sec.config;
      holder.replaceChildren(table(['parameter', 'value', `preset ${sec.arch}`], rows.map((r) => [r.key, r.value, r.preset]), (i) => (rows[i].changed ? 'changed' : '')));
    };
    only.addEventListener('change', render);
    only.checked = changed.length > 0;
    render();
    d.append(holder);
    if (changed.length) d.open = true;
    parent.append(d);
  }

  function runSection(sec, parent) {
    parent.append(el('p', {}, `${sec.benchmark} on ${sec.arch}, ${sec.mode} mode, sampling ${sec.sampling}; ` +
      `${fmt(sec.cycles)} cycles, ${fmt(sec.wave_instructions)} wave instructions, IPC ${fmt(sec.ipc, 3)}; ` +
      `${sec.verified ? 'output verified' : 'output not verified'}; ${fmt(sec.wall_seconds, 3)} s of simulation.`));
    kernelTable(sec, parent);
    cpiStacks(sec, parent);
    modelStacks(sec, parent);
    timeline(sec, parent);
    launchLevels(sec, parent);
    utilisation(sec, parent);
    memory(sec, parent);
    config(sec, parent);
  }

  // ---- comparisons, sets and sweeps
  function scatter(parent, title, note, points) {
    const methods = [...new Set(points.map((p) => p.method))];
    const usable = points.filter((p) => p.speedup > 0 && p.error_pct !== null);
    const datasets = methods.map((m, i) => ({
      label: m, backgroundColor: colourOf(i), borderColor: colourOf(i),
      pointStyle: usable.filter((p) => p.method === m).map((p) => (p.fallback ? 'crossRot' : 'circle')),
      pointRadius: 5, data: usable.filter((p) => p.method === m).map((p) => ({ x: p.speedup, y: Math.abs(p.error_pct), p }))
    }));
    addChart(figure(parent, title, note, 300), title, {
      type: 'scatter', data: { datasets },
      options: {
        scales: { x: { type: 'logarithmic', title: { display: true, text: 'speedup over full detail (×, log)' } }, y: linear('|error| against full detail (%)', { min: 0 }) },
        plugins: { tooltip: { callbacks: { label: (c) => `${c.raw.p.method} · ${c.raw.p.label}: ${fmt(c.raw.p.error_pct, 3)}% error, ${fmt(c.raw.p.speedup, 3)}×${c.raw.p.fallback ? ' (fell back to full detail)' : ''}` } } }
      }
    });
  }

  function compareSection(sec, parent) {
    parent.append(el('p', {}, `${sec.benchmark}: full detail ${fmt(sec.full_cycles)} cycles; speedups are medians of ${sec.repeat} repeat(s), measured in one process.`));
    const ci = (m) => m.interval || null;
    const hasRange = (iv) => iv && iv.low !== null && iv.low !== undefined;
    const ivText = (iv) => (hasRange(iv) ? `${fmt(iv.low)} … ${fmt(iv.high)} (${fmt(100 * iv.confidence)}%)${iv.valid === false ? ', not valid' : ''}`
      : iv && iv.kind ? `none (${iv.kind})` : '—');
    parent.append(table(['method', 'estimated cycles', 'error %', 'IPC error %', 'speedup (median)', 'min', 'max', 'detailed share', 'interval', 'fell back', 'verified'],
      sec.methods.map((m) => {
        const iv = ci(m);
        return [m.method, m.estimated_cycles, m.error_pct, m.ipc_error_pct, m.speedup, m.speedup_min, m.speedup_max, m.detailed_share,
          ivText(iv), m.fallback ? 'yes' : 'no', m.verified ? 'yes' : 'no'];
      })));
    scatter(parent, 'Error against speedup', 'One point per method; a cross marks a run that fell back to full detail.', sec.points);
    // Estimates with their intervals against full detail.
    const labels = ['full detail', ...sec.methods.map((m) => m.method)];
    const ivs = sec.methods.map((m) => ci(m)).map((iv) => (hasRange(iv) ? [iv.low, iv.high] : null));
    addChart(figure(parent, 'Estimates and confidence intervals', 'Bars: each method\'s estimate of the run\'s cycles; dark bands: its confidence interval where it reports one.', 60 + 28 * labels.length),
      'Estimates', {
        type: 'bar', data: {
          labels, datasets: [
            { label: 'estimate', backgroundColor: labels.map((l, i) => (i ? colourOf(i - 1) : '#999')), data: [sec.full_cycles, ...sec.methods.map((m) => m.estimated_cycles)] },
            { label: 'interval', backgroundColor: 'rgba(0,0,0,0.45)', barPercentage: 0.3, data: [null, ...ivs] }]
        },
        options: { indexAxis: 'y', grouped: false, scales: { x: linear('cycles', { min: 0 }) } }
      });
    // Every method's launches over the full run's launches.
    const full = sections.find((s) => s.kind === 'run' && s.name === `${sec.name} (full detail)`);
    if (full) {
      const rows = Object.entries(sec.method_launches).map(([m, ls]) => ({
        label: m,
        launches: ls.filter((l) => l.launch < full.launches.length).map((l) => {
          const f = full.launches[l.launch];
          return {
            start: f.start, end: f.start + Math.max(f.cycles, 1), level: l.level,
            tip: `launch ${l.launch} ${f.kernel}: ${l.level}, estimate ${fmt(l.estimated_cycles)} vs ${fmt(l.full_cycles)} cycles (${fmt(l.error_pct, 3)}%)` +
              (l.detail && Object.keys(l.detail).length ? `; ${JSON.stringify(l.detail)}` : '')
          };
        })
      }));
      launchStrip(parent, 'Launches: simulated, predicted or skipped, per method', 'Each launch placed where it ran in full detail, coloured by what each method did with it.', rows);
    }
    if (sec.cpi_pairs.length) {
      const cats = [...new Set(sec.cpi_pairs.flatMap((p) => p.categories.map((c) => c.category)))];
      const labels2 = sec.cpi_pairs.flatMap((p) => [`${p.kernel} · detailed`, `${p.kernel} · ${p.method}`]);
      const datasets = cats.map((cat, i) => ({
        label: cat, backgroundColor: colourOf(i),
        data: sec.cpi_pairs.flatMap((p) => {
          const c = p.categories.find((x) => x.category === cat);
          return [c ? c.detailed : 0, c && c.predicted !== null ? c.predicted : 0];
        })
      }));
      addChart(figure(parent, 'CPI stacks: detailed and modelled, side by side', 'Per kernel, cycles per wave instruction by category, weighted by each launch\'s instructions; categories a model does not predict count 0 on its bar.', 40 + 24 * labels2.length + 40),
        'CPI stacks compared', { type: 'bar', data: { labels: labels2, datasets }, options: { indexAxis: 'y', scales: { x: linear('CPI', { stacked: true, min: 0 }), y: { stacked: true } } } });
    }
  }

  function setSection(sec, parent) {
    parent.append(el('p', {}, `Set ${sec.set} on ${sec.arch}: ${sec.runs.length} run(s), ${sec.repeat} repeat(s) each.`));
    scatter(parent, 'Error against speedup, every run and method', 'A cross marks a run that fell back to full detail.', sec.points);
    const aggs = Object.entries(sec.aggregates);
    if (aggs.length) {
      const keys = Object.keys(aggs[0][1]);
      parent.append(table(['method', ...keys], aggs.map(([m, a]) => [m, ...keys.map((k) => a[k])])));
    }
  }

  function sweepSection(sec, parent) {
    parent.append(el('p', {}, `Sweep ${sec.spec}: ${sec.rows.length} task(s) collected; grid ${sec.grid.join(' × ') || '—'}.`));
    if (sec.failed.length || sec.missing.length) parent.append(el('p', { class: 'warn' }, `failed: ${sec.failed.join('; ') || 'none'}; missing: ${sec.missing.join(', ') || 'none'}`));
    if (sec.points.length) {
      // The design space itself: full detail's cycles at every grid point, each method's estimate beside them.
      const labels = [...new Set(sec.points.map((p) => p.label))];
      const at = (m, l, f) => { const p = sec.points.find((q) => q.method === m && q.label === l); return p ? p[f] : null; };
      const datasets = [{ label: 'full detail', backgroundColor: '#999', data: labels.map((l) => at(sec.methods[0], l, 'full_cycles')) },
        ...sec.methods.map((m, i) => ({ label: m, backgroundColor: colourOf(i), data: labels.map((l) => at(m, l, 'estimated_cycles')) }))];
      addChart(figure(parent, 'Cycles at every grid point', 'Full detail beside each method\'s estimate: does the method rank the design points as full detail does?', 80 + 34 * labels.length),
        'Sweep cycles', { type: 'bar', data: { labels, datasets }, options: { indexAxis: 'y', scales: { x: linear('cycles', { min: 0 }) } } });
      scatter(parent, 'Error against speedup, every grid point and method', 'A cross marks a task that fell back to full detail.', sec.points);
    }
    const cols = sec.columns.filter((c) => sec.rows.some((r) => c in r));
    parent.append(el('div', { class: 'scroll' }, table(cols, sec.rows.map((r) => cols.map((c) => r[c])))));
  }

  // ---- graphics runs: each frame's work, and MEGsim's frame selection
  function megsimSelection(m, frames, parent) {
    const d = m.similarity.distances, step = m.similarity.step;
    heatmap(parent, 'Frame similarity (MEGsim)', `Distance between frames' feature vectors (light: alike), every ${step === 1 ? '' : step + 'th '}frame; repeated phases show as light blocks off the diagonal.`, {
      values: d, unit: 'distance', xTitle: 'frame',
      rowLabel: (r) => fmt(r * step), colLabel: (c) => fmt(c * step)
    });
    const clusters = m.cluster_of_frame.map((c) => (c === null ? -1 : c));
    addChart(figure(parent, 'Frames by cluster', 'The cluster each frame fell in; a diamond marks each cluster\'s representative frame.', 200),
      'Frames by cluster', {
        type: 'scatter', data: {
          datasets: [
            { label: 'frame', data: frames.map((x, i) => ({ x, y: clusters[i] })), backgroundColor: palette[2], pointRadius: 1.5 },
            { label: 'representative', data: m.clusters.map((c, i) => ({ x: c.representative, y: i })), backgroundColor: palette[3], pointStyle: 'rectRot', pointRadius: 6 }]
        },
        options: { scales: { x: linear('frame'), y: linear('cluster', { min: 0 }) } }
      });
    parent.append(table(['cluster', 'representative frame', 'frames', 'first', 'last'],
      m.clusters.map((c, i) => [i, c.representative, c.size, c.first, c.last])));
  }

  function framesSection(sec, parent) {
    parent.append(el('p', {}, `${sec.workload}: ${fmt(sec.frames)} frames rendered` + (sec.cycles ? ' and timed' : ' functionally') +
      (sec.step > 1 ? `; every ${sec.step}th frame is plotted.` : '.')));
    const pts = (ys) => sec.frame.map((x, i) => ({ x, y: ys[i] }));
    addChart(figure(parent, 'Per-frame work', 'Covered pixels and shader wave instructions (vertex and pixel) of each frame.', 220),
      'Per-frame work', {
        type: 'line', data: {
          datasets: [
            { label: 'fragments', data: pts(sec.fragments), borderColor: palette[0], backgroundColor: palette[0], pointRadius: 0, borderWidth: 1, yAxisID: 'y' },
            { label: 'shader wave instructions', data: pts(sec.shader_instructions), borderColor: palette[1], backgroundColor: palette[1], pointRadius: 0, borderWidth: 1, yAxisID: 'y1' }]
        },
        options: { parsing: false, normalized: true, scales: { x: linear('frame'), y: linear('fragments', { min: 0 }), y1: linear('wave instructions', { min: 0, position: 'right' }) } }
      });
    if (sec.cycles) {
      addChart(figure(parent, 'Per-frame cycles', 'Each frame\'s cycles on the tile-based timing model, split into its geometry phases (vertex shading, setup, binning) and tile phases (raster, pixel shading, blending), summed over its passes.', 220), 'Per-frame cycles', {
        type: 'line', data: {
          datasets: [
            { label: 'geometry', data: pts(sec.geometry_cycles), borderColor: palette[4], backgroundColor: palette[4], pointRadius: 0, borderWidth: 1, fill: 'origin' },
            { label: 'tiles', data: pts(sec.tile_cycles), borderColor: palette[0], backgroundColor: palette[0], pointRadius: 0, borderWidth: 1, fill: '-1' }]
        },
        options: { parsing: false, normalized: true, scales: { x: linear('frame'), y: linear('cycles', { min: 0, stacked: true }) } }
      });
      const cats = Object.keys(sec.cpi);
      if (cats.length) {
        addChart(figure(parent, 'Shader cores\' CPI stack per frame', 'What each frame\'s shader issue slots went to (fractions, stacked), as the detailed model attributes them.', 240), 'Shader cores\' CPI stack per frame', {
          type: 'line', data: {
            datasets: cats.map((c, i) => ({ label: c, data: pts(sec.cpi[c]), borderColor: colourOf(i), backgroundColor: colourOf(i), pointRadius: 0, borderWidth: 1, fill: i ? '-1' : 'origin' }))
          },
          options: { parsing: false, normalized: true, scales: { x: linear('frame'), y: linear('fraction', { min: 0, stacked: true }) } }
        });
      }
      const stages = Object.keys(sec.busy);
      if (stages.length) {
        addChart(figure(parent, 'Fixed-function stages busy per frame', 'Each stage\'s busy share of the frame (the rasterisers\' and blenders\' summed over tile units, so up to the unit count).', 200), 'Fixed-function stages busy per frame', {
          type: 'line', data: { datasets: stages.map((st, i) => ({ label: st, data: pts(sec.busy[st]), borderColor: colourOf(i + 5), backgroundColor: colourOf(i + 5), pointRadius: 0, borderWidth: 1 })) },
          options: { parsing: false, normalized: true, scales: { x: linear('frame'), y: linear('busy fraction', { min: 0 }) } }
        });
      }
    }
    const m = sec.megsim;
    if (!m) return;
    parent.append(el('p', {}, `MEGsim: ${m.k} clusters, ${fmt(m.frame_reduction, 3)}× fewer frames.`));
    if (m.estimate_note) parent.append(el('p', { class: 'note' }, `No estimate: ${m.estimate_note}.`));
    megsimSelection(m, sec.frame, parent);
  }

  // ---- graphics comparisons: frame sampling against every frame in detail
  function frameCompareSection(sec, parent) {
    parent.append(el('p', {}, `${sec.workload}: ${fmt(sec.frames)} frames in full detail (${sec.source}): ` +
      `${fmt(sec.totals.cycles)} cycles in ${fmt(sec.seconds, 3)} s` + (sec.cpu_seconds !== null ? ` (${fmt(sec.cpu_seconds, 3)} CPU s)` : '') +
      (sec.step > 1 ? `; every ${sec.step}th frame is plotted.` : '.')));
    const stats = ['cycles', 'dram_bytes', 'l2_accesses', 'tile_buffer_accesses'];
    const pct = (v) => (v === null || v === undefined ? null : 100 * v);
    const hasRange = (iv) => iv && iv.low !== undefined;
    parent.append(table(['method', 'frames simulated', 'fewer frames', ...stats.map((s) => `${s} error %`), 'speedup', 'speedup (CPU)', 'interval (cycles)'],
      sec.methods.map((m) => [m.method, m.frames_simulated, sec.frames / m.frames_simulated, ...stats.map((s) => pct(m.errors[s])),
        m.speedup, m.speedup_cpu,
        hasRange(m.interval) ? `${fmt(m.interval.low)} … ${fmt(m.interval.high)} (${fmt(100 * m.interval.confidence)}%)` : `none (${m.interval.kind})`])));
    const pts = sec.frame.map((x, i) => ({ x, y: sec.cycles[i] }));
    addChart(figure(parent, 'Per-frame cycles and the frames simulated', 'Line: every frame\'s cycles in full detail. Markers: the frames each method simulated in detail, at their full-detail cycles (smaller for each later method, so that frames two methods share show both).', 260),
      'Per-frame cycles and the frames simulated', {
        type: 'scatter', data: {
          datasets: [
            { type: 'line', label: 'full detail', data: pts, borderColor: '#999', backgroundColor: '#999', pointRadius: 0, borderWidth: 1 },
            ...sec.methods.map((m, i) => ({
              label: m.method, data: m.simulated.filter((f) => f.cycles !== null).map((f) => ({ x: f.frame, y: f.cycles })),
              backgroundColor: colourOf(i), borderColor: colourOf(i), pointStyle: 'rectRot', pointRadius: Math.max(3, 9 - 2 * i)
            }))]
        },
        options: { parsing: false, scales: { x: linear('frame'), y: linear('cycles', { min: 0 }) } }
      });
    const labels = ['full detail', ...sec.methods.map((m) => m.method)];
    addChart(figure(parent, 'Frame-sampling estimates', 'Bars: each method\'s estimate of the total cycles; dark band: its confidence interval where it has one.', 60 + 28 * labels.length),
      'Frame-sampling estimates', {
        type: 'bar', data: {
          labels, datasets: [
            { label: 'estimate', backgroundColor: labels.map((l, i) => (i ? colourOf(i - 1) : '#999')), data: [sec.totals.cycles, ...sec.methods.map((m) => m.estimate.cycles)] },
            { label: 'interval', backgroundColor: 'rgba(0,0,0,0.45)', barPercentage: 0.3, data: [null, ...sec.methods.map((m) => (hasRange(m.interval) ? [m.interval.low, m.interval.high] : null))] }]
        },
        options: { indexAxis: 'y', grouped: false, scales: { x: linear('cycles', { min: 0 }) } }
      });
    if (sec.megsim) megsimSelection(sec.megsim, sec.frame, parent);
  }

  const sections = data.sections;
  const draw = { run: runSection, compare: compareSection, set: setSection, sweep: sweepSection, frames: framesSection, 'frame-compare': frameCompareSection };
  const nav = el('nav');
  main.append(nav);
  sections.forEach((sec, i) => {
    const s = el('section', { id: `s${i}` });
    s.append(el('h2', {}, `${sec.kind}: ${sec.name}`));
    nav.append(el('a', { href: `#s${i}` }, `${sec.kind}: ${sec.name}`));
    main.append(s);
    try {
      draw[sec.kind](sec, s);
    } catch (e) {
      report.errors.push(`${sec.name}: ${e}`);
      console.error(e);
    }
  });
  report.done = true;
}());
