// Drives a cutevis HTML page in headless Chromium through the DevTools protocol
// (over --remote-debugging-pipe: no port, no network, no npm package) and prints
// one JSON object of what it saw.  Used by tests/renderers/html_browser_test.cpp.
//
//   node drive.mjs CHROMIUM PAGE.html SCREENSHOT.png CLICK_THREAD TYPED
//
// It loads PAGE.html#threads=0,5, counts highlighted cells (class "hl" on cell
// elements, and the page's own count), reads the size of the labels as the page opens
// and presses "fit" (and the label lines drawn on the labels' canvas at both), hovers a
// cell and reads the owner box, clicks a cell of CLICK_THREAD, types TYPED into the
// thread box, switches the colouring to warp, zooms with the wheel, saves a screenshot
// at "fit", then zooms into C's top left (a big page makes elements there), lists every
// cell element (panel, row, column, data-owners, hl), counts the label lines drawn there
// and saves a second screenshot, SCREENSHOT with "_zoom" before ".png".  Times are wall-clock milliseconds in this process; load_ms ends
// when the page says it is ready, painted_ms after the next painted frame.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const [chromium, page, screenshot, clickThread, typed] = process.argv.slice(2);
const profile = mkdtempSync(join(tmpdir(), 'cutevis-chromium-'));
const browser = spawn(chromium, [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
  `--user-data-dir=${profile}`, '--remote-debugging-pipe', 'about:blank',
], { stdio: ['ignore', 'ignore', 'pipe', 'pipe', 'pipe'] });
let stderr = '';
browser.stderr.on('data', (d) => { stderr += d; });

let nextId = 1;
const pending = new Map();
const waiters = [];
let buffer = '';
browser.stdio[4].on('data', (chunk) => {
  buffer += chunk.toString('utf8');
  let end;
  while ((end = buffer.indexOf('\0')) >= 0) {
    const msg = JSON.parse(buffer.slice(0, end));
    buffer = buffer.slice(end + 1);
    if (msg.id && pending.has(msg.id)) {
      const { resolve, reject } = pending.get(msg.id);
      pending.delete(msg.id);
      if (msg.error) reject(new Error(JSON.stringify(msg.error))); else resolve(msg.result);
    } else if (msg.method) {
      for (let i = waiters.length - 1; i >= 0; i--)
        if (waiters[i].method === msg.method) { waiters[i].resolve(msg.params); waiters.splice(i, 1); }
    }
  }
});
function send(method, params = {}, sessionId) {
  const id = nextId++;
  const msg = { id, method, params };
  if (sessionId) msg.sessionId = sessionId;
  browser.stdio[3].write(JSON.stringify(msg) + '\0');
  return new Promise((resolve, reject) => pending.set(id, { resolve, reject }));
}
const event = (method) => new Promise((resolve) => waiters.push({ method, resolve }));
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
// CPU seconds (user + system) of this browser's renderer processes so far: on a busy
// machine, closer to what the page costs than the wall clock.
function rendererCpu() {
  let ticks = 0;
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      if (!cmd.includes('--type=renderer') || !cmd.includes(profile)) continue;
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks += Number(f[11]) + Number(f[12]);  // utime, stime (fields 14, 15)
    } catch {}
  }
  return ticks / 100;  // USER_HZ
}

