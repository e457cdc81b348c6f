// A headless Chromium driven over the DevTools protocol through --remote-debugging-pipe:
// no port, no network, no npm package.  Used by tests/browser/site_test.mjs.
//   const b = await launch(chromium);  const page = await b.page();  await page.navigate(url);
//   await page.evaluate('1 + 1');  b.close();
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

export async function launch(chromium) {
  const profile = mkdtempSync(join(tmpdir(), 'cutevis-chromium-'));
  const proc = spawn(chromium, [
    '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync',
    `--user-data-dir=${profile}`, '--remote-debugging-pipe', 'about:blank',
  ], { stdio: ['ignore', 'ignore', 'pipe', 'pipe', 'pipe'] });
  let stderr = '';
  proc.stderr.on('data', (d) => { stderr += d; });
  let nextId = 1, buffer = '';
  const pending = new Map(), listeners = [];
  proc.stdio[4].on('data', (chunk) => {
    buffer += chunk.toString('utf8');
    for (let end; (end = buffer.indexOf('\0')) >= 0;) {
      const msg = JSON.parse(buffer.slice(0, end));
      buffer = buffer.slice(end + 1);
      if (msg.id && pending.has(msg.id)) {
        const { resolve, reject } = pending.get(msg.id);
        pending.delete(msg.id);
        if (msg.error) reject(new Error(JSON.stringify(msg.error))); else resolve(msg.result);
      } else if (msg.method) {
        for (const l of listeners.slice()) if (l.method === msg.method) l.fn(msg.params, msg.sessionId);
      }
    }
  });
  function send(method, params = {}, sessionId) {
    const id = nextId++;
    const msg = { id, method, params };
    if (sessionId) msg.sessionId = sessionId;
    proc.stdio[3].write(JSON.stringify(msg) + '\0');
    return new Promise((resolve, reject) => pending.set(id, { resolve, reject }));
  }
  const on = (method, fn) => listeners.push({ method, fn });
  const once = (method) => new Promise((resolve) => {
    const l = { method, fn: (p) => { listeners.splice(listeners.indexOf(l), 1); resolve(p); } };
    listeners.push(l);
  });

  async function page({ width = 1366, height = 768 } = {}) {
    const { targetId } = await send('Target.createTarget', { url: 'about:blank' });
    const { sessionId } = await send('Target.attachToTarget', { targetId, flatten: true });
    const s = (m, p) => send(m, p, sessionId);
    const requests = [], exceptions = [];
    on('Network.requestWillBeSent', (p, sid) => { if (sid === sessionId) requests.push(p.request.url); });
    on('Runtime.exceptionThrown', (p, sid) => {  // the page's uncaught errors
      if (sid === sessionId) exceptions.push(p.exceptionDetails.exception?.description || p.exceptionDetails.text);
    });
    await s('Page.enable');
    await s('Runtime.enable');
    await s('Network.enable');
    await s('Emulation.setDeviceMetricsOverride', { width, height, deviceScaleFactor: 1, mobile: false });
    const evaluate = async (expression) => {
      const r = await s('Runtime.evaluate', { expression, returnByValue: true, awaitPromise: true });
      if (r.exceptionDetails) throw new Error(JSON.stringify(r.exceptionDetails));
      return r.result.value;
    };
    return {
      send: s, evaluate, requests, exceptions,
      async navigate(url) {  // always a fresh document: via about:blank (a new #fragment alone would not reload)
        const blank = once('Page.loadEventFired');
        await s('Page.navigate', { url: 'about:blank' });
        await blank;
        const loaded = once('Page.loadEventFired');
        await s('Page.navigate', { url });
        await loaded;
      },
      async waitFor(expression, timeoutMs = 20000) {
        const t0 = Date.now();
        while (!(await evaluate(expression))) {
          if (Date.now() - t0 > timeoutMs) throw new Error('timed out waiting for ' + expression);
          await sleep(5);
        }
      },
      async screenshot() {  // a tab behind another one is not drawn: the capture would wait for it
        await s('Page.bringToFront');
        return Buffer.from((await s('Page.captureScreenshot', { format: 'png' })).data, 'base64');
      },
      async click(x, y) {
        await s('Input.dispatchMouseEvent', { type: 'mousePressed', x, y, button: 'left', clickCount: 1 });
        await s('Input.dispatchMouseEvent', { type: 'mouseReleased', x, y, button: 'left', clickCount: 1 });
      },
    };
  }
  return {
    page, stderr: () => stderr,
    close() { proc.kill('SIGKILL'); try { rmSync(profile, { recursive: true, force: true }); } catch {} },
  };
}
