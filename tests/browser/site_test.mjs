// The static site (scripts/build-web.sh, build-web/site/) in headless Chromium, opened from
// file://: what the "done when" lists, checked, and the page's timings measured.
//
//   node tests/browser/site_test.mjs --cli BUILD/bin/cutevis [--site DIR] [--chromium PATH]
//        [--shots DIR] [--loads N] [--no-build]
//
// Checks: the eval URL shows (2,2):(1,2); the atom URL's SVG is byte for byte the native
// CLI's (and drawn); the picture view is the CLI's interactive page (hover lists owners,
// a click highlights a thread and the URL keeps it); an error shows the CLI's message
// with its caret; a URL restores a view in a fresh page; --analyze shows tables; nothing
// but file:, data: and blob: URLs is requested.  Prints one line per check and a JSON
// line of timings (medians over --loads page loads).  With emscripten installed the site
// is (re)built first (scripts/build-web.sh, incremental), unless --no-build.  Exit 0 all
// passed, 1 a check failed, 77 skipped (no Chromium; no site and no emscripten to build it).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { launch, sleep } from './cdp.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const args = Object.fromEntries(process.argv.slice(2).join(' ').split(/ (?=--)/).map((a) => {
  const [k, ...v] = a.replace(/^--/, '').split(' ');
  return [k, v.join(' ') || true];
}));
const site = resolve(args.site || join(root, 'build-web/site'));
const which = (name) => {
  const r = spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : '';
};
const chromium = args.chromium || which('chromium') || which('chromium-browser');
const skip = (why) => { console.log(`site_test: SKIPPED: ${why}`); process.exit(77); };
if (!chromium) skip('chromium not installed (scripts/setup.sh installs it)');
if (!args.cli || !existsSync(args.cli)) { console.log('site_test: --cli BUILD/bin/cutevis is needed (the native CLI to compare with)'); process.exit(1); }
if (which('emcmake') && !args['no-build']) {  // incremental: nothing to do when the site is current
  const b = spawnSync(join(root, 'scripts/build-web.sh'), [], { stdio: ['ignore', 'ignore', 'inherit'] });
  if (b.status !== 0) { console.log('site_test: scripts/build-web.sh failed'); process.exit(1); }
} else if (!existsSync(join(site, 'index.html')) || !existsSync(join(site, 'cutevis.js'))) {
  skip(`no site at ${site} and emscripten is not installed to build it (scripts/setup.sh)`);
}
const cli = (argv) => spawnSync(args.cli, argv, { encoding: 'utf8', maxBuffer: 64 << 20 });
const pageUrl = (hash) => pathToFileURL(join(site, 'index.html')).href + hash;
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s.length ? s[(s.length - 1) >> 1] : null; };

