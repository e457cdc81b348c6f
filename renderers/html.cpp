// HTML: one self-contained page (no network, no external script or font) holding the
// default SVG, with every cell's owners in data-owners="t:v t:v ...", and a small
// script: hover a cell for all its owners; click a cell (shift adds) or type threads
// ("5, 32-35") to highlight their cells in every panel (class "hl"); #threads=0,5 in
// the URL does the same on load; recolour by thread, warp, value or none; zoom with
// the wheel and pan by dragging.  The colours the script uses come from palette.hpp,
// written into the page, so the page and the pictures never disagree.
#include <algorithm>

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
#stage{transform-origin:0 0;position:absolute;left:0;top:0}
#info{position:fixed;z-index:3;display:none;max-width:40em;padding:6px 8px;background:#ffffe8;border:1px solid #888;font-family:monospace;font-size:12px;white-space:pre-wrap;pointer-events:none}
svg.sel rect.k:not(.hl){fill-opacity:.22}
rect.k.hl{stroke:#c00000;stroke-width:2.5}
)CSS";

const char* kScript = R"JS(
(function () {
  'use strict';
  var started = performance.now();
  var data = JSON.parse(document.getElementById('cutevis-data').textContent);
  var svg = document.getElementById('picture');
  var cells = Array.prototype.slice.call(svg.querySelectorAll('rect.k'));
  var drawn = cells.map(function (c) { return c.getAttribute('fill'); });
  var owned = cells.map(function (c) { return c.getAttribute('data-owners'); });
  var byThread = null;  // thread -> indices of its cells, built on first use
  var cellSize = +svg.getAttribute('data-cell');

  function owners(cell) {
    var s = cell.getAttribute('data-owners'), out = [];
    if (!s) return out;
    var parts = s.split(' ');
    for (var i = 0; i < parts.length; i++) {
      var k = parts[i].indexOf(':');
      out.push([+parts[i].slice(0, k), +parts[i].slice(k + 1)]);
    }
    return out;
  }
  function index() {
    if (byThread) return byThread;
    byThread = new Map();
    for (var i = 0; i < cells.length; i++) {
      var s = owned[i], n = s.length, t = 0, inThr = true, last = -1;
      if (!n) continue;
      for (var j = 0; j <= n; j++) {
        var ch = j < n ? s.charCodeAt(j) : 32;
        if (ch === 58) { inThr = false; if (t !== last) { var l = byThread.get(t); if (!l) byThread.set(t, l = []); if (l[l.length - 1] !== i) l.push(i); last = t; } }
        else if (ch === 32) { inThr = true; t = 0; }
        else if (inThr) t = t * 10 + (ch - 48);
      }
    }
    return byThread;
  }
  function parseThreads(text) {
    var set = [], bad = false;
    text.split(',').forEach(function (part) {
      part = part.trim();
      if (!part) return;
      var m = /^(\d+)\s*(?:-\s*(\d+))?$/.exec(part);
      if (!m) { bad = true; return; }
      var lo = +m[1], hi = m[2] === undefined ? lo : +m[2];
      if (hi < lo || hi - lo > 65536) { bad = true; return; }
      for (var t = lo; t <= hi; t++) set.push(t);
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
  var selected = [];
  function highlight(threads) {
    selected = threads;
    var on = svg.querySelectorAll('rect.k.hl');
    for (var i = 0; i < on.length; i++) on[i].classList.remove('hl');
    var n = 0;
    if (threads.length > 16) {
      var idx = index(), seen = new Set();
      threads.forEach(function (t) {
        (idx.get(t) || []).forEach(function (c) { if (!seen.has(c)) { seen.add(c); cells[c].classList.add('hl'); n++; } });
      });
    } else if (threads.length) {
      // A few threads: the browser's own string search over each cell's owners,
      // faster than building the whole index first.
      var heads = threads.map(function (t) { return t + ':'; }), inner = threads.map(function (t) { return ' ' + t + ':'; });
      for (var i = 0; i < cells.length; i++) {
        var s = owned[i];
        if (!s) continue;
        for (var k = 0; k < heads.length; k++)
          if (s.startsWith(heads[k]) || s.indexOf(inner[k]) >= 0) { cells[i].classList.add('hl'); n++; break; }
      }
    }
    svg.classList.toggle('sel', threads.length > 0);
    var text = rangesOf(threads);
    document.getElementById('threads').value = text;
    document.getElementById('count').textContent = threads.length ? 'threads ' + text + ': ' + n + ' cells' : '';
    var hash = threads.length ? '#threads=' + text : ' ';
    if (location.hash !== hash.trim()) history.replaceState(null, '', hash === ' ' ? location.pathname + location.search : hash);
  }
  function fromHash() {
    var m = /threads=([0-9,\- ]*)/.exec(decodeURIComponent(location.hash));
    if (m) { var t = parseThreads(m[1]); if (t) highlight(t); }
  }

  // Colours: as drawn, or recomputed from the owners with the palette written into the page.
  function recolour(mode) {
    for (var i = 0; i < cells.length; i++) {
      var c = cells[i], fill = drawn[i];
      if (mode !== 'drawn' && c.parentNode.getAttribute('data-tv')) {
        var o = owners(c);
        if (!o.length) fill = '#ffffff';
        else if (mode === 'none') fill = '#ffffff';
        else if (mode === 'thread') fill = data.thread[o[0][0] % data.thread.length];
        else if (mode === 'value') fill = data.thread[o[0][1] % data.thread.length];
        else if (mode === 'warp') {
          var w = Math.floor(o[0][0] / 32), one = o.every(function (x) { return Math.floor(x[0] / 32) === w; });
          fill = one ? data.warp[w % data.warp.length] : data.severalWarps;
        }
      }
      c.setAttribute('fill', fill);
    }
  }

  // Hover: every owner of the cell, grouped by value.
  var info = document.getElementById('info');
  function describe(cell) {
    var g = cell.parentNode, panel = g.getAttribute('data-panel') || 'cell';
    if (!g.getAttribute('data-tv')) return cell.getAttribute('data-info') || '';
    var r = Math.round((+cell.getAttribute('y') - +g.getAttribute('data-y0')) / cellSize);
    var c = Math.round((+cell.getAttribute('x') - +g.getAttribute('data-x0')) / cellSize);
    var t = g.getAttribute('data-transposed'), rows = +g.getAttribute('data-rows'), cols = +g.getAttribute('data-cols');
    var m = t ? c : r, n = t ? r : c, extent = t ? cols : rows;
    var o = owners(cell), byVal = new Map();
    o.forEach(function (x) { var l = byVal.get(x[1]); if (!l) byVal.set(x[1], l = []); l.push(x[0]); });
    var lines = [panel + '(' + m + ',' + n + ') index ' + (m + extent * n) + ': ' + (o.length ? o.length + ' owner' + (o.length > 1 ? 's' : '') : 'no owner')];
    var bits = +g.getAttribute('data-bits') || 0, per = +g.getAttribute('data-atom-values') || 0;
    byVal.forEach(function (thr, v) {
      var where = 'value ' + v + ' of each thread';
      if (bits && per) {
        // the 32-bit register of the MMA instruction's fragment that holds it
        var e = v % per, call = Math.floor(v / per), first = Math.floor(e * bits / 32), last = Math.floor(((e + 1) * bits - 1) / 32);
        where += ', register ' + (first === last ? 'R' + first : 'R' + first + '-R' + last) +
          (bits < 32 ? ' bits ' + (e * bits) % 32 + '-' + ((e * bits) % 32 + bits - 1) : '') + ' of MMA ' + call;
      }
      lines.push('  V' + v + ' (' + where + '): T' + rangesOf(thr));
    });
    return lines.join('\n');
  }
  svg.addEventListener('mouseover', function (e) {
    var c = e.target.closest && e.target.closest('rect.k');
    if (!c) { info.style.display = 'none'; return; }
    info.textContent = describe(c);
    info.style.display = 'block';
  });
  svg.addEventListener('mousemove', function (e) {
    info.style.left = Math.min(e.clientX + 14, window.innerWidth - info.offsetWidth - 4) + 'px';
    info.style.top = Math.min(e.clientY + 14, window.innerHeight - info.offsetHeight - 4) + 'px';
  });
  svg.addEventListener('mouseleave', function () { info.style.display = 'none'; });

  // Labels of a big picture (data-label, lines split by |): drawn for the cells on
  // screen once a cell is at least 14 px, at most 4000 cells at a time.
  var lazy = svg.hasAttribute('data-lazy-labels'), layer = null, xs = null, ys = null, pending = 0;
  var NS = 'http://www.w3.org/2000/svg';
  function drawLabels() {
    pending = 0;
    if (!lazy) return;
    if (!layer) {
      layer = document.createElementNS(NS, 'g');
      svg.appendChild(layer);
      xs = cells.map(function (c) { return +c.getAttribute('x'); });
      ys = cells.map(function (c) { return +c.getAttribute('y'); });
    }
    layer.textContent = '';
    if (cellSize * z < 14) return;
    var r = view.getBoundingClientRect();
    var x0 = -tx / z - cellSize, x1 = (r.width - tx) / z, y0 = -ty / z - cellSize, y1 = (r.height - ty) / z, n = 0;
    var frag = document.createDocumentFragment();
    for (var i = 0; i < cells.length && n < 4000; i++) {
      if (xs[i] < x0 || xs[i] > x1 || ys[i] < y0 || ys[i] > y1) continue;
      var label = cells[i].getAttribute('data-label');
      if (!label) continue;
      var lines = label.split('|'), font = +cells[i].parentNode.getAttribute('font-size'), step = 1.15 * font;
      for (var k = 0; k < lines.length; k++) {
        var t = document.createElementNS(NS, 'text');
        t.setAttribute('class', cells[i].hasAttribute('data-f') ? 'c f' : 'c');
        t.setAttribute('x', xs[i] + cellSize / 2);
        t.setAttribute('y', ys[i] + cellSize / 2 + (k - (lines.length - 1) / 2) * step + 0.35 * font);
        t.setAttribute('font-size', font);
        t.textContent = lines[k];
        frag.appendChild(t);
      }
      n++;
    }
    layer.appendChild(frag);
  }

  // Zoom (wheel, around the pointer) and pan (drag); a click without a drag selects.
  var view = document.getElementById('view'), stage = document.getElementById('stage');
  var z = 1, tx = 0, ty = 0, drag = null, moved = false;
  function apply() {
    stage.style.transform = 'translate(' + tx + 'px,' + ty + 'px) scale(' + z + ')';
    if (lazy && !pending) pending = setTimeout(drawLabels, 80);
  }
  function fit() {
    var w = +svg.getAttribute('width'), h = +svg.getAttribute('height');
    z = Math.min(1, view.clientWidth / w, view.clientHeight / h); tx = 0; ty = 0; apply();
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
    var c = e.target.closest && e.target.closest('rect.k');
    if (!c || !c.parentNode.getAttribute('data-tv')) return;
    var o = owners(c);
    if (!o.length) return;
    var t = o[0][0];
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

  fit();
  fromHash();
  window.cutevis = {highlight: highlight, parseThreads: parseThreads, recolour: recolour, cells: cells, drawLabels: drawLabels, script_ms: performance.now() - started, ready: true};
})();
)JS";

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
    << "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:\">\n"
    << "<title>" << html_escape(scene.title.empty() ? std::string("cutevis") : scene.title) << "</title>\n<style>" << kStyle
    << "</style>\n</head>\n<body>\n<div id=\"bar\"><b>cutevis</b>";
  if (tv)
    o << "<label>threads <input id=\"threads\" placeholder=\"5, 32-35\" spellcheck=\"false\"></label>"
      << "<button id=\"clear\">clear</button>"
      << "<label>colour <select id=\"colour\"><option value=\"drawn\">as drawn</option><option value=\"thread\">thread</option>"
      << "<option value=\"warp\">warp</option><option value=\"value\">value</option><option value=\"none\">none</option></select></label>";
  else
    o << "<input id=\"threads\" type=\"hidden\"><button id=\"clear\" hidden></button>"
      << "<select id=\"colour\" hidden><option value=\"drawn\">as drawn</option><option value=\"none\">none</option></select>";
  o << "<button id=\"fit\">fit</button><span id=\"count\"></span><span style=\"color:#666\">wheel: zoom, drag: pan"
    << (tv ? ", click a cell: its thread (shift adds)" : "") << "</span></div>\n"
    << "<div id=\"view\"><div id=\"stage\">\n";
  o << svg_document(scene, options, /*interactive=*/true);
  o << "</div></div>\n<div id=\"info\"></div>\n";
  // The palette the script recolours with: the same functions the picture was drawn with.
  std::vector<Rgb> threads, warps;
  for (int64_t t = 0; t < 128; ++t) threads.push_back(thread_color(t));  // the palette repeats every 4 warps
  for (int64_t w = 0; w < 8; ++w) warps.push_back(warp_color(w));
  o << "<script type=\"application/json\" id=\"cutevis-data\">{";
  json_colours(o, "thread", threads);
  o << ",";
  json_colours(o, "warp", warps);
  o << ",\"severalWarps\":\"" << to_hex(several_warps_color()) << "\"}</script>\n";
  o << "<script>" << kScript << "</script>\n</body>\n</html>\n";
  return o.take();
}

}  // namespace cutevis::detail
