// The site's measured goals (issue 25), in headless Chromium from file://: medians over
// --runs cold starts (a fresh browser and profile each), printed as one JSON line and a
// table.  Checks nothing: tests/browser/site_test.mjs does.
//
//   node tests/browser/site_bench.mjs [--site DIR] [--runs N] [--chromium PATH]
//
// size          the .wasm (cutevis.wasm, or the base64 inside cutevis.js), raw and gzipped
// ready         navigation start -> the engine instantiated (the page's status says ready)
// first_answer  ready -> the URL's answer shown (#cmd=eval&q=composition(...): text)
// first_picture ready -> the URL's picture drawn (#cmd=atom&q=SM80_16x8x16_F32F16F16F32_TN:
//               the interactive view ready in the frame)
// later_text    a new expression typed, to its text shown (20 logical_divide)
// later_recolour, later_threads, later_picture
//               the picture: another colouring; other threads highlighted; another
//               expression (two atoms in turn), each until the view is ready again
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { cpus, loadavg } from 'node:os';
import { launch } from './cdp.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const args = Object.fromEntries(process.argv.slice(2).join(' ').split(/ (?=--)/).filter(Boolean).map((a) => {
  const [k, ...v] = a.replace(/^--/, '').split(' ');
  return [k, v.join(' ') || true];
}));
const site = resolve(args.site || join(root, 'build-web/site'));
const runs = Number(args.runs || 7);
const which = (name) => {
  const r = spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : '';
};
const chromium = args.chromium || which('chromium') || which('chromium-browser');
if (!chromium) { console.log('site_bench: SKIPPED: chromium not installed'); process.exit(77); }
if (!existsSync(join(site, 'index.html'))) { console.log(`site_bench: no site at ${site} (scripts/build-web.sh)`); process.exit(1); }
const median = (xs) => { const s = xs.filter((x) => x != null).sort((a, b) => a - b); return s.length ? s[(s.length - 1) >> 1] : null; };

function wasmBytes() {
  if (existsSync(join(site, 'cutevis.wasm'))) return readFileSync(join(site, 'cutevis.wasm'));
  const js = readFileSync(join(site, 'cutevis.js'), 'utf8');
  const m = /data:application\/octet-stream;base64,([A-Za-z0-9+/=]+)/.exec(js);
  return m ? Buffer.from(m[1], 'base64') : null;
}
const wasm = wasmBytes();
const files = ['index.html', 'page.js', 'page.css', 'cutevis.js', 'cutevis.wasm'].filter((f) => existsSync(join(site, f)));
const transfer = files.reduce((n, f) => n + readFileSync(join(site, f)).length, 0);

