/*
 * OpenRecipes page scripts: the shared part (loaded first; table.js, price.js, charts.js and
 * compare.js build on it). Plain JavaScript, no build step, nothing loaded from other hosts.
 *
 * Material's instant navigation swaps the page content without reloading, and announces every
 * page (the first one too) on its `document$` observable. A script registers what to do on a page
 * with `OpenRecipes.onPage(init)`; `init(document, signal)` runs on every page shown, and `signal`
 * aborts when the next page replaces this one: listeners on `window` or `document` are added with
 * `{ signal }` so none outlives its page.
 *
 * State that a reader should be able to share (filters, sorting, a price, the recipes compared)
 * lives in the address's query. Changing only the query pushes a history entry; going back or
 * forward to one is announced to the page's scripts through `OpenRecipes.onQueryChange`.
 * (Material's instant navigation also listens to popstate, and fetches the page again the first
 * time after a full load, as it has not seen its path yet; the page then starts again from the
 * address, at the scroll position kept in the entry.)
 */
(function () {
  "use strict";

  const OR = (window.OpenRecipes = window.OpenRecipes || {});

  /** What pages say where a value is missing, spelt as facts.py spells it (a test holds them equal). */
  OR.NOT_PUBLISHED = "not published";
  OR.NO_PRICE = "no public price";
  OR.DENSE = "does not apply (dense model)"; // an expert-parallel degree of a dense model

  /**
   * The site's root address, from where this script was loaded (it is assets/core.js). Every
   * address a script loads data or code from is built on it, never read from the page: content
   * holds no address a script trusts.
   */
  OR.siteRoot = new URL("../", document.currentScript ? document.currentScript.src : location.href);

  /** `path` (relative to the site's root) as an absolute address on this site. */
  OR.siteUrl = function (path) {
    const url = new URL(path, OR.siteRoot);
    if (url.origin !== OR.siteRoot.origin || !url.pathname.startsWith(OR.siteRoot.pathname)) {
      throw new Error(`not an address of this site: ${path}`);
    }
    return url;
  };
  const initialisers = [];
  const queryListeners = new Set();
  let controller = null;
  let shown = null; // the address of the page as last shown or set by a script
  let loadedSearch = ""; // the query the page was shown with

  function run(init, signal) {
    try {
      init(document, signal);
    } catch (error) {
      // A broken part must not take the rest of the page down; not an error for the reader.
      console.warn("OpenRecipes:", error);
    }
  }

  function showPage() {
    if (controller) controller.abort();
    controller = new AbortController();
    shown = new URL(location.href);
    loadedSearch = shown.search;
    for (const init of initialisers) run(init, controller.signal);
  }

  /** Run `init(document, signal)` on every page, the current one included. */
  OR.onPage = function (init) {
    initialisers.push(init);
    if (controller) run(init, controller.signal);
  };

  /** Call `listener(URLSearchParams)` when back/forward changes only this page's query. */
  OR.onQueryChange = function (listener, signal) {
    queryListeners.add(listener);
    signal.addEventListener("abort", () => queryListeners.delete(listener), { once: true });
  };

  /** The current query. */
  OR.params = function () {
    return new URL(location.href).searchParams;
  };

  /**
   * Write `changes` ({name: value}; null, undefined or "" removes the name) into the address.
   * `push` adds a history entry (a deliberate choice); otherwise the current one is replaced
   * (typing). Other names, their order and the fragment are kept.
   */
  OR.setParams = function (changes, push) {
    const url = new URL(location.href);
    for (const [name, value] of Object.entries(changes)) {
      if (value === null || value === undefined || value === "") url.searchParams.delete(name);
      else url.searchParams.set(name, String(value));
    }
    // An empty query leaves a bare "?" behind: drop it.
    const href = url.searchParams.toString() ? url.href : url.href.replace(/\?(?=#|$)/, "");
    if (href === location.href) return;
    if (push) {
      // Scroll offsets in Material's format, so that going back restores the position.
      const offset = { x: window.scrollX, y: window.scrollY };
      history.replaceState(offset, "");
      history.pushState(offset, "", href);
    } else {
      history.replaceState(history.state, "", href);
    }
    shown = new URL(location.href);
  };

  // Back/forward between entries of this page that differ in their query, or a link to this
  // page with another query (which Material's instant navigation follows without reloading):
  // the page is already here, so its scripts only read the address again. (Another page:
  // Material shows it, and every script starts again on document$.)
  function queryChanged() {
    if (!shown) return;
    const next = new URL(location.href);
    if (next.pathname !== shown.pathname || next.search === shown.search) return;
    shown = next;
    for (const listener of Array.from(queryListeners)) {
      try {
        listener(next.searchParams);
      } catch (error) {
        console.warn("OpenRecipes:", error);
      }
    }
  }
  window.addEventListener("popstate", queryChanged);

  // Material makes every link absolute when a page loads, so a link to a heading of this page
  // carries the query the page was loaded with: following it would drop the filters chosen
  // since. Before Material sees the click, point such links at the current query.
  document.addEventListener(
    "click",
    (event) => {
      const link = event.target instanceof Element ? event.target.closest("a[href]") : null;
      if (!link || !shown || !link.hash) return;
      const url = new URL(link.href);
      if (url.origin !== location.origin || url.pathname !== location.pathname) return;
      if (url.search !== loadedSearch || url.search === location.search) return;
      url.search = location.search;
      link.href = url.href;
    },
    { capture: true },
  );

  /* ---------------------------------------------------------------------------------------- */
  /* Numbers, formatted exactly as the site's Python side formats them (hooks/openrecipes/fmt.py):
     from the shortest decimal text of the value, rounded half up, with thousands separators. */

  /** The shortest decimal text that reads back as `value` (like Python's repr), never with an exponent. */
  function plain(value) {
    const text = String(value);
    const match = /^(-?)(\d+)(?:\.(\d+))?e([+-]\d+)$/i.exec(text);
    if (!match) return text;
    const [, sign, whole, fraction = "", exponent] = match;
    const digits = whole + fraction;
    const point = whole.length + Number(exponent);
    if (point <= 0) return `${sign}0.${"0".repeat(-point)}${digits}`;
    if (point >= digits.length) return sign + digits + "0".repeat(point - digits.length);
    return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`;
  }

  function increment(digits) {
    const out = digits.split("");
    let i = out.length - 1;
    while (i >= 0) {
      if (out[i] === "9") {
        out[i] = "0";
        i -= 1;
      } else {
        out[i] = String(Number(out[i]) + 1);
        return out.join("");
      }
    }
    return "1" + out.join("");
  }

  function group(whole) {
    return whole.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  }

  /**
   * `value` × 10^shift with `places` decimals, rounded half up on its decimal text:
   * fixed(1194.3, 1) "1,194.3"; fixed(0.125, 2) "0.13"; fixed(0.1857, 1, 2) "18.6".
   */
  function fixed(value, places, shift) {
    let text = plain(value);
    const negative = text.startsWith("-");
    if (negative) text = text.slice(1);
    let [whole, fraction = ""] = text.split(".");
    if (shift) {
      fraction = fraction.padEnd(shift, "0");
      whole = (whole + fraction.slice(0, shift)).replace(/^0+(?=\d)/, "");
      fraction = fraction.slice(shift);
    }
    let digits = whole + fraction.padEnd(places, "0").slice(0, places);
    if ((fraction[places] || "0") >= "5") digits = increment(digits);
    const cut = digits.length - places;
    const result = group(digits.slice(0, cut) || "0") + (places > 0 ? "." + digits.slice(cut) : "");
    return negative && /[1-9]/.test(result) ? "-" + result : result;
  }

  OR.plain = plain;
  /** 1194.3 -> "1,194.3" (places 1). */
  OR.number = (value, places = 0) => fixed(value, places, 0);
  /**
   * The decimals a price is shown with (fmt.price_places): to the cent from $1 up, else four
   * significant figures, counted on the rounded value (0.099996 is "0.1000", 0.99996 "1.00").
   */
  function pricePlaces(value) {
    const text = plain(Math.abs(value));
    const [whole, fraction = ""] = text.split(".");
    const leading = fraction.search(/[1-9]/); // zeros between the point and the first figure
    if (/[1-9]/.test(whole) || leading < 0) return 2;
    let places = leading + 4;
    const rounded = fixed(Math.abs(value), places, 0);
    if (!rounded.startsWith("0.")) return 2;
    if (rounded.slice(2).search(/[1-9]/) < leading) places -= 1;
    return places;
  }

  /** A price, as fmt.usd: 1.8402 -> "$1.84", 0.212345 -> "$0.2123"; `places` fixes the decimals. */
  OR.usd = (value, places) => "$" + fixed(value, places === undefined ? pricePlaces(value) : places, 0);
  /** 0.1857 -> "18.6%". */
  OR.percent = (fraction, places = 1) => fixed(fraction, places, 2) + "%";
  /** A number as written, with thousands separators: 25623920640 -> "25,623,920,640". */
  OR.asWritten = function (value) {
    return fixed(value, (plain(value).split(".")[1] || "").length, 0);
  };
  /**
   * How `value` compares with `base`, as describe.relative_change: "+12.3%", "−4.0%", "same"
   * when it rounds to 0.0%, "n/a" against 0.
   */
  OR.relativeChange = function (value, base) {
    if (base === 0) return "n/a";
    const change = (value - base) / base;
    if (Math.abs(change) < 0.0005) return "same";
    return (change > 0 ? "+" : "−") + OR.percent(Math.abs(change));
  };

  /* ---------------------------------------------------------------------------------------- */
  /* Elements. Every text from the data goes in as text (never as markup). */

  /**
   * h("a", {href: url, class: "x"}, "text", child, [more]) -> an element. Attributes with null,
   * undefined or false are left out; true sets an empty attribute; children that are strings or
   * numbers become text nodes.
   */
  OR.h = function (tag, attributes, ...children) {
    const element = document.createElement(tag);
    for (const [name, value] of Object.entries(attributes || {})) {
      if (value === null || value === undefined || value === false) continue;
      element.setAttribute(name, value === true ? "" : String(value));
    }
    OR.append(element, children);
    return element;
  };

  OR.append = function (element, children) {
    for (const child of children) {
      if (child === null || child === undefined || child === false) continue;
      if (Array.isArray(child)) OR.append(element, child);
      else if (child instanceof Node) element.appendChild(child);
      else element.appendChild(document.createTextNode(String(child)));
    }
    return element;
  };

  /* ---------------------------------------------------------------------------------------- */
  /* Libraries a page needs (the site's own copies, nothing from other hosts). */

  const libraries = new Map(); // src -> promise of the global it defines

  /**
   * Load the script at `src` (an address of this site) once, on the pages that need it, and
   * resolve with the global `name` it defines. The page's policy allows scripts by hash only:
   * the script carries the integrity assets/integrity.js (generated) gives for its path. A failed
   * load is tried again the next time it is asked for.
   */
  OR.loadScript = function (src, name) {
    if (window[name]) return Promise.resolve(window[name]);
    if (!libraries.has(src)) {
      const loading = new Promise((resolve, reject) => {
        const path = src.startsWith(OR.siteRoot.href) ? src.slice(OR.siteRoot.href.length) : null;
        const integrity = path !== null && OR.integrity ? OR.integrity[path] : undefined;
        if (!integrity) {
          reject(new Error(`no integrity for ${src}: not a library of this site`));
          return;
        }
        const script = document.createElement("script");
        script.integrity = integrity;
        script.src = src;
        script.async = true;
        script.onload = () => (window[name] ? resolve(window[name]) : reject(new Error(`${src} defines no ${name}`)));
        script.onerror = () => {
          script.remove();
          reject(new Error(`cannot load ${src}`));
        };
        document.head.appendChild(script);
      });
      loading.catch(() => libraries.delete(src));
      libraries.set(src, loading);
    }
    return libraries.get(src);
  };

  /** localStorage that never throws (private windows, disabled storage). */
  OR.storage = {
    get(key) {
      try {
        return JSON.parse(window.localStorage.getItem(key) || "null");
      } catch (error) {
        return null;
      }
    },
    set(key, value) {
      try {
        if (value === null) window.localStorage.removeItem(key);
        else window.localStorage.setItem(key, JSON.stringify(value));
      } catch (error) {
        /* not kept: fine */
      }
    },
  };

  /* ---------------------------------------------------------------------------------------- */
  /* Start: on Material's document$ (every page, instant navigation included), or once. */

  function start() {
    // Material announces each address it navigates to, after it has set it.
    if (window.location$ && typeof window.location$.subscribe === "function") {
      window.location$.subscribe(() => queryChanged());
    }
    if (window.document$ && typeof window.document$.subscribe === "function") {
      window.document$.subscribe(() => showPage());
    } else if (document.readyState === "loading") {
      document.addEventListener("DOMContentLoaded", showPage, { once: true });
    } else {
      showPage();
    }
  }

  // The other scripts register during their own evaluation, right after this one; start once
  // they all have (document$ replays the current page to late subscribers).
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start, { once: true });
  else setTimeout(start, 0);
})();