let failed = 0;
function check(name, ok, detail = '') {
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${name}${ok || !detail ? '' : ': ' + detail}`);
  if (!ok) failed++;
}

const browser = await launch(chromium);
const watchdog = setTimeout(() => { console.log('site_test: timed out\n' + browser.stderr().slice(-2000)); browser.close(); process.exit(1); }, 600000);
const timings = { loads: [] };
try {
  // 1. A URL evaluates: the answer, and how long the page took (a fresh page per load).
  const evalHash = '#cmd=eval&q=composition((4,8):(1,4),(2,2):(1,2))';
  const loads = Number(args.loads || 3);
  let page;
  for (let i = 0; i < loads; i++) {
    page = await browser.page();
    const t0 = performance.now();
    await page.navigate(pageUrl(evalHash));
    await page.waitFor('window.cutevisPage && window.cutevisPage.answers >= 1');
    const wall = performance.now() - t0;
    const m = await page.evaluate('({ready: cutevisPage.ready_ms, first: cutevisPage.runs[0].ms, engine: cutevisPage.runs[0].engine_ms, nav: performance.timing.domInteractive - performance.timing.navigationStart})');
    timings.loads.push({ wall_to_first_answer_ms: wall, ...m });
  }
  const shown = await page.evaluate("({text: document.getElementById('text').textContent, hidden: document.getElementById('text').hidden})");
  check('eval URL shows (2,2):(1,2)', shown.text.trim() === '(2,2):(1,2)' && !shown.hidden, JSON.stringify(shown));
  check('eval answer is the CLI\'s stdout', shown.text === cli(['eval', 'composition((4,8):(1,4),(2,2):(1,2))']).stdout);

  // Later answers: the same page, other expressions (text views), then pictures.
  const later = await page.evaluate(`(async () => {
    const q = document.getElementById('q'), out = [];
    for (let i = 1; i <= 20; i++) {
      q.value = 'logical_divide((' + (4 * i) + ',8):(1,' + (4 * i) + '), ' + (i % 2 ? 2 : 4) + ')';
      const t0 = performance.now();
      cutevisPage.render();
      out.push({ms: performance.now() - t0, engine: cutevisPage.runs[cutevisPage.runs.length - 1].engine_ms, code: cutevisPage.last.code});
    }
    return out;
  })()`);
  timings.later_text_ms = median(later.map((x) => x.ms));
  timings.later_text_engine_ms = median(later.map((x) => x.engine));
  check('later answers all succeed', later.every((x) => x.code === 0), JSON.stringify(later.slice(0, 3)));

  // 2. The atom's SVG is the CLI's, byte for byte, and drawn.
  const atom = 'SM80_16x8x16_F32F16F16F32_TN';
  await page.navigate(pageUrl(`#cmd=atom&q=${atom}&view=svg`));
  await page.waitFor('window.cutevisPage && cutevisPage.answers >= 1');
  const svg = await page.evaluate("({out: cutevisPage.last.out, argv: cutevisPage.last.argv, rects: document.querySelectorAll('#svgbox svg rect').length, hidden: document.getElementById('svgbox').hidden})");
  const native = cli(['atom', atom, '--svg']).stdout;
  check('atom URL: the SVG is byte for byte the CLI\'s `cutevis atom ... --svg`', svg.out === native && native.length > 1000,
    `page ${svg.out.length} bytes (${JSON.stringify(svg.argv)}), CLI ${native.length} bytes`);
  const nativeRects = (native.match(/<rect/g) || []).length;
  check('atom SVG is drawn in the page (every rect)', !svg.hidden && svg.rects === nativeRects, `${svg.rects} of ${nativeRects}`);

  // 3. The picture view: the CLI's --html page, interactive inside the frame.
  await page.navigate(pageUrl(`#cmd=atom&q=${atom}`));
  await page.waitFor('window.cutevisPage && cutevisPage.answers >= 1');
  const frameHtml = await page.evaluate("({html: cutevisPage.last.out, svg: document.getElementById('picture').contentDocument.querySelectorAll('svg#picture rect.k').length})");
  check('picture view is the CLI\'s `--html` page, written into the frame', frameHtml.html === cli(['atom', atom, '--html']).stdout && frameHtml.svg > 0,
    `${frameHtml.html.length} bytes, ${frameHtml.svg} cells`);
  const frameReady = "(() => { const w = document.getElementById('picture').contentWindow; return !!(w && w.cutevis && w.cutevis.ready); })()";
  await page.waitFor(frameReady);
  const pos = await page.evaluate(`(() => { const f = document.getElementById('picture'), b = f.getBoundingClientRect(), p = f.contentWindow.cutevis.find(/ 5:0 /, 'C'); return p && [b.left + p[0], b.top + p[1]]; })()`);
  check('picture: a cell of thread 5 is found', !!pos);
  if (pos) {
    await page.send('Input.dispatchMouseEvent', { type: 'mouseMoved', x: pos[0], y: pos[1] });
    await sleep(50);
    const info = await page.evaluate("document.getElementById('picture').contentDocument.getElementById('info').textContent");
    check('picture: hovering a cell lists its owners', /5:0|T5/.test(info), info);
    await page.click(pos[0], pos[1]);
    await sleep(50);
    const after = await page.evaluate("({hash: location.hash, box: document.getElementById('threads').value, hl: document.getElementById('picture').contentWindow.cutevis.highlighted()})");
    check('picture: clicking a cell highlights thread 5 and the URL keeps it', /threads=5(&|$)/.test(after.hash) && after.box === '5' && after.hl > 0, JSON.stringify(after));
  }
  // Another colouring is patched into the picture in place: the same document as the picture written anew.
  const recoloured = await page.evaluate(`(() => {
    const svg = () => document.getElementById('picture').contentDocument.getElementById('picture').outerHTML;
    const f = (p) => { const w = document.getElementById('picture').contentWindow; return Array.from(w.cutevis.panels[p].fill).join(); };
    const c = document.getElementById('color'); c.value = 'warp'; cutevisPage.render();
    const patched = {on: cutevisPage.patched, svg: svg(), fill: f(0), argv: cutevisPage.last.argv};
    cutevisPage.redraw();
    return {patched, written: {on: cutevisPage.patched, svg: svg(), fill: f(0)}};
  })()`);
  check('recolour: patched in place, the same picture and model as written anew', recoloured.patched.on === true && recoloured.written.on === false &&
    recoloured.patched.svg === recoloured.written.svg && recoloured.patched.fill === recoloured.written.fill && recoloured.patched.argv.includes('warp'),
    JSON.stringify({ patched: recoloured.patched.on, written: recoloured.written.on, same: recoloured.patched.svg === recoloured.written.svg, fill: recoloured.patched.fill === recoloured.written.fill }));
  // Written anew twice more, the frame holds one picture's handlers: a shift-click adds one thread (not twice, a no-op).
  await page.evaluate("(() => { const q = document.getElementById('q'); for (const a of ['SM80_16x8x8_F32F16F16F32_TN', '" + atom + "']) { q.value = a; cutevisPage.render(); } })()");
  const at = (re) => page.evaluate(`(() => { const f = document.getElementById('picture'), b = f.getBoundingClientRect(), p = f.contentWindow.cutevis.find(${re}, 'C'); return p && [b.left + p[0], b.top + p[1]]; })()`);
  const [c5, c9] = [await at('/ 5:0 /'), await at('/ 9:0 /')];
  if (c5 && c9) {
    await page.click(c5[0], c5[1]);
    await page.send('Input.dispatchMouseEvent', { type: 'mousePressed', x: c9[0], y: c9[1], button: 'left', clickCount: 1, modifiers: 8 });
    await page.send('Input.dispatchMouseEvent', { type: 'mouseReleased', x: c9[0], y: c9[1], button: 'left', clickCount: 1, modifiers: 8 });
    await sleep(50);
  }
  const shifted = await page.evaluate("document.getElementById('threads').value");
  check('picture written anew: a shift-click adds its thread once', shifted === '5,9', JSON.stringify({ shifted, c5, c9 }));
  const pictureTimes = await page.evaluate(`(async () => {
    const out = [], ready = () => { const w = document.getElementById('picture').contentWindow; return w && w.cutevis && w.cutevis.ready; };
    for (const t of ['0', '1', '2', '3', '4', '5', '6', '7', '8', '9']) {
      const n = cutevisPage.answers, t0 = performance.now();
      document.getElementById('color').value = ['thread', 'warp', 'value', 'auto'][t % 4];
      cutevisPage.render();
      while (cutevisPage.answers === n || !ready()) await new Promise((r) => setTimeout(r, 1));
      out.push(performance.now() - t0);
    }
    return out;
  })()`);
  timings.later_picture_ms = median(pictureTimes);

  // 4. An error: the CLI's message and its caret under the bad spot.
  const bad = 'composition((4,8):(1,4';
  await page.navigate(pageUrl('#cmd=eval&q=' + encodeURIComponent(bad)));
  await page.waitFor('window.cutevisPage && cutevisPage.answers >= 1');
  const err = await page.evaluate("({text: document.getElementById('error').textContent, hidden: document.getElementById('error').hidden, font: getComputedStyle(document.getElementById('error')).fontFamily})");
  const nativeErr = cli(['eval', bad]);
  const lines = err.text.split('\n');
  const caretLine = lines.findIndex((l) => /^\s*\^\s*$/.test(l));
  check('error: shown, the CLI\'s stderr (message, source, caret)', !err.hidden && err.text === nativeErr.stderr && nativeErr.status === 2, JSON.stringify(err.text));
  check('error: the caret sits under the bad spot, in a monospace font', caretLine > 0 && lines[caretLine].indexOf('^') === lines[caretLine - 1].indexOf(bad) + bad.indexOf('(1,4') && /mono/i.test(err.font),
    JSON.stringify(lines));

  // 5. A URL restores a view: set fields in one page, open its URL in a fresh page.
  await page.navigate(pageUrl('#cmd=eval&q=1'));
  await page.waitFor('window.cutevisPage && cutevisPage.answers >= 1');
  await page.evaluate(`(() => {
    const set = (id, v) => { const e = document.getElementById(id); e.value = v; };
    set('cmd', 'mma'); set('q', 'make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_2,_2,_1>>{})');
    set('color', 'warp'); set('threads', '0,33'); set('defs', 'bM=128');
    cutevisPage.render();
  })()`);
  await page.waitFor('cutevisPage.answers >= 2');
  const before = await page.evaluate("({href: location.href, argv: cutevisPage.last.argv, out: cutevisPage.last.out.length})");
  const fresh = await browser.page();
  await fresh.navigate(before.href);
  await fresh.waitFor('window.cutevisPage && cutevisPage.answers >= 1');
  await fresh.waitFor(frameReady);
  const restored = await fresh.evaluate("({argv: cutevisPage.last.argv, out: cutevisPage.last.out.length, threads: document.getElementById('threads').value, hl: document.getElementById('picture').contentWindow.cutevis.highlighted()})");
  check('a URL restores the view (command, expression, -D, colour, threads)', JSON.stringify(restored.argv) === JSON.stringify(before.argv) && restored.out === before.out && restored.threads === '0,33' && restored.hl > 0,
    JSON.stringify({ before, restored }));
  if (args.shots) { mkdirSync(args.shots, { recursive: true }); writeFileSync(join(args.shots, 'site_mma_threads.png'), await fresh.screenshot()); }

  // 6. --analyze: the CLI's text and the JSON as tables.
  const copyExpr = 'make_tiled_copy(Copy_Atom<UniversalCopy<uint128_t>, half_t>{}, Layout<Shape<_32,_8>,Stride<_8,_1>>{}, Layout<Shape<_1,_8>>{})';
  const flags = "--src 'gmem:(128,64):(64,1)' --dst 'smem:(128,64):(64,1)' --analyze";
  await page.navigate(pageUrl('#cmd=copy&q=' + encodeURIComponent(copyExpr) + '&flags=' + encodeURIComponent(flags)));
  await page.waitFor('window.cutevisPage && cutevisPage.answers >= 1');
  const an = await page.evaluate("({text: document.getElementById('text').textContent, tables: document.querySelectorAll('#analysis table').length, rows: document.querySelectorAll('#analysis tr').length, caption: Array.from(document.querySelectorAll('#analysis caption')).map(c => c.textContent)})");
  const nativeAn = cli(['copy', copyExpr, '--src', 'gmem:(128,64):(64,1)', '--dst', 'smem:(128,64):(64,1)', '--analyze']).stdout;
  check('--analyze: the CLI\'s text and its JSON as tables', an.text === nativeAn && an.tables >= 2 && an.caption.some((c) => /instructions/.test(c)), JSON.stringify(an.caption));
  if (args.shots) writeFileSync(join(args.shots, 'site_analyze.png'), await page.screenshot());

  // 7. Downloads: the PNG comes from the browser's canvas.
  const png = await page.evaluate(`(async () => {
    const r = cutevisPage.run(['atom', '${atom}', '--svg']);
    const blob = await cutevisPage.svgToPng(r.out);
    const head = new Uint8Array(await blob.slice(0, 8).arrayBuffer());
    return {size: blob.size, type: blob.type, magic: Array.from(head.slice(1, 4)).map(c => String.fromCharCode(c)).join('')};
  })()`);
  check('PNG through the canvas', png.type === 'image/png' && png.magic === 'PNG' && png.size > 1000, JSON.stringify(png));

  if (args.shots) {
    for (const [name, hash] of [['site_atom', `#cmd=atom&q=${atom}`], ['site_error', '#cmd=eval&q=' + encodeURIComponent(bad)],
                                 ['site_eval', evalHash]]) {
      await page.navigate(pageUrl(hash));
      await page.waitFor('window.cutevisPage && cutevisPage.answers >= 1');
      await sleep(100);
      writeFileSync(join(args.shots, name + '.png'), await page.screenshot());
    }
  }

  // 8. No network: every request of every page was a file, data or blob URL.
  const requests = [...page.requests, ...fresh.requests];
  const net = requests.filter((u) => !/^(file|data|blob|about):/.test(u));
  check('no network request (' + requests.length + ' requests, all file:/data:/blob:)', net.length === 0 && requests.length > 0, JSON.stringify(net));
} catch (e) {
  check('the test ran', false, String(e && e.stack || e) + '\n' + browser.stderr().slice(-1500));
}
clearTimeout(watchdog);
browser.close();
const l = timings.loads;
console.log(JSON.stringify({
  ready_ms: median(l.map((x) => x.ready)), first_answer_ms: median(l.map((x) => x.first)),
  first_answer_engine_ms: median(l.map((x) => x.engine)), navigate_to_first_answer_ms: median(l.map((x) => x.wall_to_first_answer_ms)),
  later_text_ms: timings.later_text_ms, later_text_engine_ms: timings.later_text_engine_ms, later_picture_ms: timings.later_picture_ms, loads: l.length,
}));
process.exit(failed ? 1 : 0);