const timer = setTimeout(() => { writeSync(1, JSON.stringify({ error: 'timeout', stderr }) + '\n'); browser.kill('SIGKILL'); process.exit(2); }, 60000);
const out = {};
try {
  const { targetId } = await send('Target.createTarget', { url: 'about:blank' });
  const { sessionId } = await send('Target.attachToTarget', { targetId, flatten: true });
  const s = (m, p) => send(m, p, sessionId);
  const evaluate = async (expr) => {
    const r = await s('Runtime.evaluate', { expression: expr, returnByValue: true, awaitPromise: true });
    if (r.exceptionDetails) throw new Error(JSON.stringify(r.exceptionDetails));
    return r.result.value;
  };
  await s('Page.enable');
  await s('Runtime.enable');
  await s('Emulation.setDeviceMetricsOverride', { width: 1280, height: 900, deviceScaleFactor: 1, mobile: false });
  const url = pathToFileURL(page).href + (process.env.CUTEVIS_HASH ?? '#threads=0,5');
  const cpu0 = rendererCpu();
  const t0 = performance.now();
  const loaded = event('Page.loadEventFired');
  await s('Page.navigate', { url });
  await loaded;
  while (!(await evaluate('!!(window.cutevis && window.cutevis.ready)'))) await sleep(10);
  out.load_ms = performance.now() - t0;
  await evaluate('new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))');
  out.painted_ms = performance.now() - t0;
  out.load_renderer_cpu_s = rendererCpu() - cpu0;
  out.lazy = await evaluate('window.cutevis.lazy');
  out.hash_hl = await evaluate("document.querySelectorAll('rect.k.hl').length");
  out.hash_hl_model = await evaluate('window.cutevis.highlighted()');
  out.cell_count_model = await evaluate('window.cutevis.cellCount()');
  out.page_timing = await evaluate("(() => { const t = performance.timing; return {parsed: t.domInteractive - t.navigationStart, loaded: t.loadEventEnd - t.navigationStart, script_ms: window.cutevis.script_ms}; })()");
  out.cells = await evaluate("document.querySelectorAll('rect.k').length");
  out.cells_with_owners = await evaluate("Array.prototype.every.call(document.querySelectorAll('rect.k'), c => c.hasAttribute('data-owners'))");
  // The page opens where its labels are readable; "fit" shows it all (the rest runs fitted).
  out.open_label_px = await evaluate('window.cutevis.labelPx()');
  out.open_zoom = await evaluate('window.cutevis.zoom()');
  out.open_labels = await evaluate('window.cutevis.labelsDrawn()');
  await evaluate("document.getElementById('fit').click()");
  out.fit_label_px = await evaluate('window.cutevis.labelPx()');
  // the labels are drawn on the next frame (once per frame while zooming or panning)
  await evaluate('new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))');
  out.fit_labels = await evaluate('window.cutevis.labelsDrawn()');
  out.text_elements = await evaluate("document.querySelectorAll('#picture text').length");

  // Hover a cell: the info box lists its owners.
  // Cells are found in the page's model (a big page has no element for most cells).
  const centre = async (findExpr) => evaluate(`window.cutevis.find(${findExpr})`);
  const first = await centre("/ /, 'C'");
  await s('Input.dispatchMouseEvent', { type: 'mouseMoved', x: first[0], y: first[1] });
  out.hover_text = await evaluate("document.getElementById('info').style.display === 'block' ? document.getElementById('info').textContent : ''");
  // and a cell of A (an MMA's operand in registers names the register)
  const a = await centre("/ 0:5 /, 'A'");
  if (a) {
    await s('Input.dispatchMouseEvent', { type: 'mouseMoved', x: a[0], y: a[1] });
    out.hover_a_text = await evaluate("document.getElementById('info').textContent");
  }

  // Click a cell whose first owner is the thread asked for.
  const target = await centre(`/^ ${clickThread}:/`);
  const cpu1 = rendererCpu();
  const t1 = performance.now();
  await s('Input.dispatchMouseEvent', { type: 'mousePressed', x: target[0], y: target[1], button: 'left', clickCount: 1 });
  await s('Input.dispatchMouseEvent', { type: 'mouseReleased', x: target[0], y: target[1], button: 'left', clickCount: 1 });
  out.click_hl = await evaluate("document.querySelectorAll('rect.k.hl').length");
  out.click_hl_model = await evaluate('window.cutevis.highlighted()');
  out.click_ms = performance.now() - t1;
  out.click_renderer_cpu_s = rendererCpu() - cpu1;
  out.click_hash = await evaluate('location.hash');

  // Type threads into the box and press Enter.
  await evaluate("(() => { const b = document.getElementById('threads'); b.value = ''; b.focus(); })()");
  await s('Input.insertText', { text: typed });
  await s('Input.dispatchKeyEvent', { type: 'keyDown', key: 'Enter', code: 'Enter', windowsVirtualKeyCode: 13 });
  await s('Input.dispatchKeyEvent', { type: 'keyUp', key: 'Enter', code: 'Enter', windowsVirtualKeyCode: 13 });
  out.typed_hl = await evaluate("document.querySelectorAll('rect.k.hl').length");
  out.typed_hl_model = await evaluate('window.cutevis.highlighted()');
  out.typed_hash = await evaluate('location.hash');
  out.count_text = await evaluate("document.getElementById('count').textContent");

  // Colour by warp, then zoom in with the wheel.
  out.fill_before = await evaluate('window.cutevis.panels[0].fill[1]');
  await evaluate("(() => { const s = document.getElementById('colour'); s.value = 'warp'; s.dispatchEvent(new Event('change')); })()");
  out.fill_warp = await evaluate('window.cutevis.panels[0].fill[1]');
  const before = await evaluate("document.getElementById('stage').style.transform");
  await s('Input.dispatchMouseEvent', { type: 'mouseWheel', x: 400, y: 400, deltaX: 0, deltaY: -300 });
  await sleep(50);
  out.zoomed = (await evaluate("document.getElementById('stage').style.transform")) !== before;
  await evaluate("(() => { const s = document.getElementById('colour'); s.value = 'drawn'; s.dispatchEvent(new Event('change')); document.getElementById('fit').click(); })()");
  await sleep(150);
  const shot = await s('Page.captureScreenshot', { format: 'png' });
  writeFileSync(screenshot, Buffer.from(shot.data, 'base64'));

  // Zoomed into C's top left with the typed threads highlighted: every cell element,
  // and the labels drawn for them.
  await evaluate("(() => { const c = window.cutevis.panels.find(p => p.name === 'C') || window.cutevis.panels[0]; window.cutevis.zoomTo(1, c.x0 - 4, c.y0 - 4); })()");
  out.zoom_elements = await evaluate('window.cutevis.elements()');
  out.zoom_labels = await evaluate('window.cutevis.labelsDrawn()');
  out.zoom_hl_outline = await evaluate("Array.prototype.map.call(document.querySelectorAll('path.hlp'), p => (p.getAttribute('d').match(/M/g) || []).length).reduce((a, b) => a + b, 0)");
  await sleep(100);
  const zoomShot = await s('Page.captureScreenshot', { format: 'png' });
  writeFileSync(screenshot.replace(/\.png$/, '') + '_zoom.png', Buffer.from(zoomShot.data, 'base64'));
  out.network_free = await evaluate("performance.getEntriesByType('resource').length === 0");
} catch (e) {
  out.error = String(e && e.stack || e);
  out.stderr = stderr.slice(-2000);
}
clearTimeout(timer);
// Written synchronously: process.exit below would cut a piped console.log at 64 kB.
writeSync(1, JSON.stringify(out) + '\n');
browser.kill('SIGKILL');
try { rmSync(profile, { recursive: true, force: true }); } catch {}
process.exit(0);
