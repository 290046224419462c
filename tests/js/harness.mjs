/*
 * The page scripts (docs/assets/*.js) in Node, without a browser, for the tests in this folder:
 * each page gets a window of its own, with just enough of a browser for the scripts to load and
 * rewrite a few elements (a fake document whose elements are attributes and text), and the
 * scripts run as they are shipped, in the order mkdocs.yml loads them.
 *
 * The scripts are IIFEs that write `window.OpenRecipes`; each is evaluated as the body of a
 * function whose parameters are the page's globals (window, document, location, fetch, ...), so
 * that two pages never share state. Anything a script asks of the fake browser that it does not
 * have throws, and every warning a script logs is kept (`page.warnings`): a test asserts there is
 * none, so a script that stops working here fails rather than passes by doing nothing.
 */

import { readFileSync } from "node:fs";

const ASSETS = new URL("../../docs/assets/", import.meta.url);
const VECTORS = new URL("../vectors/", import.meta.url);
/** Where the fake site is served from (only ever compared, never fetched). */
export const SITE = "https://openrecipes.test/site/";

/** tests/vectors/<name>.json, made by tests/vectors/make.py from the Python side. */
export function vectors(name) {
  return JSON.parse(readFileSync(new URL(`${name}.json`, VECTORS), "utf8"));
}

/**
 * Cases on which `got(...arguments)` differs from the expected value (the last item of each case),
 * as [arguments, expected, got]: a test asserts the list is empty, so a failure names every case.
 */
export function disagreements(cases, got) {
  const wrong = [];
  for (const item of cases) {
    const args = item.slice(0, -1);
    const expected = item[item.length - 1];
    let value;
    try {
      value = got(...args);
    } catch (error) {
      value = `threw ${error}`;
    }
    if (!Object.is(value, expected) && JSON.stringify(value) !== JSON.stringify(expected)) {
      wrong.push([args, expected, value]);
    }
  }
  return wrong;
}

/* -- a fake document ------------------------------------------------------------------------- */

const SIMPLE = /^(?:\[[a-z][a-z0-9-]*\]|\.[A-Za-z0-9_-]+)+$/;

/** A text node. */
export class FakeText {
  constructor(text) {
    this.textContent = String(text);
  }
}

/** An element: a tag, attributes in order, children (elements and text). Selectors: attribute names and classes only. */
export class FakeElement {
  constructor(attributes = {}, children = [], tag = "div") {
    this.tag = tag;
    this.attributes = new Map(Object.entries(attributes).map(([name, value]) => [name, String(value)]));
    this.children = children;
    this.hidden = false;
    this.classList = {
      toggle: (name, on) => {
        const classes = new Set((this.getAttribute("class") || "").split(/\s+/).filter(Boolean));
        if (on === undefined ? !classes.has(name) : on) classes.add(name);
        else classes.delete(name);
        if (classes.size || this.hasAttribute("class")) this.setAttribute("class", Array.from(classes).join(" "));
      },
      contains: (name) => (this.getAttribute("class") || "").split(/\s+/).includes(name),
    };
  }

  get textContent() {
    return this.children.map((child) => child.textContent).join("");
  }

  set textContent(text) {
    this.children = text === "" ? [] : [new FakeText(text)];
  }

  /** A row's cells. */
  get cells() {
    return this.children.filter((child) => child instanceof FakeElement && child.tag === "td");
  }

  appendChild(child) {
    this.children.push(child);
    return child;
  }

  getAttribute(name) {
    return this.attributes.has(name) ? this.attributes.get(name) : null;
  }

  hasAttribute(name) {
    return this.attributes.has(name);
  }

  setAttribute(name, value) {
    this.attributes.set(name, String(value));
  }

  removeAttribute(name) {
    this.attributes.delete(name);
  }

  /** As the DOM spells an HTML element's tag: "TD". */
  get tagName() {
    return this.tag.toUpperCase();
  }

  matches(selector) {
    if (!SIMPLE.test(selector)) throw new Error(`the fake document knows no selector ${selector}`);
    const parts = selector.match(/\[[^\]]+\]|\.[^.[]+/g);
    return parts.every((part) =>
      part.startsWith("[") ? this.hasAttribute(part.slice(1, -1)) : this.classList.contains(part.slice(1)),
    );
  }

