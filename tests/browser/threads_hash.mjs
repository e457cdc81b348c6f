// A cutevis --html page opened with hostile #threads= fragments (issue 23.4): for each
// fragment, a fresh page in headless Chromium (tests/browser/cdp.mjs); prints one JSON
// line: for each fragment, whether the page's script threw, how long it took to be ready,
// whether the picture is drawn, how many cells the fragment highlighted, and whether
// a click on a cell of thread 5 is answered (and in how long).
//
//   node threads_hash.mjs CHROMIUM PAGE.html FRAGMENT_FILE...
//
// Each FRAGMENT_FILE holds one fragment ("#threads=..."): a fragment of 2 MB does not
// fit in a command line.  Exit 0 with the JSON line; 1 when the browser could not be driven.
import { readFileSync, writeSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { launch, sleep } from './cdp.mjs';

const [chromium, page, ...fragmentFiles] = process.argv.slice(2);
const browser = await launch(chromium);
const watchdog = setTimeout(() => {
  writeSync(1, JSON.stringify({ error: 'timed out', stderr: browser.stderr().slice(-2000) }) + '\n');
  browser.close();
  process.exit(1);
}, 120000);
const results = [];
try {
  for (const file of fragmentFiles) {
    const fragment = readFileSync(file, 'utf8');
    const p = await browser.page({ width: 1280, height: 900 });
    const r = { fragment_chars: fragment.length };
    const t0 = performance.now();
    await p.navigate(pathToFileURL(page).href + fragment);
    const ready = async () => p.evaluate('!!(window.cutevis && window.cutevis.ready)');
    while (!(await ready()) && performance.now() - t0 < 10000) await sleep(5);
    r.ready = await ready();
    r.ready_ms = performance.now() - t0;
    r.hash_chars = await p.evaluate('location.hash.length');  // the fragment reached the page whole
    r.exceptions = p.exceptions.slice();  // uncaught (a malformed % escape stopped the script here)
    if (r.ready) {
      // the page's own clock: its script's time, and from the start of the navigation to ready
      Object.assign(r, await p.evaluate('({script_ms: window.cutevis.script_ms, load_ms: performance.timing.loadEventEnd - performance.timing.fetchStart})'));
      r.cells = await p.evaluate('window.cutevis.cellCount()');
      r.drawn = await p.evaluate("document.querySelectorAll('rect.k').length");
      r.highlighted = await p.evaluate('window.cutevis.highlighted()');
      const cell = await p.evaluate("window.cutevis.find(/^ 5:/)");
      r.found_thread_5 = !!cell;
      if (cell) {
        const t1 = performance.now();
        await p.click(cell[0], cell[1]);
        r.click_hash = await p.evaluate('location.hash');
        r.click_highlighted = await p.evaluate('window.cutevis.highlighted()');
        r.click_ms = performance.now() - t1;
      }
    }
    results.push(r);
  }
} catch (e) {
  results.push({ error: String(e && e.stack || e), stderr: browser.stderr().slice(-2000) });
}
clearTimeout(watchdog);
writeSync(1, JSON.stringify(results) + '\n');
browser.close();
process.exit(0);