const url = (hash) => pathToFileURL(join(site, 'index.html')).href + hash;
const atom = 'SM80_16x8x16_F32F16F16F32_TN';
const frameReady = "(() => { const w = document.getElementById('picture').contentWindow; return !!(w && w.cutevis && w.cutevis.ready); })()";
// Times inside the page: performance.now() counts from the navigation's start.
const readyAt = 'cutevisPage.ready_at_ms ?? cutevisPage.ready_ms';
const samples = { ready: [], first_answer: [], first_picture: [], later_text: [], later_recolour: [], later_threads: [], later_picture: [] };
const load0 = loadavg()[0];
for (let run = 0; run < runs; run++) {
  const browser = await launch(chromium);
  try {
    const page = await browser.page();
    await page.navigate(url('#cmd=eval&q=composition((4,8):(1,4),(2,2):(1,2))'));
    await page.waitFor('window.cutevisPage && cutevisPage.answers >= 1');
    const t = await page.evaluate(`({ready: ${readyAt}, answered: cutevisPage.answered_at_ms, first: cutevisPage.runs[0].ms, text: document.getElementById('text').textContent})`);
    if (t.text.trim() !== '(2,2):(1,2)') throw new Error('eval answer: ' + JSON.stringify(t.text));
    samples.ready.push(t.ready);
    samples.first_answer.push(t.answered != null ? t.answered - t.ready : t.first);
    const later = await page.evaluate(`(() => {
      const q = document.getElementById('q'), out = [];
      for (let i = 1; i <= 20; i++) {
        q.value = 'logical_divide((' + (4 * i) + ',8):(1,' + (4 * i) + '), ' + (i % 2 ? 2 : 4) + ')';
        const t0 = performance.now();
        cutevisPage.render();
        out.push(performance.now() - t0);
      }
      return out;
    })()`);
    samples.later_text.push(median(later));

    const pic = await browser.page();
    await pic.navigate(url(`#cmd=atom&q=${atom}`));
    await pic.waitFor(`window.cutevisPage && cutevisPage.answers >= 1 && ${frameReady}`);
    // the frame's ready time, when the page records it; else the answer's
    const p = await pic.evaluate(`({ready: ${readyAt}, drawn: cutevisPage.answered_at_ms, first: cutevisPage.runs[0].ms})`);
    samples.first_picture.push(p.drawn != null ? p.drawn - p.ready : p.first);
    const updates = await pic.evaluate(`(async () => {
      const wait = async (n) => { while (cutevisPage.answers === n || !(${frameReady})) await new Promise((r) => setTimeout(r, 1)); };
      const time = async (change) => { const n = cutevisPage.answers, t0 = performance.now(); change(); await wait(n); return performance.now() - t0; };
      const set = (id, v, ev) => { const e = document.getElementById(id); e.value = v; e.dispatchEvent(new Event(ev)); };
      const out = {recolour: [], threads: [], picture: []};
      for (let i = 0; i < 8; i++) out.recolour.push(await time(() => set('color', ['thread', 'warp', 'value', 'auto'][i % 4], 'change')));
      // threads: the page highlights in the view it has (no new answer): the change event, synchronously
      for (let i = 0; i < 8; i++) { const t0 = performance.now(); set('threads', (i * 3) + ',' + (i + 40), 'change'); await wait(-1); out.threads.push(performance.now() - t0); }
      const atoms = ['SM80_16x8x8_F32F16F16F32_TN', '${atom}'];
      for (let i = 0; i < 8; i++) out.picture.push(await time(() => { document.getElementById('q').value = atoms[i % 2]; cutevisPage.render(); }));
      return out;
    })()`);
    samples.later_recolour.push(median(updates.recolour));
    samples.later_threads.push(median(updates.threads));
    samples.later_picture.push(median(updates.picture));
  } finally {
    browser.close();
  }
}
// The engine alone under node (no page): each request's first call in a fresh process, and
// the median of later calls: what -Os against -O3 costs in evaluation speed.
const requests = {
  eval: ['eval', 'composition((4,8):(1,4),(2,2):(1,2))'],
  atom_svg: ['atom', atom, '--svg'],
  atom_html: ['atom', atom, '--html'],
  mma_html: ['mma', 'make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_2,_2,_1>>{})', '--html'],
  copy_analyze: ['copy', 'make_tiled_copy(Copy_Atom<UniversalCopy<uint128_t>, half_t>{}, Layout<Shape<_32,_8>,Stride<_8,_1>>{}, Layout<Shape<_1,_8>>{})',
    '--src', 'gmem:(128,64):(64,1)', '--dst', 'smem:(128,64):(64,1)', '--analyze'],
  list: ['list', 'SM90_64x*_F32F16F16_SS*'],
};
const engineProbe = `
  const create = require(process.argv[1]), reqs = JSON.parse(process.argv[2]);
  create().then((m) => {
    const run = (argv) => { const s = argv.map((w) => w + '\\0').join(''), n = m.lengthBytesUTF8(s), p = m._malloc(n + 1); m.stringToUTF8(s, p, n + 1);
      const t = performance.now(); const c = m._cutevis_run(p, n); const ms = performance.now() - t; m._free(p); if (c) throw new Error(argv + ': ' + c); return ms; };
    const out = {};
    for (const [k, argv] of Object.entries(reqs)) { const first = run(argv), later = []; for (let i = 0; i < 5; i++) later.push(run(argv)); later.sort((a, b) => a - b); out[k] = [first, later[2]]; }
    console.log(JSON.stringify(out));
  });`;
const engine = {};
if (!args['no-engine']) {
  for (let run = 0; run < Math.min(runs, 5); run++) {
    const r = spawnSync(process.execPath, ['--no-experimental-fetch', '-e', engineProbe, join(site, 'cutevis.js'), JSON.stringify(requests)], { encoding: 'utf8' });
    if (r.status !== 0) { console.log('site_bench: the engine under node failed: ' + r.stderr.slice(-500)); break; }
    for (const [k, [first, later]] of Object.entries(JSON.parse(r.stdout))) (engine[k] ??= { first: [], later: [] }).first.push(first), engine[k].later.push(later);
  }
}
const result = {
  wasm_bytes: wasm ? wasm.length : null, wasm_gzip_bytes: wasm ? gzipSync(wasm, { level: 9 }).length : null,
  site_bytes: transfer, runs, cpus: cpus().length, load_before: Number(load0.toFixed(2)), load_after: Number(loadavg()[0].toFixed(2)),
};
for (const [k, v] of Object.entries(samples)) result[k + '_ms'] = v.length ? Number(median(v).toFixed(1)) : null;
for (const [k, v] of Object.entries(engine)) result['node_' + k + '_ms'] = [Number(median(v.first).toFixed(1)), Number(median(v.later).toFixed(2))];
console.log(JSON.stringify(result));
const goals = { ready_ms: 1000, first_answer_ms: 300, later_text_ms: 50, later_recolour_ms: 50, later_threads_ms: 50, later_picture_ms: 50 };
console.log(`wasm ${result.wasm_bytes} bytes (${result.wasm_gzip_bytes} gzipped; goal < 2,000,000 / < 600,000)`);
for (const [k, v] of Object.entries(samples))
  console.log(`${(k + '_ms').padEnd(20)} median ${String(result[k + '_ms']).padStart(8)}  of [${v.map((x) => x.toFixed(0)).join(', ')}]${goals[k + '_ms'] ? '  goal < ' + goals[k + '_ms'] : ''}`);
for (const [k, v] of Object.entries(engine))
  console.log(`node ${k.padEnd(15)} first call ${median(v.first).toFixed(1).padStart(7)} ms, later ${median(v.later).toFixed(2).padStart(8)} ms`);
