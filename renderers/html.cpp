// HTML: one self-contained page (no network, no external script or font) holding the
// default SVG, with every cell's owners in data-owners="t:v t:v ...", and a small
// script: hover a cell for all its owners; click a cell (shift adds) or type threads
// ("5, 32-35") to highlight their cells in every panel (class "hl"); #threads=0,5 in
// the URL does the same on load; recolour by thread, warp, value or none; zoom with
// the wheel and pan by dragging.  The colours the script uses come from palette.hpp,
// written into the page, so the page and the pictures never disagree.
//
// A page of more than 6,000 cells holds its cells as JSON (svg.cpp's cells_json) and
// paints them on canvases: 75,776 SVG rectangles (the 2x2 64x256x16 GMMA) cost ~3 s
// of parse, style and paint in Chromium (DevTools trace: style 1.4 s, parse 1.0 s,
// paint 0.7 s; dropping the owner text did not lower the parse: it is per element),
// the canvases and JSON ~0.3 s.  Its cell elements, with the same data-owners and
// "hl", are made for the cells on screen once at most 4,000 are.
//
// Either way the cells' labels are data (a small page's data-label, a big page's JSON)
// drawn on one canvas over the view, for the cells on screen at the zoom's resolution:
// an SM80 atom's 1,024 SVG <text> labels took Chromium ~130 ms to lay out, five times
// the rest of the page (the page in web/ draws a new picture per expression typed).
// The SVG the CLI writes (--svg) keeps its <text> labels.
#include <algorithm>
#include <array>
#include <string_view>

#include "renderers/backends.hpp"
#include "renderers/palette.hpp"