  *descendants() {
    for (const child of this.children) {
      if (!(child instanceof FakeElement)) continue;
      yield child;
      yield* child.descendants();
    }
  }

  querySelectorAll(selector) {
    return Array.from(this.descendants()).filter((element) => element.matches(selector));
  }

  querySelector(selector) {
    return this.querySelectorAll(selector)[0] || null;
  }
}

/** A node as [tag, {attribute: value}, [children]], text as a string: what tests compare. */
export function tree(node) {
  if (node instanceof FakeText) return node.textContent;
  return [node.tag, Object.fromEntries(node.attributes), node.children.map(tree)];
}

class FakeEvent {
  constructor(type, init = {}) {
    this.type = type;
    this.detail = init.detail;
  }
}

function fakeDocument(body) {
  const listeners = new Map();
  return {
    readyState: "complete",
    currentScript: { src: `${SITE}assets/core.js` },
    body,
    addEventListener(type, listener) {
      if (!listeners.has(type)) listeners.set(type, []);
      listeners.get(type).push(listener);
    },
    removeEventListener() {},
    dispatchEvent(event) {
      for (const listener of listeners.get(event.type) || []) listener(event);
      return true;
    },
    querySelectorAll: (selector) => body.querySelectorAll(selector),
    querySelector: (selector) => body.querySelector(selector),
    createElement: (tag) => new FakeElement({}, [], tag),
    createTextNode: (text) => new FakeText(text),
  };
}

/* -- a page ------------------------------------------------------------------------------------- */

/**
 * A page at `SITE` + `query` (pairs, as URLSearchParams takes them) holding `elements`, with
 * `scripts` run in order: file names under docs/assets/, file: URLs (a built site's generated
 * assets/facets.js), or functions of the window (what such a generated script would set). `prices`: what assets/prices.json holds.
 * Resolves once the scripts have started on the page (core.js starts them after a turn of the
 * event loop) and, with price.js, once its presets are loaded.
 */
export async function openPage(scripts, { query = [], elements = [], prices = null } = {}) {
  const search = new URLSearchParams(query).toString();
  let href = `${SITE}${search ? `?${search}` : ""}`;
  const body = new FakeElement({}, elements);
  const document = fakeDocument(body);
  const warnings = [];
  const requests = [];
  const location = {
    get href() {
      return href;
    },
    get origin() {
      return new URL(href).origin;
    },
    get pathname() {
      return new URL(href).pathname;
    },
    get search() {
      return new URL(href).search;
    },
  };
  const history = {
    state: null,
    replaceState(state, title, url) {
      this.state = state;
      if (url !== undefined) href = new URL(url, href).href;
    },
    pushState(state, title, url) {
      this.replaceState(state, title, url);
    },
  };
  const window = { document, location, history, scrollX: 0, scrollY: 0 };
  window.addEventListener = () => {};
  window.removeEventListener = () => {};
  const globals = {
    window,
    document,
    location,
    history,
    fetch: (url) => {
      requests.push(String(url));
      if (String(url) === `${SITE}assets/prices.json` && prices !== null) {
        return Promise.resolve({ ok: true, status: 200, json: () => Promise.resolve(structuredClone(prices)) });
      }
      return Promise.resolve({ ok: false, status: 404, json: () => Promise.reject(new Error("404")) });
    },
    console: { ...console, warn: (...args) => warnings.push(args.map(String).join(" ")) },
    CustomEvent: FakeEvent,
    Node: FakeElement,
    Element: FakeElement,
  };
  const names = Object.keys(globals);
  for (const script of scripts) {
    if (typeof script === "function") {
      script(window);
      continue;
    }
    const url = script instanceof URL ? script : new URL(script, ASSETS);
    const source = readFileSync(url, "utf8");
    new Function(...names, `${source}\n//# sourceURL=${url.href}`)(...names.map((name) => globals[name]));
  }
  const OR = window.OpenRecipes;
  await new Promise((resolve) => setTimeout(resolve, 0)); // core.js's start
  if (OR.priceBasis) await OR.priceBasis.ready;
  await new Promise((resolve) => setTimeout(resolve, 0)); // the pages' own `ready.then`
  return { window, OR, document, elements, warnings, requests, get href() { return href; } };
}
