/*
 * The price basis: one $ per GPU-hour per GPU type, at which every $ / 1M tokens on the site is
 * computed and ranked. A preset (the cheapest sourced on-demand price for each type, the cheapest
 * at a hyperscaler, the cheapest at a neocloud) gives each type its price, and the reader may type
 * their own for any type. The presets come from assets/prices.json, which the build writes from
 * reference/instances.yaml (hooks/openrecipes/checking/pricebasis.py), loaded from the site's own root:
 * no price is read from the page. (JSON, not a script: a pull request that changes only the
 * reference data changes it, and a preview may bring data but never code of its own.) Until it
 * has loaded, the page shows what the build wrote: the default basis.
 *
 *   $ / 1M tokens = $ per GPU-hour ÷ (tokens/s per GPU × 3,600) × 1,000,000
 *
 * The basis lives in the address (?basis=neocloud&H100=2.5: a preset other than the default, and
 * a price per GPU type named by its key) and in this browser's storage, so it follows the reader
 * from page to page; a page opened without it in its address takes the stored one and writes it
 * into its address, so the address can be shared.
 *
 * For the other scripts, window.OpenRecipes.priceBasis:
 *   ready                            -> a promise, resolved once the presets are loaded (or failed)
 *   loaded()                         -> whether they are; until then the functions below know no price
 *   usdPerGpuHour(gpuKey)            -> number | null (null: no price for that type in the basis)
 *   label(gpuKey)                    -> "Nebius H100, $3.85 per GPU-hour (cheapest sourced)"
 *   usdPerMillion(gpuKey, tokensPerS) -> number | null
 *   missing(gpuKey)                  -> what stands in for a $ / 1M without a price
 *   state()                          -> {preset, own: {gpuKey: price}}
 *   isDefault()                      -> whether it is the basis the build computed the pages at
 * and `document` receives the event `openrecipes:prices` (detail: the state) after every change,
 * and on every page once its figures are at the basis.
 *
 * What this script recomputes in a page: [data-usd-per-mtok][data-gpu][data-tokens-per-s] (table
 * cells also get the data-value they sort by), [data-usd-lowest] (of its [data-usd-per-mtok]
 * children, only the lowest shown), [data-usd-delta] (against data-base-gpu and
 * data-base-tokens-per-s), [data-run-cost][data-gpu][data-gpu-hours] and [data-price-source]
 * [data-gpu]. [data-or-basis] is where the controls go.
 */
