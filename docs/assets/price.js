/*
 * Your own GPU price (home, model, GPU and recipe pages): type a $ per GPU-hour or pick a listed
 * instance, and every $ / 1M tokens figure and run cost the page marks (the tables' column, a
 * recipe's headline figures) is recomputed, saying which price it uses; the charts keep the
 * published prices. Clearing it brings the published figures back. The choice is kept in the
 * address (?price=3.99, plus &instance=<name> when picked from the list) and remembered in this
 * browser, to offer again on other pages; the published figures stay the default.
 *
 *   $ / 1M tokens = $ per GPU-hour ÷ (tokens/s per GPU × 3,600) × 1,000,000
 *   run cost      = GPU-hours × $ per GPU-hour
 *
 * Contract: [data-or-price] (with data-instances: [{name, gpu, usd_per_gpu_hour, as_of}], and
 * data-gpu on a recipe page) is where the controls go; [data-usd-per-mtok][data-tokens-per-s]
 * [data-published] show $ / 1M (table cells also carry the data-value the table sorts by);
 * [data-run-cost][data-gpu-hours][data-published] show a run's cost; [data-price-source] says
 * which price a recipe page uses.
 */
(function () {
  "use strict";

  const OR = window.OpenRecipes;
  const h = OR.h;
  const STORE = "openrecipes.price";
  const published = new WeakMap(); // element -> what the build wrote: {text, title, value}

  OR.onPage((doc, signal) => {
    const boxes = Array.from(doc.querySelectorAll("[data-or-price]"));
    if (boxes.length) new Calculator(doc, boxes, signal);
  });

  function instancesOf(box) {
    try {
      const list = JSON.parse(box.getAttribute("data-instances") || "[]");
      return Array.isArray(list)
        ? list.filter(
            (item) =>
              item &&
              typeof item.name === "string" &&
              typeof item.usd_per_gpu_hour === "number" &&
              Number.isFinite(item.usd_per_gpu_hour) &&
              item.usd_per_gpu_hour > 0,
          )
        : [];
    } catch (error) {
      return [];
    }
  }

  /** $ / 1M tokens at `price` $ per GPU-hour. */
  function usdPerMillion(price, tokensPerSecondPerGpu) {
    return (price / (tokensPerSecondPerGpu * 3600)) * 1e6;
  }

  /** "3.99", "$3.99", "3,99", "3.99/h" -> 3.99; anything else -> NaN. */
  function parsePrice(text) {
    const trimmed = String(text)
      .trim()
      .replace(/^\$\s*/, "")
      .replace(/\s*(\/|per)\s*(gpu)?[\s-]*h(ou)?r?$/i, "");
    if (!/^(\d+([.,]\d*)?|[.,]\d+)$/.test(trimmed)) return NaN;
    return Number(trimmed.replace(",", "."));
  }

  function remember(element, attribute) {
    if (!published.has(element)) {
      published.set(element, {
        text: element.textContent,
        title: element.getAttribute("title"),
        value: attribute ? element.getAttribute(attribute) : null,
      });
    }
    return published.get(element);
  }

  function restore(element) {
    const saved = published.get(element);
    if (!saved) return;
    element.textContent = saved.text;
    if (saved.title === null) element.removeAttribute("title");
    else element.setAttribute("title", saved.title);
    if (element.hasAttribute("data-value")) element.setAttribute("data-value", saved.value ?? "");
    element.classList.remove("or-custom-price");
  }

  class Calculator {
    constructor(doc, boxes, signal) {
      const byName = new Map();
      for (const box of boxes) for (const item of instancesOf(box)) byName.set(item.name, item);
      this.instances = Array.from(byName.values());
      this.gpus = new Set(boxes.map((box) => box.getAttribute("data-gpu")).filter(Boolean));
      if (!this.gpus.size) {
        // A GPU page: its table's recipes all run on one GPU type, so suggest its instances.
        const rowGpus = new Set(Array.from(doc.querySelectorAll("tr[data-gpu]"), (row) => row.getAttribute("data-gpu")));
        if (rowGpus.size === 1) this.gpus = rowGpus;
      }
      this.figures = Array.from(doc.querySelectorAll("[data-usd-per-mtok]"));
      this.costs = Array.from(doc.querySelectorAll("[data-run-cost]"));
      // "Other recipes" deltas: at one price for both, $/1M differs exactly as 1 / tokens/s does.
      this.deltas = Array.from(doc.querySelectorAll("[data-usd-delta]"));
      this.sources = Array.from(doc.querySelectorAll("[data-price-source]"));
      this.charts = doc.querySelector(".or-chart") !== null;
      for (const element of this.figures) remember(element, "data-value");
      for (const element of [...this.costs, ...this.sources, ...this.deltas]) remember(element, null);

      this.choice = null; // null (published) or {price, instance, text}
      this.invalid = null; // text typed that is not a price
      this.views = boxes.map((box) => this.render(box));
      this.fromParams(OR.params());
      OR.onQueryChange((params) => this.fromParams(params), signal);
    }

    /* -- the controls ----------------------------------------------------------------------- */

    render(box) {
      const input = h("input", {
        type: "text",
        inputmode: "decimal",
        autocomplete: "off",
        spellcheck: "false",
        placeholder: "e.g. 3.99",
        "data-or-price-input": true,
      });
      const select = h("select", { "data-or-price-instance": true }, this.options());
      const reset = h("button", { type: "button", class: "md-button", "data-or-price-reset": true }, "Published prices");
      const recall = h("button", { type: "button", class: "md-button", "data-or-price-recall": true, hidden: true });
      const status = h("p", { class: "or-price__status", role: "status", "aria-live": "polite", "data-or-price-status": true });
      box.replaceChildren(
        h("p", { class: "or-price__title" }, "Your GPU price"),
        h(
          "div",
          { class: "or-price__controls" },
          h("label", { class: "or-price__field" }, h("span", {}, "$ per GPU-hour"), input),
          h("label", { class: "or-price__field" }, h("span", {}, "or a listed instance"), select),
          h("span", { class: "or-price__buttons" }, reset, recall),
        ),
        status,
        h(
          "p",
          { class: "or-price__formula" },
          "$ / 1M tokens = $ per GPU-hour ÷ (tokens/s per GPU × 3,600) × 1,000,000; run cost = GPU-hours × $ per GPU-hour.",
        ),
      );
      const view = { box, input, select, reset, recall, status };
      // One history entry per typed price: the first keystroke adds it, the next ones update it.
      let typing = false;
      input.addEventListener("input", () => {
        this.typed(input.value, view, !typing);
        typing = true;
      });
      input.addEventListener("change", () => (typing = false));
      select.addEventListener("change", () => {
        const instance = this.instances.find((item) => item.name === select.value);
        this.invalid = null;
        this.set(instance ? { price: instance.usd_per_gpu_hour, instance, text: null } : null, true);
      });
      reset.addEventListener("click", () => {
        this.invalid = null;
        this.set(null, true);
      });
      recall.addEventListener("click", () => {
        const last = this.lastChoice();
        if (last) this.set(last, true);
      });
      return view;
    }

    options() {
      const groups = new Map();
      for (const item of this.instances) {
        const gpu = item.gpu || "other";
        if (!groups.has(gpu)) groups.set(gpu, []);
        groups.get(gpu).push(item);
      }
      const names = Array.from(groups.keys()).sort((a, b) => {
        const suggested = Number(this.gpus.has(b)) - Number(this.gpus.has(a));
        return suggested || a.localeCompare(b, "en", { numeric: true });
      });
      const options = [h("option", { value: "" }, "—")];
      for (const gpu of names) {
        const items = groups.get(gpu).sort((a, b) => a.usd_per_gpu_hour - b.usd_per_gpu_hour);
        const label = this.gpus.has(gpu) ? `${gpu} (the GPU of these recipes)` : gpu;
        options.push(
          h(
            "optgroup",
            { label },
            items.map((item) =>
              h(
                "option",
                { value: item.name },
                `${item.name}: ${OR.money(item.usd_per_gpu_hour)} per GPU-hour${item.as_of ? ` (${item.as_of})` : ""}`,
              ),
            ),
          ),
        );
      }
      return options;
    }

    /* -- state ----------------------------------------------------------------------------- */

    typed(text, view, push) {
      const price = parsePrice(text);
      if (text.trim() === "") {
        this.invalid = null;
        this.set(null, push, view);
      } else if (!(price > 0) || !Number.isFinite(price)) {
        this.invalid = text.trim();
        this.set(null, push, view);
      } else {
        this.invalid = null;
        this.set({ price, instance: null, text }, push, view);
      }
    }

    fromParams(params) {
      const price = parsePrice(params.get("price") || "");
      const instance = this.instances.find((item) => item.name === params.get("instance"));
      this.invalid = null;
      if (instance && (!(price > 0) || Math.abs(price - instance.usd_per_gpu_hour) < 1e-9)) {
        this.set({ price: instance.usd_per_gpu_hour, instance, text: null }, null);
      } else if (price > 0 && Number.isFinite(price)) {
        this.set({ price, instance: null, text: null }, null);
      } else {
        this.set(null, null);
      }
    }

    /** Use `choice`; `push`: true/false writes the address (new entry or not), null leaves it. */
    set(choice, push, typingIn) {
      this.choice = choice;
      for (const view of this.views) {
        if (view !== typingIn) {
          view.input.value = choice ? (choice.text ?? OR.plain(choice.price)) : "";
        }
        view.input.setAttribute("aria-invalid", this.invalid ? "true" : "false");
        view.select.value = choice && choice.instance ? choice.instance.name : "";
      }
      this.apply();
      if (choice) OR.storage.set(STORE, { price: choice.price, instance: choice.instance ? choice.instance.name : null });
      this.showStatus();
      if (push !== null) this.write(push);
    }

    write(push) {
      const choice = this.choice;
      OR.setParams(
        {
          price: choice ? OR.plain(choice.price) : null,
          instance: choice && choice.instance ? choice.instance.name : null,
        },
        push,
      );
    }

    lastChoice() {
      const last = OR.storage.get(STORE);
      if (!last || typeof last.price !== "number" || !(last.price > 0)) return null;
      const instance = this.instances.find((item) => item.name === last.instance);
      return instance
        ? { price: instance.usd_per_gpu_hour, instance, text: null }
        : { price: last.price, instance: null, text: null };
    }

    /* -- the figures -------------------------------------------------------------------- */

    label() {
      const choice = this.choice;
      if (!choice) return "";
      const price = `${OR.money(choice.price)} per GPU-hour`;
      if (!choice.instance) return `your price, ${price}`;
      return `${choice.instance.name} (${choice.instance.gpu}), ${price}`;
    }

    apply() {
      const price = this.choice ? this.choice.price : null;
      const note = this.choice ? `At ${this.label()}` : "";
      for (const element of this.figures) {
        const saved = published.get(element);
        const perGpu = Number(element.getAttribute("data-tokens-per-s"));
        if (price === null || !(perGpu > 0)) {
          restore(element);
          continue;
        }
        const value = usdPerMillion(price, perGpu);
        element.textContent = OR.usd(value);
        if (element.hasAttribute("data-value")) element.setAttribute("data-value", String(value));
        element.setAttribute("title", `${note}; published: ${saved.text.trim()}`);
        element.classList.add("or-custom-price");
      }
      for (const element of this.costs) {
        const saved = published.get(element);
        const hours = Number(element.getAttribute("data-gpu-hours"));
        if (price === null || !(hours >= 0) || element.getAttribute("data-gpu-hours") === "") {
          restore(element);
          continue;
        }
        element.textContent = OR.usd(hours * price);
        element.setAttribute("title", `${note}; published: ${saved.text.trim()}`);
        element.classList.add("or-custom-price");
      }
      for (const element of this.deltas) {
        const other = Number(element.getAttribute("data-tokens-per-s"));
        const base = Number(element.getAttribute("data-base-tokens-per-s"));
        if (price === null || !(other > 0) || !(base > 0)) {
          restore(element);
          continue;
        }
        // As the page's published delta: the relative change of the two $ / 1M figures.
        element.textContent = `(${OR.relativeChange(usdPerMillion(price, other), usdPerMillion(price, base))})`;
        element.classList.add("or-custom-price");
      }
      for (const element of this.sources) {
        if (price === null) restore(element);
        else {
          element.textContent = this.label();
          element.classList.add("or-custom-price");
        }
      }
      document.dispatchEvent(new CustomEvent("openrecipes:prices", { detail: { price } }));
    }

    showStatus() {
      const choice = this.choice;
      let text;
      if (this.invalid) {
        text = `“${this.invalid}” is not a price: type dollars per GPU-hour, like 3.99. Showing the published figures.`;
      } else if (!choice) {
        text =
          "Showing the published figures: each recipe at its own instance's on-demand price (GPUs without a " +
          "public price have none). Type a $ per GPU-hour or pick an instance to recompute them.";
      } else {
        const what = this.costs.length ? "$ / 1M tokens and run cost" : "$ / 1M tokens";
        text = `Every ${what} figure underlined with dots is recomputed at ${this.label()}`;
        if (choice.instance && choice.instance.as_of) text += `, listed ${choice.instance.as_of}`;
        text += ".";
        if (choice.instance && this.gpus.size && !this.gpus.has(choice.instance.gpu)) {
          text += ` That is a price for ${choice.instance.gpu} GPUs; these recipes ran on ${Array.from(this.gpus).join(", ")}.`;
        }
        if (this.charts) text += " The charts keep the published prices.";
      }
      const last = this.lastChoice();
      for (const view of this.views) {
        view.status.textContent = text;
        view.box.classList.toggle("or-price--custom", Boolean(choice));
        view.reset.hidden = !choice && !this.invalid;
        const offer = !choice && last;
        view.recall.hidden = !offer;
        if (offer) view.recall.textContent = `Use my last price (${OR.money(last.price)})`;
      }
    }
  }
})();
