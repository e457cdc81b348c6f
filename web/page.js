// The page around the engine.  Everything the page shows is what the cutevis CLI prints for
// one argv (web/binding.cpp runs app/main.cpp itself): the page only builds the argv from its
// fields, shows stdout (text, JSON, SVG, the interactive HTML picture in an iframe) or stderr
// (the error with its caret), and keeps the fields in the URL so that a link restores the view:
//   index.html#cmd=mma&q=...&threads=0,5&view=picture
// Nothing is fetched: cutevis.js carries the WebAssembly inside it.
(function () {
  'use strict';
  const started = performance.now();
  const $ = (id) => document.getElementById(id);
  const api = window.cutevisPage = { ready: false, runs: [], answers: 0 };

  // Sub-commands the page does not offer: verify needs a GPU, batch and docs write files,
  // check reads a kernel's files (its reader is left out of the .wasm).
  const SKIP = new Set(['verify', 'batch', 'docs', 'check']);
  const PICTURE = new Set(['layout', 'tv', 'atom', 'mma', 'copy']);
  const FIELDS = ['cmd', 'q', 'tile', 'D', 'flags', 'color', 'threads', 'view', 'file', 'lang'];
  const DEFAULT = { cmd: 'atom', q: 'SM80_16x8x16_F32F16F16F32_TN', tile: '', D: '', flags: '', color: 'auto', threads: '', view: '', file: '', lang: 'hpp' };
  const EXAMPLES = [
    ['composition', { cmd: 'eval', q: 'composition((4,8):(1,4), (2,2):(1,2))' }],
    ['swizzled layout', { cmd: 'layout', q: 'S<2,3,3> o 0 o (16,64):(64,1)', color: 'bank' }],
    ['SM80 MMA atom', { cmd: 'atom', q: 'SM80_16x8x16_F32F16F16F32_TN' }],
    ['TiledMMA 2x2', { cmd: 'mma', q: 'make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_2,_2,_1>>{})', threads: '0,5' }],
    ['TV layout', { cmd: 'tv', q: '((4,8),4):((8,1),32)', tile: '(8,16)' }],
    ['LDSM copy', { cmd: 'copy', q: 'make_tiled_copy(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, Layout<Shape<_32,_1>>{}, Layout<Shape<_1,_8>>{})' }],
    ['bank conflicts', { cmd: 'copy', q: 'make_tiled_copy(Copy_Atom<UniversalCopy<uint128_t>, half_t>{}, Layout<Shape<_32,_8>,Stride<_8,_1>>{}, Layout<Shape<_1,_8>>{})', flags: "--src 'gmem:(128,64):(64,1)' --dst 'smem:(128,64):(64,1)' --analyze" }],
    ['C++ snippet', { cmd: 'eval', q: 'using A = Layout<Shape<_4,_8>>; auto b = make_layout(make_shape(2, 2)); logical_divide(A{}, b)' }],
    ['CuTeDSL', { cmd: 'eval', q: 'cute.make_layout((4, 8), stride=(1, 4))' }],
    ['-D', { cmd: 'eval', q: 'make_layout(make_shape(Int<bM>{}, Int<bK>{}), LayoutRight{})', D: 'bM=128 bK=32' }],
    ['catalogue', { cmd: 'list', q: 'SM90_64x*_F32F16F16_SS*' }],
  ];

  let engine = null, state = { ...DEFAULT }, last = null, timer = 0;

  // --- the engine: argv in, {code, out, err} out ----------------------------------------
  // A C string on the engine's heap for f(pointer, bytes), freed after.
  function withString(s, f) {
    const n = engine.lengthBytesUTF8(s), p = engine._malloc(n + 1);
    engine.stringToUTF8(s, p, n + 1);
    try { return f(p, n); } finally { engine._free(p); }
  }
  function call(argv) {
    const t0 = performance.now();
    let code = state.file ? withString('/input/decls.' + state.lang, (path) => withString(state.file, (text) => engine._cutevis_file(path, text))) : 0;
    // the words each ended by a NUL byte (web/binding.cpp)
    if (code === 0) code = withString(argv.map((w) => w + '\0').join(''), (p, n) => engine._cutevis_run(p, n));
    const r = { argv, code, out: engine.UTF8ToString(engine._cutevis_stdout()), err: engine.UTF8ToString(engine._cutevis_stderr()) };
    r.ms = performance.now() - t0;
    return r;
  }
  api.run = (argv) => call(argv);

  // 'a "b c" d\'e f\'' -> ['a', 'b c', "de f"]: flags typed as in a shell.
  function shellWords(s) {
    const out = [];
    let cur = '', any = false, quote = '';
    for (let i = 0; i < s.length; i++) {
      const c = s[i];
      if (quote) { if (c === quote) quote = ''; else if (c === '\\' && quote === '"' && i + 1 < s.length) cur += s[++i]; else cur += c; continue; }
      if (c === "'" || c === '"') { quote = c; any = true; } else if (c === '\\' && i + 1 < s.length) { cur += s[++i]; any = true; } else if (/\s/.test(c)) { if (any) out.push(cur); cur = ''; any = false; } else { cur += c; any = true; }
    }
    if (any) out.push(cur);
    return out;
  }
  const hasFlag = (name) => shellWords(state.flags).includes(name);

  // The argv of the current fields, without a format flag.
  function baseArgv() {
    const a = [state.cmd];
    if (state.q.trim()) a.push(state.q);
    if (state.cmd === 'tv') a.push(state.tile);
    for (const d of shellWords(state.D)) a.push('-D', d);
    if (state.file) a.push('--from', '/input/decls.' + state.lang);
    return a.concat(shellWords(state.flags));
  }
  const colorArgs = () => (state.color && state.color !== 'auto' ? ['--color-by', state.color] : []);
  const threadArgs = () => (state.threads.trim() ? ['--threads', state.threads.trim()] : []);
  function argvFor(view) {
    const a = baseArgv();
    if (view === 'picture') return a.concat(['--html'], colorArgs());
    if (view === 'svg') return a.concat(['--svg'], colorArgs(), threadArgs());
    if (view === 'tex') return a.concat(['--tex'], colorArgs(), threadArgs());
    if (view === 'json') return hasFlag('--json') ? a : a.concat(['--json']);
    return a;
  }
  const quoteArg = (s) => (/^[\w@%+=:,./-]+$/.test(s) ? s : "'" + s.replace(/'/g, "'\\''") + "'");
  const commandLine = (argv) => 'cutevis ' + argv.map(quoteArg).join(' ');

  // The view a command shows unless one is asked for.
  function viewOf() {
    const pictures = PICTURE.has(state.cmd) && !hasFlag('--analyze') && !hasFlag('--json') && !hasFlag('--thread');
    const v = state.view || (pictures ? 'picture' : 'text');
    if (!pictures && (v === 'picture' || v === 'svg')) return 'text';
    return v;
  }

  // --- the URL ------------------------------------------------------------------------------
  function readHash() {
    const s = { ...DEFAULT };
    const h = location.hash.replace(/^#/, '');
    if (!h) return s;
    for (const part of h.split('&')) {
      const eq = part.indexOf('=');
      if (eq < 0) continue;
      const key = part.slice(0, eq);
      let value = part.slice(eq + 1);
      try { value = decodeURIComponent(value); } catch (e) { /* a hand-typed % stays as typed */ }
      if (FIELDS.includes(key)) s[key] = value;
    }
    return s;
  }
  const encode = (v) => encodeURIComponent(v).replace(/%2C/g, ',').replace(/%3A/g, ':').replace(/%2F/g, '/').replace(/%40/g, '@');
  function writeHash() {
    const parts = FIELDS.filter((k) => state[k] !== DEFAULT[k] || k === 'cmd' || k === 'q').map((k) => k + '=' + encode(state[k]));
    const hash = '#' + parts.join('&');
    if (location.hash !== hash) history.replaceState(null, '', hash);
  }

  // --- fields <-> state ---------------------------------------------------------------------
  const inputs = { cmd: 'cmd', q: 'q', tile: 'tile', D: 'defs', flags: 'flags', color: 'color', threads: 'threads', file: 'file', lang: 'filelang' };
  function toFields() {
    addCommand(state.cmd);
    for (const [k, id] of Object.entries(inputs)) if ($(id).value !== state[k]) $(id).value = state[k];  // (writes cost)
    if (state.file) $('filebox').open = true;
    $('tile').hidden = state.cmd !== 'tv';
    sizeInput();
  }
  function fromFields() { for (const [k, id] of Object.entries(inputs)) state[k] = $(id).value; }
  function sizeInput() {
    const q = $('q'), rows = Math.min(8, Math.max(1, q.value.split('\n').length));
    if (q.rows !== rows) q.rows = rows;
  }

  // --- showing an answer --------------------------------------------------------------------
  function show(kind) { for (const id of ['error', 'warning', 'text', 'analysis', 'svgbox', 'picture']) $(id).hidden = !kind.includes(id); }

  function render() {
    if (!engine) return;
    fromFields();
    const view = viewOf();
    const t0 = performance.now();
    const argv = argvFor(view);
    const r = call(argv);
    last = { view, result: r };
    $('command').textContent = commandLine(argv);
    $('command').title = 'the command line this view runs: ' + commandLine(argv);
    for (const b of document.querySelectorAll('#views button')) {
      b.classList.toggle('on', b.dataset.view === view);
      b.disabled = !PICTURE.has(state.cmd) && (b.dataset.view === 'picture' || b.dataset.view === 'svg');
    }
    for (const b of document.querySelectorAll('[data-save]'))
      b.disabled = !PICTURE.has(state.cmd) && b.dataset.save !== 'json';
    const shown = [];
    if (r.code !== 0) {
      $('error').textContent = r.err || 'cutevis exited with ' + r.code;
      shown.push('error');
    } else {
      if (r.err) { $('warning').textContent = r.err; shown.push('warning'); }
      if (view === 'picture') {
        shown.push('picture');
      } else if (view === 'svg') {
        $('svgbox').innerHTML = r.out;
        shown.push('svgbox');
      } else {
        $('text').textContent = r.out;
        $('text').classList.toggle('short', r.out.length < 200 && r.out.split('\n').length <= 3);
        shown.push('text');
        if (hasFlag('--analyze') && !hasFlag('--json')) {
          const j = call(argv.concat(['--json']));
          if (j.code === 0) { analysisTables(JSON.parse(j.out)); shown.push('analysis'); }
        }
      }
    }
    show(shown);
    if (view === 'picture' && r.code === 0) showPicture(r.out);  // drawn once visible: the view fits itself to its frame
    writeHash();
    const ms = performance.now() - t0;
    api.runs.push({ argv, code: r.code, engine_ms: r.ms, ms });
    api.answers++;
    api.last = { argv, code: r.code, out: r.out, err: r.err, view };
    if (api.answered_at_ms === undefined) api.answered_at_ms = performance.now();
  }
  api.render = render;

  // The CLI's interactive HTML page in an iframe, written into the frame's document in place:
  // a new srcdoc would make Chromium navigate the frame (about 200 ms) for every picture.  The
  // page's script runs during write(), so the view is ready when close() returns.  Its thread
  // highlighting is kept in our URL.
  let writing = false, drawn = null;  // drawn: the tags of the picture in the frame
  function showPicture(html) {
    const frame = $('picture'), w = frame.contentWindow, doc = frame.contentDocument;
    const tags = html.split(/(?=<)/);
    api.patched = patchPicture(tags);
    drawn = tags;
    if (!api.patched) {
      writing = true;  // the frame reads threads from its URL as it opens: ours are set below
      try {
        doc.open();
        doc.write(html);
        doc.close();
      } finally {
        writing = false;
      }
    }
    if (!w.cutevis) return;
    if (!w.cutevisPageHook) {  // the frame's window outlives its documents: wrap its history once
      w.cutevisPageHook = true;
      // The frame's own URL is neither shown nor shared (ours keeps its threads), so it is not
      // written: Chromium took about 4 ms to replace a frame's URL, on every new picture with
      // threads highlighted.  The view keeps the fragment it last wrote itself.
      w.history.replaceState = (s, title, url) => {
        if (writing) return;
        const m = /threads=([0-9,\- ]*)/.exec(decodeURIComponent(String(url || '')));
        state.threads = m ? m[1] : '';
        $('threads').value = state.threads;
        writeHash();
      };
    }
    const t = w.cutevis.parseThreads(state.threads.trim());
    if (t && (t.length || w.cutevis.highlighted())) w.cutevis.highlight(t);
  }

  // A new picture that differs from the one in the frame only in attributes (a fill, a colour
  // other than data-*/class) and texts of the SVG's elements -- another --color-by -- is patched
  // into the frame's document: no parse, no layout of the whole picture.  The frame's model of the
  // cells reads its colours again.  Anything else (another shape, other owners, a big page drawn
  // on canvases) is written anew.  true when patched.
  const unescapeHtml = (t) => t.replace(/&(lt|gt|quot|#39|amp);/g, (m, e) => ({ lt: '<', gt: '>', quot: '"', '#39': "'", amp: '&' })[e]);
  function attributesOf(tag) {
    const out = new Map(), re = /\s([\w:-]+)="([^"]*)"/g, end = tag.indexOf('>');
    for (let m; (m = re.exec(tag.slice(0, end)));) out.set(m[1], unescapeHtml(m[2]));
    return out;
  }
  api.redraw = () => { drawn = null; render(); };  // for tests: the same picture, written anew
  function patchPicture(tags) {
    const w = $('picture').contentWindow, doc = $('picture').contentDocument;
    if (!drawn || drawn.length !== tags.length || !w.cutevis || w.cutevis.lazy || $('picture').hidden) return false;
    const first = tags.findIndex((t) => t.startsWith('<svg')), last = tags.indexOf('</svg>\n');
    const svg = doc.getElementById('picture');
    if (first < 0 || last < first || !svg) return false;
    const changes = [];
    for (let i = 0; i < tags.length; i++) {
      if (tags[i] === drawn[i]) continue;
      const a = drawn[i], b = tags[i], name = /^<([a-zA-Z]+)/.exec(b);
      if (i < first || i >= last || !name || !a.startsWith('<' + name[1] + ' ') && !a.startsWith('<' + name[1] + '>')) return false;
      const was = attributesOf(a), now = attributesOf(b);
      for (const k of new Set([...was.keys(), ...now.keys()]))
        if (was.get(k) !== now.get(k) && (k === 'class' || k.startsWith('data-') || k === 'id')) return false;
      changes.push([i, was, now, b.slice(b.indexOf('>') + 1)]);
    }
    if (!changes.length) return true;
    // the k-th start tag after <svg> is the SVG's k-th element in document order
    const elements = [svg, ...svg.querySelectorAll('*')], index = new Map();
    for (let i = first, k = 0; i < last; i++) if (/^<[a-zA-Z]/.test(drawn[i])) index.set(i, k++);
    if (index.size !== elements.length) return false;
    for (const [i, was, now, text] of changes) {
      const e = elements[index.get(i)];
      for (const k of was.keys()) if (!now.has(k)) e.removeAttribute(k);
      for (const [k, v] of now) if (was.get(k) !== v) e.setAttribute(k, v);
      const t = unescapeHtml(text);
      if (t === unescapeHtml(drawn[i].slice(drawn[i].indexOf('>') + 1))) continue;
      if (e.childElementCount) return false;  // mixed content: written anew (over what was patched)
      e.textContent = t;
    }
    for (const p of w.cutevis.panels)
      for (let i = 0; i < p.n; i++)
        if (p.el[i]) p.drawn[i] = p.fill[i] = parseInt(p.el[i].getAttribute('fill').slice(1), 16);
    const colour = doc.getElementById('colour');
    if (colour) colour.value = 'drawn';
    return true;
  }

  // --analyze --json as tables: scalars of an object in one table, each list of objects in one.
  function analysisTables(json) {
    const box = $('analysis');
    box.textContent = '';
    const esc = (v) => (typeof v === 'number' && !Number.isInteger(v) ? v.toFixed(3) : String(v));
    function flat(o, prefix, out) {
      for (const [k, v] of Object.entries(o)) {
        if (v && typeof v === 'object' && !Array.isArray(v)) flat(v, prefix + k + '.', out);
        else if (!Array.isArray(v)) out.push([prefix + k, v]);
      }
      return out;
    }
    function table(caption, head, rows, bad) {
      const t = document.createElement('table');
      t.insertAdjacentHTML('beforeend', '<caption></caption>');
      t.caption.textContent = caption;
      const hr = t.insertRow();
      for (const h of head) { const th = document.createElement('th'); th.textContent = h; hr.appendChild(th); }
      for (const row of rows) {
        const tr = t.insertRow();
        if (bad && bad(row)) tr.className = 'bad';
        row.forEach((v) => { const td = tr.insertCell(); td.textContent = esc(v); if (typeof v !== 'number') td.className = 's'; });
      }
      box.appendChild(t);
    }
    function walk(o, path) {
      const scalars = flat(Object.fromEntries(Object.entries(o).filter(([, v]) => !Array.isArray(v) && !(v && typeof v === 'object' && Object.values(v).some(Array.isArray)))), '', []);
      if (scalars.length) table(path || 'summary', ['', 'value'], scalars.map(([k, v]) => [k, v]));
      for (const [k, v] of Object.entries(o)) {
        const where = (path ? path + '.' : '') + k;
        if (Array.isArray(v) && v.length && typeof v[0] === 'object') {
          const cols = [...new Set(v.flatMap((x) => flat(x, '', []).map(([c]) => c)))];
          const rows = v.slice(0, 2000).map((x) => { const m = Object.fromEntries(flat(x, '', [])); return cols.map((c) => (c in m ? m[c] : '')); });
          const wi = cols.indexOf('wavefronts'), ii = cols.indexOf('ideal_wavefronts'), ci = cols.indexOf('bank_conflicts');
          table(where + ' (' + v.length + ')', cols, rows, (row) => (ci >= 0 && row[ci] > 0) || (wi >= 0 && ii >= 0 && row[wi] > row[ii]));
        } else if (Array.isArray(v) && v.length) {
          table(where, [''], v.map((x) => [typeof x === 'object' ? JSON.stringify(x) : x]));
        } else if (v && typeof v === 'object' && !Array.isArray(v) && Object.values(v).some(Array.isArray)) {
          walk(v, where);
        }
      }
    }
    walk(json, '');
  }

  // --- downloads ----------------------------------------------------------------------------
  function download(bytes, type, name) {
    const a = document.createElement('a');
    a.href = URL.createObjectURL(bytes instanceof Blob ? bytes : new Blob([bytes], { type }));
    a.download = name;
    document.body.appendChild(a);
    a.click();
    setTimeout(() => { URL.revokeObjectURL(a.href); a.remove(); }, 1000);
  }
  function save(kind) {
    fromFields();
    const stem = 'cutevis-' + state.cmd;
    const r = call(argvFor(kind === 'png' ? 'svg' : kind));
    if (r.code !== 0) { $('error').textContent = r.err; show(['error']); return null; }
    if (kind === 'svg') download(r.out, 'image/svg+xml', stem + '.svg');
    if (kind === 'tex') download(r.out, 'application/x-tex', stem + '.tex');
    if (kind === 'json') download(r.out, 'application/json', stem + '.json');
    if (kind === 'png') svgToPng(r.out).then((blob) => download(blob, 'image/png', stem + '.png'));
    return r;
  }
  api.save = save;
  // The browser draws the SVG on a canvas at twice its size (the CLI's --png is Cairo's).
  function svgToPng(svg) {
    return new Promise((resolve, reject) => {
      const img = new Image();
      img.onload = () => {
        const c = document.createElement('canvas');
        c.width = img.naturalWidth * 2; c.height = img.naturalHeight * 2;
        const g = c.getContext('2d');
        g.fillStyle = '#fff'; g.fillRect(0, 0, c.width, c.height);
        g.drawImage(img, 0, 0, c.width, c.height);
        c.toBlob(resolve, 'image/png');
      };
      img.onerror = reject;
      img.src = 'data:image/svg+xml;charset=utf-8,' + encodeURIComponent(svg);
    });
  }
  api.svgToPng = svgToPng;

  // --- wiring -------------------------------------------------------------------------------
  function later() { clearTimeout(timer); timer = setTimeout(render, 250); }
  $('form').addEventListener('submit', (e) => { e.preventDefault(); clearTimeout(timer); render(); });
  $('q').addEventListener('keydown', (e) => { if (e.key === 'Enter' && !e.shiftKey) { e.preventDefault(); clearTimeout(timer); render(); } });
  $('q').addEventListener('input', () => { sizeInput(); later(); });
  for (const id of ['tile', 'defs', 'flags', 'file']) $(id).addEventListener('input', later);
  for (const id of ['cmd', 'color', 'filelang']) $(id).addEventListener('change', () => { if (id === 'cmd') state.view = ''; fromFields(); toFields(); render(); });
  $('threads').addEventListener('change', () => {
    fromFields();
    const w = !$('picture').hidden && $('picture').contentWindow;
    const t = w && w.cutevis && w.cutevis.parseThreads(state.threads.trim() || '');
    if (t) { w.cutevis.highlight(state.threads.trim() ? t : []); writeHash(); } else render();
  });
  $('views').addEventListener('click', (e) => { const v = e.target.dataset && e.target.dataset.view; if (v) { state.view = v; render(); } });
  for (const b of document.querySelectorAll('[data-save]')) b.addEventListener('click', () => save(b.dataset.save));
  $('link').addEventListener('click', () => {
    writeHash();
    if (navigator.clipboard) navigator.clipboard.writeText(location.href).then(() => { $('link').textContent = 'copied'; }, () => {});
    $('link').title = location.href;
  });
  window.addEventListener('hashchange', () => { state = readHash(); toFields(); render(); });
  for (const [name, s] of EXAMPLES) {
    const a = document.createElement('a');
    a.textContent = name;
    a.title = commandLine([s.cmd, s.q]);
    a.addEventListener('click', () => { state = { ...DEFAULT, ...s }; toFields(); render(); });
    $('examples').appendChild(a);
  }

  function addCommand(name) {
    if (!name || Array.prototype.some.call($('cmd').options, (o) => o.value === name)) return;
    const o = document.createElement('option');
    o.value = o.textContent = name;
    $('cmd').appendChild(o);
  }
  // The commands `cutevis help` lists, each with its one-line description (after the first
  // answer: the page is ready without them).
  function fillCommands() {
    const help = call(['help']).out;
    const names = [];
    let inList = false;
    for (const line of help.split('\n')) {
      if (/^Subcommands:/.test(line)) { inList = true; continue; }
      if (inList && !line.trim()) break;
      const m = inList && /^\s+(\S+)\s+(.*)$/.exec(line);
      if (m && !SKIP.has(m[1])) names.push([m[1], m[2]]);
    }
    const current = $('cmd').value;
    $('cmd').textContent = '';
    for (const [name, about] of names) {
      addCommand(name);
      $('cmd').lastChild.title = about;
    }
    addCommand(current);
    $('cmd').value = current;
    return names.map(([name]) => name);
  }

  state = readHash();
  toFields();
  createCutevis().then((m) => {
    engine = m;
    api.ready = true;
    api.ready_at_ms = performance.now();  // since the navigation started
    api.ready_ms = api.ready_at_ms - started;  // since this script started
    $('status').textContent = 'engine ready in ' + Math.round(api.ready_at_ms) + ' ms';
    $('status').className = 'status ok';
    render();
    setTimeout(() => { api.commands = fillCommands(); }, 0);
  }, (e) => { $('status').textContent = 'the engine did not load: ' + e; });
})();