(function () {
  "use strict";

  const OR = window.OpenRecipes;
  const h = OR.h;
  const STORE = "openrecipes.basis";
  const PRICES = "assets/prices.json";
  let DATA = { default: "cheapest", gpus: [], presets: [] };
  let PRESETS = new Map();
  let GPUS = new Set();
  let loaded = false;
  const collator = new Intl.Collator("en", { numeric: true, sensitivity: "base" });

  let state = { preset: DATA.default, own: {} };

  /* -- the state --------------------------------------------------------------------------- */

  /** "3.99", "$3.99", "3,99", "3.99/h" -> 3.99; anything else (or not above 0) -> NaN. */
  function parsePrice(text) {
    const trimmed = String(text)
      .trim()
      .replace(/^\$\s*/, "")
      .replace(/\s*(\/|per)\s*(gpu)?[\s-]*h(ou)?r?$/i, "");
    if (!/^(\d+([.,]\d*)?|[.,]\d+)$/.test(trimmed)) return NaN;
    const price = Number(trimmed.replace(",", "."));
    return price > 0 && Number.isFinite(price) && price < 100000 ? price : NaN;
  }

  /** A state from untrusted input (the address, storage): unknown presets and types dropped. */
  function clean(preset, own) {
    const result = { preset: PRESETS.has(preset) ? preset : DATA.default, own: {} };
    for (const [gpu, value] of Object.entries(own || {})) {
      const price = typeof value === "number" ? value : parsePrice(value);
      if (GPUS.has(gpu) && price > 0 && Number.isFinite(price)) result.own[gpu] = price;
    }
    return result;
  }

  /** The basis the address names, or null when it names none. */
  function fromParams(params) {
    let named = params.has("basis");
    const own = {};
    for (const gpu of GPUS) {
      if (params.has(gpu)) {
        named = true;
        own[gpu] = params.get(gpu);
      }
    }
    return named ? clean(params.get("basis"), own) : null;
  }

  function fromStorage() {
    const stored = OR.storage.get(STORE);
    return stored && typeof stored === "object" ? clean(stored.preset, stored.own) : null;
  }

  function isDefault(candidate = state) {
    return candidate.preset === DATA.default && Object.keys(candidate.own).length === 0;
  }

  function same(a, b) {
    return JSON.stringify(a) === JSON.stringify(b);
  }

  /** The address's parameters for `candidate` (null removes one). */
  function params(candidate) {
    const changes = { basis: candidate.preset === DATA.default ? null : candidate.preset };
    for (const gpu of GPUS) changes[gpu] = gpu in candidate.own ? OR.plain(candidate.own[gpu]) : null;
    return changes;
  }

  /* -- the API ----------------------------------------------------------------------------- */

  function preset() {
    return PRESETS.get(state.preset) || { key: state.preset, label: state.preset, prices: {} };
  }

  function usdPerGpuHour(gpu) {
    if (gpu in state.own) return state.own[gpu];
    const price = preset().prices[gpu];
    return price ? price.usd_per_gpu_hour : null;
  }

  function usdPerMillion(gpu, tokensPerSecond) {
    const price = usdPerGpuHour(gpu);
    return price === null || !(tokensPerSecond > 0) ? null : (price / (tokensPerSecond * 3600)) * 1e6;
  }

  function label(gpu) {
    if (gpu in state.own) return `your price for ${gpu}, ${OR.usd(state.own[gpu])} per GPU-hour`;
    const price = preset().prices[gpu];
    if (!price) return `no ${gpu} price in the ${preset().label.toLowerCase()} basis`;
    return `${price.instance}, ${OR.usd(price.usd_per_gpu_hour)} per GPU-hour (${preset().label.toLowerCase()})`;
  }

  /** Whose price a figure for `gpu` is at: the basis's provider, "your price", or null (no price). */
  function provider(gpu) {
    if (gpu in state.own) return "your price";
    const price = preset().prices[gpu];
    return price ? price.provider : null;
  }

  function missing(gpu) {
    if (state.preset === DATA.default && !(gpu in state.own)) return OR.NO_PRICE; // what the build writes at the default basis
    return `no ${state.preset} price`;
  }

  /**
   * A $ / 1M cell without a price, as catalogue_table.md.j2 writes it: what stands in for the
   * figure and a button to type a price for the GPU type (the click is handled below). Never a
   * number, so it never ranks among the priced rows.
   */
  function showMissing(element, gpu) {
    element.textContent = `${missing(gpu)} — `;
    element.appendChild(h("button", { type: "button", class: "or-enter-price", "data-or-enter-price": gpu }, "enter yours"));
  }

  /** The page's own-price field for `gpu`, opened and focused; false when the page has none. */
  function enterPrice(gpu) {
    for (const own of document.querySelectorAll("[data-or-basis-own]")) {
      const input = Array.from(own.querySelectorAll("[data-or-basis-gpu]")).find(
        (field) => field.getAttribute("data-or-basis-gpu") === gpu,
      );
      if (!input) continue;
      own.open = true;
      input.scrollIntoView({ block: "center" });
      input.focus();
      return true;
    }
    return false;
  }

  document.addEventListener("click", (event) => {
    const button = event.target instanceof Element ? event.target.closest("[data-or-enter-price]") : null;
    if (button && enterPrice(button.getAttribute("data-or-enter-price"))) event.preventDefault();
  });

  /** The presets, once per visit (instant navigation keeps them). */
  const ready = fetch(OR.siteUrl(PRICES).href, { credentials: "same-origin" })
    .then((response) => {
      if (!response.ok) throw new Error(`${PRICES}: ${response.status}`);
      return response.json();
    })
    .then((data) => {
      if (!data || !Array.isArray(data.presets) || !Array.isArray(data.gpus)) throw new Error(`${PRICES}: no presets`);
      DATA = data;
      PRESETS = new Map(data.presets.map((item) => [item.key, item]));
      GPUS = new Set(data.gpus);
      loaded = true;
      state = current().basis;
    })
    .catch((error) => console.warn("OpenRecipes: the price basis cannot be changed:", error));

  OR.priceBasis = {
    ready,
    loaded: () => loaded,
    usdPerGpuHour,
    usdPerMillion,
    label,
    provider,
    missing,
    showMissing,
    state: () => ({ preset: state.preset, own: { ...state.own } }),
    isDefault: () => isDefault(),
    presets: () => DATA.presets.map(({ key, label }) => ({ key, label })),
  };

  /* -- a page ------------------------------------------------------------------------------ */

  /** The basis for the page shown: the address first (a shared link), then this reader's last. */
  function current() {
    const named = fromParams(OR.params());
    return { named: named !== null, basis: named || fromStorage() || clean(DATA.default, {}) };
  }

  OR.onPage((doc, signal) => {
    ready.then(() => {
      if (signal.aborted || !loaded) return;
      const boxes = Array.from(doc.querySelectorAll("[data-or-basis]"));
      const priced = boxes.length > 0 || doc.querySelector("[data-usd-per-mtok]") !== null;
      const { named, basis } = current();
      if (!priced) {
        state = basis; // nothing to recompute, and the address stays as it is
        return;
      }
      const page = new Page(doc, boxes);
      page.set(basis, named ? null : false);
      OR.onQueryChange((changed) => page.set(fromParams(changed) || clean(DATA.default, {}), null), signal);
    });
  });

  class Page {
    constructor(doc, boxes) {
      this.doc = doc;
      const keys = new Set();
      for (const element of doc.querySelectorAll("[data-gpu]")) {
        const gpu = element.getAttribute("data-gpu");
        if (GPUS.has(gpu)) keys.add(gpu);
      }
      this.gpus = Array.from(keys).sort(collator.compare);
      this.invalid = new Set(); // types whose typed text is not a price
      this.views = boxes.map((box) => this.render(box));
    }

    render(box) {
      const select = h(
        "select",
        { "data-or-basis-preset": true },
        DATA.presets.map((item) => h("option", { value: item.key }, item.label)),
      );
      select.addEventListener("change", () => this.set({ preset: select.value, own: state.own }, true));
      const reset = h("button", { type: "button", class: "md-button", "data-or-basis-reset": true }, "Default basis");
      reset.addEventListener("click", () => this.set(clean(DATA.default, {}), true));
      const status = h("p", { class: "or-basis__status", role: "status", "aria-live": "polite", "data-or-basis-status": true });
      const unpriced = h("p", { class: "or-basis__unpriced", "data-or-basis-unpriced": true, hidden: true });
      const inputs = new Map();
      const fields = this.gpus.map((gpu) => {
        const input = h("input", {
          type: "text",
          inputmode: "decimal",
          autocomplete: "off",
          spellcheck: "false",
          "data-or-basis-gpu": gpu,
          "aria-label": `Your $ per GPU-hour for ${gpu}`,
        });
        inputs.set(gpu, input);
        // One history entry per typed price: the first keystroke that changes the basis adds it,
        // the next ones update it, until the field is left.
        let typing = false;
        input.addEventListener("input", () => {
          if (this.typed(gpu, input.value, !typing)) typing = true;
        });
        input.addEventListener("change", () => (typing = false));
        return h("label", { class: "or-basis__gpu" }, h("span", { class: "or-basis__gpu-name" }, gpu), input);
      });
      const own = h(
        "details",
        { class: "or-basis__own", "data-or-basis-own": true },
        h("summary", {}, "Your own $ per GPU-hour"),
        h("p", { class: "or-basis__hint" }, "A price typed for a GPU type replaces the preset's for that type."),
        h("div", { class: "or-basis__gpus" }, fields),
      );
      box.replaceChildren(
        h(
          "div",
          { class: "or-basis__controls" },
          h("label", { class: "or-basis__field" }, h("span", {}, "Price basis"), select),
          reset,
        ),
        status,
        unpriced,
        fields.length ? own : null,
      );
      return { box, select, reset, status, unpriced, inputs, own, labels: new Map(fields.map((f, i) => [this.gpus[i], f])) };
    }

    typed(gpu, text, push) {
      const own = { ...state.own };
      const price = parsePrice(text);
      this.invalid.delete(gpu);
      if (text.trim() === "") delete own[gpu];
      else if (Number.isNaN(price)) this.invalid.add(gpu);
      else own[gpu] = price;
      return this.set({ preset: state.preset, own }, push, gpu);
    }

    /**
     * Use `next`; `push`: true/false writes the address (a new history entry or not), null
     * leaves it. `typingIn`: the GPU type whose field the reader is typing in (left as typed).
     * Returns whether the basis changed.
     */
    set(next, push, typingIn) {
      const changed = !same(next, state);
      state = clean(next.preset, next.own);
      OR.storage.set(STORE, isDefault() ? null : state);
      for (const view of this.views) {
        view.select.value = state.preset;
        for (const [gpu, input] of view.inputs) {
          if (gpu !== typingIn) input.value = gpu in state.own ? OR.plain(state.own[gpu]) : "";
          input.setAttribute("aria-invalid", this.invalid.has(gpu) ? "true" : "false");
          const price = preset().prices[gpu];
          input.placeholder = price ? OR.plain(price.usd_per_gpu_hour) : "no price";
          view.labels.get(gpu).classList.toggle("or-basis__gpu--unpriced", usdPerGpuHour(gpu) === null);
        }
        // GPU types this page shows without a price: their recipes are not ranked by cost until
        // the reader types one, which the box says ("enter yours" opens the fields).
        const unpriced = this.gpus.filter((gpu) => usdPerGpuHour(gpu) === null);
        view.unpriced.hidden = unpriced.length === 0;
        view.unpriced.textContent = unpriced.length
          ? `No ${state.preset === DATA.default ? "public" : preset().label.toLowerCase()} price for ${unpriced.join(", ")}: ` +
            `${unpriced.length === 1 ? "its" : "their"} recipes are not ranked by cost (they come after the priced ones, ` +
            "whichever way the table is sorted). Type your own $ per GPU-hour below to price and rank them."
          : "";
        if (Object.keys(state.own).length) view.own.open = true;
      }
      this.apply();
      this.showStatus();
      document.dispatchEvent(new CustomEvent("openrecipes:prices", { detail: { ...OR.priceBasis.state(), changed } }));
      // Last: the address keeps the scroll position, which the browser can only tell once the
      // page is laid out again; done before the tables re-rank, it would lay the page out twice.
      if (push !== null) OR.setParams(params(state), push);
      return changed;
    }

    /* -- the figures ----------------------------------------------------------------------- */

    apply() {
      const custom = !isDefault();
      const doc = this.doc;
      for (const element of doc.querySelectorAll("[data-usd-per-mtok][data-gpu]")) {
        const gpu = element.getAttribute("data-gpu");
        const value = usdPerMillion(gpu, Number(element.getAttribute("data-tokens-per-s")));
        // A catalogue table's cell (the one kind with data-key) offers to type a price, as the build
        // writes it; a figure inside a link (the home matrix) cannot hold a button, and its cell
        // has one beside the link.
        if (value === null && element.hasAttribute("data-key")) showMissing(element, gpu);
        else element.textContent = value === null ? missing(gpu) : OR.usd(value);
        if (element.hasAttribute("data-value")) element.setAttribute("data-value", value === null ? "" : String(value));
        element.setAttribute("title", `At ${label(gpu)}`);
        // A table cell names whose price it is at (the provider column says where the run ran).
        if (element.tagName === "TD") {
          if (provider(gpu)) element.setAttribute("data-price-provider", provider(gpu));
          else element.removeAttribute("data-price-provider");
        }
        element.classList.toggle("or-custom-price", custom);
        element.classList.toggle("or-unpriced", value === null);
        element.orUsd = value;
      }
      for (const group of doc.querySelectorAll("[data-usd-lowest]")) {
        const options = Array.from(group.querySelectorAll("[data-usd-per-mtok]"));
        const priced = options.filter((option) => option.orUsd !== null && option.orUsd !== undefined);
        const lowest = priced.length ? priced.reduce((a, b) => (b.orUsd < a.orUsd ? b : a)) : options[0];
        for (const option of options) option.hidden = option !== lowest;
      }
      for (const element of doc.querySelectorAll("[data-usd-delta]")) {
        const value = usdPerMillion(element.getAttribute("data-gpu"), Number(element.getAttribute("data-tokens-per-s")));
        const base = usdPerMillion(
          element.getAttribute("data-base-gpu"),
          Number(element.getAttribute("data-base-tokens-per-s")),
        );
        // As the build writes it: the relative change of the two $ / 1M figures.
        element.textContent = value === null || base === null ? "" : `(${OR.relativeChange(value, base)})`;
      }
      for (const element of doc.querySelectorAll("[data-run-cost][data-gpu]")) {
        const price = usdPerGpuHour(element.getAttribute("data-gpu"));
        const hours = Number(element.getAttribute("data-gpu-hours"));
        element.textContent = price === null || !(hours >= 0) ? "unpriced" : OR.usd(hours * price);
        element.classList.toggle("or-custom-price", custom);
      }
      for (const button of doc.querySelectorAll("[data-or-enter-price]")) {
        button.hidden = usdPerGpuHour(button.getAttribute("data-or-enter-price")) !== null;
      }
      for (const element of doc.querySelectorAll("[data-price-source][data-gpu]")) {
        element.textContent = `price basis: ${label(element.getAttribute("data-gpu"))}`;
      }
    }

    showStatus() {
      const invalid = Array.from(this.invalid);
      let text;
      if (invalid.length) {
        text = `What you typed for ${invalid.join(", ")} is not a price: type dollars per GPU-hour, like 2.50.`;
      } else {
        const parts = this.gpus.map((gpu) => {
          const price = usdPerGpuHour(gpu);
          if (price === null) return `${gpu}: no price`;
          const source = gpu in state.own ? "yours" : preset().prices[gpu].instance;
          return `${gpu} ${OR.usd(price)} (${source})`;
        });
        text = `$ / 1M tokens at ${preset().label.toLowerCase()} prices per GPU-hour`;
        text += parts.length ? `: ${parts.join(" · ")}.` : ".";
      }
      for (const view of this.views) {
        view.status.textContent = text;
        view.box.classList.toggle("or-basis--custom", !isDefault());
        view.reset.hidden = isDefault() && !invalid.length;
      }
    }
  }
})();
