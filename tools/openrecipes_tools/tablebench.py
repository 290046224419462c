"""How long the home page's table takes to sort, filter and re-price all its rows, in Chromium.

For `./dev bench`: the built site is served on 127.0.0.1, the home page opened in headless
Chromium (Playwright's Python package and Debian's chromium, as the browser tests use), and each
operation a reader does is timed from the event to the table drawn and laid out, over every row
of the catalogue (the page holds its first rows; table.js loads the others). Without Playwright
or Chromium there is no figure, and the benchmark says so.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from . import chromium

REPEATS = 5

# Runs in the page: each operation as the reader's event, timed until the table is drawn and laid
# out (table.js updates synchronously): the first time (rows drawn from the data for the first
# time, the browser compiling the code) and the median of REPEATS more, in milliseconds.
_TIME = """([repeats]) => {
  const root = document.querySelector('[data-or-catalogue]');
  const layout = () => root.getBoundingClientRect() && document.body.offsetHeight;
  const time = (act) => {
    const times = [];
    for (let i = 0; i <= repeats; i++) {
      const start = performance.now();
      act(i);
      layout();
      times.push(performance.now() - start);
    }
    const later = times.slice(1).sort((a, b) => a - b);
    return {first: times[0], median: later[Math.floor(later.length / 2)]};
  };
  const change = (element, value) => {
    element.value = value;
    element.dispatchEvent(new Event(element.tagName === 'INPUT' ? 'input' : 'change', {bubbles: true}));
  };
  const gpu = root.querySelector('select[data-or-filter="gpu"]');
  const gpus = [...gpu.options].map(o => o.value);
  const search = root.querySelector('[data-or-search]');
  const preset = document.querySelector('[data-or-basis-preset]');
  const presets = preset ? [...preset.options].map(o => o.value) : [];
  const result = {
    rows: Number(root.getAttribute('data-or-total')) || root.querySelectorAll('tbody tr').length,
    sort: time(() => root.querySelector('th[data-key="tokens"] button').click()),
    filter: time(i => change(gpu, gpus[1 + (i % (gpus.length - 1))])),
    search: time(i => change(search, ['llama', 'h100 tp8', 'bench-0', 'zzz', ''][i % 5])),
  };
  change(gpu, '');
  result.reprice = preset ? time(i => change(preset, presets[(i + 1) % presets.length])) : null;
  return result;
}"""


def home_table_ms(site: Path) -> dict[str, Any] | None:
    """A sort, a filter, a search and a price-basis change of the home page's table over every row:
    {operation: {first, median}} in ms, and `rows`; None when Chromium cannot be driven here."""
    if chromium.unavailable():
        return None
    from playwright.sync_api import sync_playwright

    with chromium.serving(site) as url, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium.CHROMIUM, args=chromium.ARGS)
        try:
            page = browser.new_page(viewport={"width": 1440, "height": 900})
            page.goto(url, wait_until="load")
            # Every row is there once the count says no more are loading, and the basis once its
            # controls are drawn.
            page.wait_for_function(
                "() => { const c = document.querySelector('[data-or-count]');"
                " return c && /^\\d+ of \\d+ /.test(c.textContent) && !c.textContent.includes('loading')"
                " && document.querySelector('[data-or-basis-preset]'); }",
                timeout=60_000,
            )
            return page.evaluate(_TIME, [REPEATS])
        finally:
            browser.close()