namespace cutevis::detail {

namespace {

const char* kStyle = R"CSS(
body{margin:0;font-family:'DejaVu Sans',Arial,sans-serif;font-size:14px;background:#f4f4f4}
#bar{position:sticky;top:0;z-index:2;display:flex;gap:12px;align-items:center;flex-wrap:wrap;padding:6px 10px;background:#fff;border-bottom:1px solid #bbb}
#bar input{width:14em;font-family:monospace}
#count{color:#333}
#view{position:relative;overflow:hidden;height:calc(100vh - 46px);cursor:grab;background:#fff}
#view.drag{cursor:grabbing}
#stage{transform-origin:0 0;position:absolute;left:0;top:0;background:#fff}
#stage canvas{position:absolute;image-rendering:pixelated}
#picture{display:block;position:relative}
#labels{position:absolute;left:0;top:0;pointer-events:none}
#info{position:fixed;z-index:3;display:none;max-width:40em;padding:6px 8px;background:#ffffe8;border:1px solid #888;font-family:monospace;font-size:12px;white-space:pre-wrap;pointer-events:none}
svg.sel rect.k:not(.hl){fill-opacity:.22}
svg.lazy rect.k,svg.lazy.sel rect.k:not(.hl){fill-opacity:0}
rect.k.hl{stroke:#c00000;stroke-width:2.5}
path.hlp{fill:none;stroke:#c00000;stroke-width:2.5;pointer-events:none}
)CSS";

// The page's script.  Its model: per panel, every cell's owners as runs (t0, t1, v),
// its drawn and current colour, and its element where one exists.  A small page's
// cells are the SVG's own <rect class="k"> elements; a big page (class "lazy") paints
// its cells on one canvas per panel and makes elements, with data-owners and class
// "hl", for the cells on screen once few enough of them are (zoomed in).  Labels of
// both lie on the canvas #labels, redrawn once per frame while zooming or panning.  Hover and
// click find the cell under the pointer by arithmetic, so both kinds answer alike.
constexpr std::string_view kScriptSource = R"JS(
(function () {
  'use strict';
  var started = performance.now();
  var NS = 'http://www.w3.org/2000/svg';
  var data = JSON.parse(document.getElementById('cutevis-data').textContent);
  var svg = document.getElementById('picture');
  var view = document.getElementById('view'), stage = document.getElementById('stage');
  var cellSize = +svg.getAttribute('data-cell');
  var lazy = svg.classList.contains('lazy');
  var cellsData = lazy ? JSON.parse(document.getElementById('cutevis-cells').textContent).panels : null;
  var MAX_ELEMENTS = 4000;  // a big page makes elements for at most this many cells at once

  function rgbOf(hex) { return parseInt(hex.slice(1), 16); }
  function hexOf(rgb) { return '#' + (0x1000000 + rgb).toString(16).slice(1); }
  // "0-127:5 256:5" -> runs [0,127,5, 256,256,5] appended to `out`
  function parseRuns(s, out) {
    var n = s.length, a = 0, b = -1, v = 0, stage = 0;
    if (!n) return;
    for (var j = 0; j <= n; j++) {
      var ch = j < n ? s.charCodeAt(j) : 32;
      if (ch === 32) { out.push(a, b < 0 ? a : b, v); a = 0; b = -1; v = 0; stage = 0; }
      else if (ch === 45) { stage = 1; b = 0; }
      else if (ch === 58) stage = 2;
      else if (stage === 0) a = a * 10 + (ch - 48);
      else if (stage === 1) b = b * 10 + (ch - 48);
      else v = v * 10 + (ch - 48);
    }
  }

  // --- the model ---------------------------------------------------------------------
  var panels = [], maxThread = 0, elements = [], shownHash = null;  // shownHash: location.hash as last read or written
  Array.prototype.forEach.call(svg.querySelectorAll('g[data-panel]'), function (g, pi) {
    var p = {g: g, name: g.getAttribute('data-panel') || 'cell', tv: g.hasAttribute('data-tv'), transposed: g.hasAttribute('data-transposed'),
             rows: +g.getAttribute('data-rows'), cols: +g.getAttribute('data-cols'), x0: +g.getAttribute('data-x0'), y0: +g.getAttribute('data-y0'),
             bits: +g.getAttribute('data-bits') || 0, per: +g.getAttribute('data-atom-values') || 0, font: +g.getAttribute('font-size')};
    var n = p.n = p.rows * p.cols, runs = [], off = new Int32Array(n + 1);
    p.drawn = new Int32Array(n); p.hl = new Uint8Array(n); p.el = new Array(n);
    if (lazy) {
      var d = cellsData[pi], colours = d.colours.map(rgbOf);
      for (var i = 0; i < n; i++) { off[i] = runs.length / 3; parseRuns(d.owners[i], runs); p.drawn[i] = colours[d.fill[i]]; }
      p.labels = d.labels || null; p.info = d.info || null; p.faded = d.faded || null;
      p.canvas = document.createElement('canvas');
      p.canvas.width = p.cols; p.canvas.height = p.rows;
      stage.insertBefore(p.canvas, stage.firstChild);
      p.layer = document.createElementNS(NS, 'g');
      g.insertBefore(p.layer, g.firstChild);
      p.outline = document.createElementNS(NS, 'path');
      p.outline.setAttribute('class', 'hlp');
      g.appendChild(p.outline);
    } else {
      var rects = g.querySelectorAll('rect.k');
      p.info = []; p.labels = []; p.faded = new Uint8Array(n);
      for (var i = 0; i < n; i++) {
        var c = rects[i];
        off[i] = runs.length / 3; parseRuns(c.getAttribute('data-owners'), runs);
        p.drawn[i] = rgbOf(c.getAttribute('fill')); p.info.push(c.getAttribute('data-info') || '');
        p.labels.push(c.getAttribute('data-label') || ''); p.faded[i] = c.hasAttribute('data-faded') ? 1 : 0;
        p.el[i] = c; elements.push(c);
      }
    }
    off[n] = runs.length / 3;
    p.off = off; p.runs = Int32Array.from(runs); p.fill = Int32Array.from(p.drawn);
    for (var k = 1; k < p.runs.length; k += 3) if (p.runs[k] > maxThread) maxThread = p.runs[k];
    panels.push(p);
  });
  // A cell's owners as data-owners writes them: "t:v t:v ...".
  function ownersText(p, i) {
    var out = [];
    for (var k = p.off[i]; k < p.off[i + 1]; k++)
      for (var t = p.runs[3 * k]; t <= p.runs[3 * k + 1]; t++) out.push(t + ':' + p.runs[3 * k + 2]);
    return out.join(' ');
  }

  // --- painting (big pages) ----------------------------------------------------------
  var selected = [];
  function paint(p) {
    if (!p.canvas) return;
    var scale = svg.width.baseVal.value / svg.viewBox.baseVal.width;
    var cs = p.canvas.style;
    cs.left = p.x0 * scale + 'px'; cs.top = p.y0 * scale + 'px';
    cs.width = p.cols * cellSize * scale + 'px'; cs.height = p.rows * cellSize * scale + 'px';
    var ctx = p.canvas.getContext('2d'), img = ctx.createImageData(p.cols, p.rows), px = img.data, sel = selected.length > 0, path = [];
    for (var i = 0; i < p.n; i++) {
      var r = i % p.rows, c = (i - r) / p.rows, at = 4 * (r * p.cols + c), f = p.fill[i];
      var R = f >> 16, G = (f >> 8) & 255, B = f & 255;
      if (sel && !p.hl[i]) { R = 199 + 0.22 * R; G = 199 + 0.22 * G; B = 199 + 0.22 * B; }  // fill-opacity .22 over white
      px[at] = R; px[at + 1] = G; px[at + 2] = B; px[at + 3] = 255;
      if (p.hl[i]) path.push('M' + (p.x0 + c * cellSize) + ' ' + (p.y0 + r * cellSize) + 'h' + cellSize + 'v' + cellSize + 'h-' + cellSize + 'z');
    }
    ctx.putImageData(img, 0, 0);
    p.outline.setAttribute('d', path.join(''));
  }
  // The cells' labels, on one canvas over the view (#labels): drawn for the cells on screen
  // at the zoom's own resolution, where the SVG would place them (centred lines 1.15 em
  // apart, the baseline 0.35 em below the middle), in the SVG's font.  1,024 SVG <text>
  // elements (an SM80 atom's A, B and C) cost Chromium ~5x the rest of the page to lay out;
  // a canvas draws them in a few ms.  Not drawn below MIN_LABEL_PX, nor for more than
  // MAX_LABELS cells at once (a big page at "fit": its cells are a pixel or two).
  var labelCanvas = document.getElementById('labels'), labelFrame = 0, labelsDrawn = 0;
  var MIN_LABEL_PX = 3, MAX_LABELS = 6000;  // 6,000: svg.cpp's kLazyCells, a small page's every cell
  var LABEL_FONT = "px 'DejaVu Sans Mono',Menlo,Consolas,'Liberation Mono',monospace";
  function drawLabels() {
    labelFrame = 0; labelsDrawn = 0;
    var dpr = window.devicePixelRatio || 1, w = view.clientWidth, h = view.clientHeight;
    if (labelCanvas.width !== Math.round(w * dpr) || labelCanvas.height !== Math.round(h * dpr)) {
      labelCanvas.width = Math.round(w * dpr); labelCanvas.height = Math.round(h * dpr);
      labelCanvas.style.width = w + 'px'; labelCanvas.style.height = h + 'px';
    }
    var ctx = labelCanvas.getContext('2d');
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.clearRect(0, 0, labelCanvas.width, labelCanvas.height);
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.textAlign = 'center'; ctx.textBaseline = 'alphabetic';
    var s = z * svg.width.baseVal.value / svg.viewBox.baseVal.width;  // screen px per picture unit
    var x0 = -tx / s, x1 = (w - tx) / s, y0 = -ty / s, y1 = (h - ty) / s;
    panels.forEach(function (p) {
      if (!p.labels || p.font * s < MIN_LABEL_PX) return;
      var c0 = Math.max(0, Math.floor((x0 - p.x0) / cellSize)), c1 = Math.min(p.cols - 1, Math.floor((x1 - p.x0) / cellSize));
      var r0 = Math.max(0, Math.floor((y0 - p.y0) / cellSize)), r1 = Math.min(p.rows - 1, Math.floor((y1 - p.y0) / cellSize));
      if (c1 < c0 || r1 < r0 || (c1 - c0 + 1) * (r1 - r0 + 1) > MAX_LABELS) return;
      var step = 1.15 * p.font, colour = '';
      ctx.font = p.font * s + LABEL_FONT;
      for (var c = c0; c <= c1; c++)
        for (var r = r0; r <= r1; r++) {
          var i = r + p.rows * c, label = p.labels[i];
          if (!label) continue;
          var want = p.faded && p.faded[i] ? data.fadedText : '#000';
          if (want !== colour) ctx.fillStyle = colour = want;
          var lines = label.split('\n'), cx = tx + (p.x0 + (c + 0.5) * cellSize) * s, cy = p.y0 + (r + 0.5) * cellSize;
          for (var j = 0; j < lines.length; j++) {
            ctx.fillText(lines[j], cx, ty + (cy + (j - (lines.length - 1) / 2) * step + 0.35 * p.font) * s);
            labelsDrawn++;
          }
        }
    });
  }
  // While zooming or panning: once per frame.
  function drawLabelsSoon() { if (!labelFrame) labelFrame = requestAnimationFrame(drawLabels); }

  // Elements for the cells on screen, when few enough are.
  var pending = 0;
  function materialise() {
    pending = 0;
    if (!lazy) return;
    elements = [];
    var r = view.getBoundingClientRect(), box = svg.getBoundingClientRect(), k = svg.viewBox.baseVal.width / box.width;
    var x0 = (r.left - box.left) * k, x1 = (r.right - box.left) * k, y0 = (r.top - box.top) * k, y1 = (r.bottom - box.top) * k;
    var ranges = [], total = 0;
    panels.forEach(function (p) {
      var c0 = Math.max(0, Math.floor((x0 - p.x0) / cellSize)), c1 = Math.min(p.cols - 1, Math.floor((x1 - p.x0) / cellSize));
      var r0 = Math.max(0, Math.floor((y0 - p.y0) / cellSize)), r1 = Math.min(p.rows - 1, Math.floor((y1 - p.y0) / cellSize));
      ranges.push([c0, c1, r0, r1]);
      if (c1 >= c0 && r1 >= r0) total += (c1 - c0 + 1) * (r1 - r0 + 1);
    });
    panels.forEach(function (p, pi) {
      p.layer.textContent = '';
      p.el = new Array(p.n);
      var q = ranges[pi];
      if (total > MAX_ELEMENTS || q[1] < q[0] || q[3] < q[2]) return;
      var frag = document.createDocumentFragment();
      for (var c = q[0]; c <= q[1]; c++)
        for (var rr = q[2]; rr <= q[3]; rr++) {
          var i = rr + p.rows * c, x = p.x0 + c * cellSize, y = p.y0 + rr * cellSize;
          var e = document.createElementNS(NS, 'rect');
          e.setAttribute('x', x); e.setAttribute('y', y); e.setAttribute('fill', hexOf(p.fill[i]));
          e.setAttribute('class', p.hl[i] ? 'k hl' : 'k');
          e.setAttribute('data-owners', ownersText(p, i));
          if (!p.tv && p.info) e.setAttribute('data-info', p.info[i]);
          frag.appendChild(e);
          p.el[i] = e; elements.push(e);
        }
      p.layer.appendChild(frag);
    });
    api.cells = elements;
  }

  // --- highlighting --------------------------------------------------------------------
  function parseThreads(text) {
    // any text, bounded work: threads past the tiling's last are dropped, each kept once
    var set = [], bad = false, seen = new Uint8Array(maxThread + 1);
    String(text).slice(0, 4096).split(',').forEach(function (part) {
      part = part.trim();
      if (!part || bad) return;
      var m = /^(\d{1,9})\s*(?:-\s*(\d{1,9}))?$/.exec(part);
      if (!m) { bad = true; return; }
      var lo = +m[1], hi = m[2] === undefined ? lo : +m[2];
      if (hi < lo) { bad = true; return; }
      for (var t = lo; t <= Math.min(hi, maxThread); t++) if (!seen[t]) { seen[t] = 1; set.push(t); }
    });
    return bad ? null : set;
  }
  function rangesOf(list) {
    list = list.slice().sort(function (a, b) { return a - b; });
    var out = [];
    for (var i = 0; i < list.length;) {
      var j = i;
      while (j + 1 < list.length && list[j + 1] <= list[j] + 1) j++;
      out.push(list[i] === list[j] ? '' + list[i] : list[i] + (list[j] === list[i] + 1 ? ',' : '-') + list[j]);
      i = j + 1;
    }
    return out.join(',');
  }
  var count = 0;
  function highlight(threads) {
    selected = threads;
    // before[t]: how many selected threads are below t, so a run t..u holds one iff before[u+1] > before[t]
    var mask = new Uint8Array(maxThread + 1), before = new Int32Array(maxThread + 2);
    threads.forEach(function (t) { if (t <= maxThread) mask[t] = 1; });
    for (var t = 0; t <= maxThread; t++) before[t + 1] = before[t] + mask[t];
    count = 0;
    panels.forEach(function (p) {
      for (var i = 0; i < p.n; i++) {
        var on = 0;
        for (var k = p.off[i]; k < p.off[i + 1] && !on; k++) on = before[p.runs[3 * k + 1] + 1] > before[p.runs[3 * k]] ? 1 : 0;
        p.hl[i] = on; count += on;
        var e = p.el[i];
        if (e && e.classList.contains('hl') !== !!on) e.classList.toggle('hl', !!on);
      }
      paint(p);
    });
    svg.classList.toggle('sel', threads.length > 0);
    var text = rangesOf(threads);
    document.getElementById('threads').value = text;
    document.getElementById('count').textContent = threads.length ? 'threads ' + text + ': ' + count + ' cells' : '';
    var hash = threads.length ? '#threads=' + text : ' ';
    // the URL as last read or written, not read again: with a 2 MB #fragment each read of
    // location costs Chromium ~0.1 s (the replaceState below shortens it once)
    if (shownHash === null) shownHash = String(location.hash);
    if (shownHash !== hash.trim()) history.replaceState(null, '', hash === ' ' ? location.pathname + location.search : hash);
    shownHash = hash.trim();
  }
  function fromHash() {
    shownHash = String(location.hash);
    var h = shownHash.slice(0, 4096), decoded = h;
    try { decoded = decodeURIComponent(h); } catch (e) { decoded = h; }  // a malformed % escape: the text as is
    var m = /threads=([0-9,\- ]*)/.exec(decoded);
    if (m) { var t = parseThreads(m[1]); if (t) highlight(t); }
  }

  // Colours: as drawn, or recomputed from the owners with the palette written into the page.
  function recolour(mode) {
    panels.forEach(function (p) {
      for (var i = 0; i < p.n; i++) {
        var fill = p.drawn[i], k0 = p.off[i], k1 = p.off[i + 1];
        if (mode !== 'drawn' && p.tv) {
          if (k0 === k1 || mode === 'none') fill = 0xffffff;
          else if (mode === 'thread') fill = rgbOf(data.thread[p.runs[3 * k0] % data.thread.length]);
          else if (mode === 'value') fill = rgbOf(data.thread[p.runs[3 * k0 + 2] % data.thread.length]);
          else if (mode === 'warp') {
            var w = Math.floor(p.runs[3 * k0] / 32), one = true;
            for (var k = k0; k < k1; k++) one = one && Math.floor(p.runs[3 * k] / 32) === w && Math.floor(p.runs[3 * k + 1] / 32) === w;
            fill = rgbOf(one ? data.warp[w % data.warp.length] : data.severalWarps);
          }
        }
        p.fill[i] = fill;
        if (p.el[i]) p.el[i].setAttribute('fill', hexOf(fill));
      }
      paint(p);
    });
  }

  // The cell under a point of the window: [panel, index] or null.
  function cellAt(clientX, clientY) {
    var box = svg.getBoundingClientRect(), k = svg.viewBox.baseVal.width / box.width;
    var x = (clientX - box.left) * k, y = (clientY - box.top) * k;
    for (var pi = 0; pi < panels.length; pi++) {
      var p = panels[pi], c = Math.floor((x - p.x0) / cellSize), r = Math.floor((y - p.y0) / cellSize);
      if (c >= 0 && c < p.cols && r >= 0 && r < p.rows) return [p, r + p.rows * c];
    }
    return null;
  }

  // Hover: every owner of the cell, grouped by value.
  var info = document.getElementById('info');
  function describe(p, i) {
    if (!p.tv) return p.info ? p.info[i] : '';
    var r = i % p.rows, c = (i - r) / p.rows;
    var m = p.transposed ? c : r, n = p.transposed ? r : c, extent = p.transposed ? p.cols : p.rows;
    var byVal = new Map(), owners = 0;
    for (var k = p.off[i]; k < p.off[i + 1]; k++) {
      var v = p.runs[3 * k + 2], l = byVal.get(v);
      if (!l) byVal.set(v, l = []);
      for (var t = p.runs[3 * k]; t <= p.runs[3 * k + 1]; t++) { l.push(t); owners++; }
    }
    var lines = [p.name + '(' + m + ',' + n + ') index ' + (m + extent * n) + ': ' + (owners ? owners + ' owner' + (owners > 1 ? 's' : '') : 'no owner')];
    byVal.forEach(function (thr, v) {
      var where = 'value ' + v + ' of each thread';
      if (p.bits && p.per) {
        // the 32-bit register of the MMA instruction's fragment that holds it
        var e = v % p.per, call = Math.floor(v / p.per), first = Math.floor(e * p.bits / 32), last = Math.floor(((e + 1) * p.bits - 1) / 32);
        where += ', register ' + (first === last ? 'R' + first : 'R' + first + '-R' + last) +
          (p.bits < 32 ? ' bits ' + (e * p.bits) % 32 + '-' + ((e * p.bits) % 32 + p.bits - 1) : '') + ' of MMA ' + call;
      }
      lines.push('  V' + v + ' (' + where + '): T' + rangesOf(thr));
    });
    return lines.join('\n');
  }
  view.addEventListener('mousemove', function (e) {
    var hit = drag ? null : cellAt(e.clientX, e.clientY);
    if (!hit) { info.style.display = 'none'; return; }
    info.textContent = describe(hit[0], hit[1]);
    info.style.display = 'block';
    info.style.left = Math.min(e.clientX + 14, window.innerWidth - info.offsetWidth - 4) + 'px';
    info.style.top = Math.min(e.clientY + 14, window.innerHeight - info.offsetHeight - 4) + 'px';
  });
  view.addEventListener('mouseleave', function () { info.style.display = 'none'; });

  // Zoom (wheel, around the pointer) and pan (drag); a click without a drag selects.
  var z = 1, tx = 0, ty = 0, drag = null, moved = false;
  function apply() {
    stage.style.transform = 'translate(' + tx + 'px,' + ty + 'px) scale(' + z + ')';
    drawLabelsSoon();
    if (lazy && !pending) pending = setTimeout(materialise, 80);
  }
  function fit() {
    var w = +svg.getAttribute('width'), h = +svg.getAttribute('height');
    z = Math.min(1, view.clientWidth / w, view.clientHeight / h); tx = 0; ty = 0; apply();
  }
  // Screen pixels of the smallest cell label at zoom `at` (0: the page has no labels).
  function labelPx(at) {
    var k = svg.width.baseVal.value / svg.viewBox.baseVal.width, f = 0;
    panels.forEach(function (p) { if (p.font > 0 && (!f || p.font < f)) f = p.font; });
    return f * k * at;
  }
  // The page opens fitted to the window where its labels stay readable there (9 px), else
  // at the zoom where they are ("fit" shows it all), with the top left of C (an MMA: where
  // A, B and C meet) or of the first panel at 40% of the window.
  var READABLE_PX = 9;
  function openView() {
    fit();
    var atOne = labelPx(1);
    if (labelPx(z) >= READABLE_PX - 1e-9 || atOne < READABLE_PX - 1e-9) return;
    z = READABLE_PX / atOne;
    var k = svg.width.baseVal.value / svg.viewBox.baseVal.width;
    var c = panels.filter(function (p) { return p.name === 'C'; })[0] || panels[0];
    tx = c ? Math.min(0, 0.4 * view.clientWidth - c.x0 * k * z) : 0;
    ty = c ? Math.min(0, 0.4 * view.clientHeight - c.y0 * k * z) : 0;
    apply();
  }
  // Show the picture at zoom nz with picture point (x, y) (viewBox units) at the view's top left.
  function zoomTo(nz, x, y) {
    var k = svg.width.baseVal.value / svg.viewBox.baseVal.width;
    z = nz; tx = -x * k * z; ty = -y * k * z;
    stage.style.transform = 'translate(' + tx + 'px,' + ty + 'px) scale(' + z + ')';
    materialise();
    drawLabels();
  }
  view.addEventListener('wheel', function (e) {
    e.preventDefault();
    var r = view.getBoundingClientRect(), px = e.clientX - r.left, py = e.clientY - r.top;
    var k = Math.exp(-e.deltaY * 0.0015), nz = Math.min(40, Math.max(0.02, z * k));
    tx = px - (px - tx) * nz / z; ty = py - (py - ty) * nz / z; z = nz; apply();
  }, {passive: false});
  view.addEventListener('mousedown', function (e) { drag = [e.clientX, e.clientY, tx, ty]; moved = false; });
  window.addEventListener('mousemove', function (e) {
    if (!drag) return;
    var dx = e.clientX - drag[0], dy = e.clientY - drag[1];
    if (!moved && Math.abs(dx) + Math.abs(dy) < 4) return;
    moved = true; view.classList.add('drag'); tx = drag[2] + dx; ty = drag[3] + dy; apply();
  });
  window.addEventListener('mouseup', function (e) {
    var was = drag; drag = null; view.classList.remove('drag');
    if (!was || moved) return;
    var hit = cellAt(e.clientX, e.clientY);
    if (!hit || !hit[0].tv) return;
    var p = hit[0], i = hit[1];
    if (p.off[i] === p.off[i + 1]) return;
    var t = p.runs[3 * p.off[i]];
    if (e.shiftKey) { if (selected.indexOf(t) < 0) highlight(selected.concat([t])); else highlight(selected.filter(function (x) { return x !== t; })); }
    else highlight([t]);
  });

  var box = document.getElementById('threads');
  box.addEventListener('change', function () { var t = parseThreads(box.value); box.style.background = t ? '' : '#fdd'; if (t) highlight(t); });
  box.addEventListener('keydown', function (e) { if (e.key === 'Enter') box.dispatchEvent(new Event('change')); });
  document.getElementById('clear').addEventListener('click', function () { highlight([]); });
  document.getElementById('fit').addEventListener('click', fit);
  document.getElementById('colour').addEventListener('change', function (e) { recolour(e.target.value); });
  window.addEventListener('hashchange', fromHash);
  window.addEventListener('resize', drawLabelsSoon);

  // For scripts and tests: the model behind the picture.
  var api = window.cutevis = {
    highlight: highlight, parseThreads: parseThreads, recolour: recolour, cells: elements, materialise: materialise, zoomTo: zoomTo, fit: fit,
    zoom: function () { return z; }, labelPx: function () { return labelPx(z); },
    labelsDrawn: function () { return labelsDrawn; }, drawLabels: drawLabels,
    cellAt: cellAt, lazy: lazy, panels: panels,
    highlighted: function () { return count; },
    cellCount: function () { return panels.reduce(function (n, p) { return n + p.n; }, 0); },
    // The window point at the centre of the first cell whose owners (as data-owners
    // writes them, " "-prefixed and suffixed) match `re`, in panel `name` if given.
    find: function (re, name) {
      for (var pi = 0; pi < panels.length; pi++) {
        var p = panels[pi];
        if (name && p.name !== name) continue;
        for (var i = 0; i < p.n; i++) {
          if (!re.test(' ' + ownersText(p, i) + ' ')) continue;
          var box = svg.getBoundingClientRect(), k = box.width / svg.viewBox.baseVal.width, r = i % p.rows, c = (i - r) / p.rows;
          return [box.left + (p.x0 + (c + 0.5) * cellSize) * k, box.top + (p.y0 + (r + 0.5) * cellSize) * k];
        }
      }
      return null;
    },
    // Every cell element's owners, panel, row and column, and whether it is highlighted.
    elements: function () {
      return elements.map(function (e) {
        var g = e.closest('g[data-panel]'), p = panels.filter(function (q) { return q.g === g; })[0];
        var c = Math.round((+e.getAttribute('x') - p.x0) / cellSize), r = Math.round((+e.getAttribute('y') - p.y0) / cellSize);
        return [p.name, r, c, e.getAttribute('data-owners'), e.classList.contains('hl')];
      });
    }
  };
  panels.forEach(paint);
  openView();
  fromHash();
  if (lazy) materialise();
  if (labelFrame) cancelAnimationFrame(labelFrame);
  drawLabels();
  api.script_ms = performance.now() - started;
  api.ready = true;
})();
)JS";

// The script as pages carry it: the source above without its comment lines, indentation and
// blank lines (17,985 bytes of 22,350), made by the compiler.  No string in the script spans
// lines, so no line's leading spaces matter.
template <class Emit>
constexpr void for_each_kept_char(std::string_view text, Emit emit) {
  for (size_t at = 0; at < text.size();) {
    const size_t end = std::min(text.find('\n', at), text.size());
    size_t begin = at;
    while (begin < end && (text[begin] == ' ' || text[begin] == '\t')) ++begin;
    const std::string_view line = text.substr(begin, end - begin);
    if (!line.empty() && !line.starts_with("//")) {
      for (char c : line) emit(c);
      emit('\n');
    }
    at = end + 1;
  }
}

constexpr size_t kept_size(std::string_view text) {
  size_t n = 0;
  for_each_kept_char(text, [&n](char) { ++n; });
  return n;
}

template <size_t N>
constexpr std::array<char, N + 1> kept_chars(std::string_view text) {  // NUL-ended
  std::array<char, N + 1> out{};
  size_t i = 0;
  for_each_kept_char(text, [&](char c) { out[i++] = c; });
  return out;
}

constexpr auto kScriptKept = kept_chars<kept_size(kScriptSource)>(kScriptSource);
const char* const kScript = kScriptKept.data();

void json_colours(Out& o, const char* name, const std::vector<Rgb>& colours) {
  o << "\"" << name << "\":[";
  for (size_t i = 0; i < colours.size(); ++i) o << (i ? "," : "") << "\"" << to_hex(colours[i]) << "\"";
  o << "]";
}

// Text for HTML character data.
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

std::string render_html(const Scene& scene, const RenderOptions& options) {
  bool tv = false;
  for (const Panel& p : scene.panels) tv |= p.role == PanelRole::kTv;
  Out o;
  o << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
    << "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; "
       "script-src 'unsafe-inline'; img-src data:\">\n"
    << "<title>" << html_escape(scene.title.empty() ? std::string("cutevis") : scene.title) << "</title>\n<style>"
    << kStyle << "</style>\n</head>\n<body>\n<div id=\"bar\"><b>cutevis</b>";
  if (tv)
    o << "<label>threads <input id=\"threads\" placeholder=\"5, 32-35\" spellcheck=\"false\"></label>"
      << "<button id=\"clear\">clear</button>"
      << "<label>colour <select id=\"colour\"><option value=\"drawn\">as drawn</option><option "
         "value=\"thread\">thread</option>"
      << "<option value=\"warp\">warp</option><option value=\"value\">value</option><option "
         "value=\"none\">none</option></select></label>";
  else
    o << "<input id=\"threads\" type=\"hidden\"><button id=\"clear\" hidden></button>"
      << "<select id=\"colour\" hidden><option value=\"drawn\">as drawn</option><option "
         "value=\"none\">none</option></select>";
  o << "<button id=\"fit\" title=\"the whole picture in the window\">fit</button><span id=\"count\"></span><span "
       "style=\"color:#666\">wheel: zoom, drag: pan"
    << (tv ? ", click a cell: its thread (shift adds)" : "") << "</span></div>\n"
    << "<div id=\"view\"><div id=\"stage\">\n";
  std::string cells;
  o << svg_document(scene, options, /*interactive=*/true, &cells);
  o << "</div><canvas id=\"labels\"></canvas></div>\n<div id=\"info\"></div>\n";
  if (!cells.empty()) o << "<script type=\"application/json\" id=\"cutevis-cells\">" << cells << "</script>\n";
  // The palette the script recolours with: the same functions the picture was drawn with.
  std::vector<Rgb> threads, warps;
  for (int64_t t = 0; t < 128; ++t) threads.push_back(thread_color(t));  // the palette repeats every 4 warps
  for (int64_t w = 0; w < 8; ++w) warps.push_back(warp_color(w));
  o << "<script type=\"application/json\" id=\"cutevis-data\">{";
  json_colours(o, "thread", threads);
  o << ",";
  json_colours(o, "warp", warps);
  o << ",\"severalWarps\":\"" << to_hex(several_warps_color()) << "\",\"fadedText\":\"" << to_hex(kFadedText)
    << "\"}</script>\n";
  o << "<script>" << kScript << "</script>\n</body>\n</html>\n";
  return o.take();
}

}  // namespace cutevis::detail
