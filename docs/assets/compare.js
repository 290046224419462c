/*
 * The compare page: two or more recipes side by side. The choice is in the address
 * (compare/?a=<id>&b=<id>&c=<id>...; the first is the baseline) and the data comes from the
 * catalogue's own JSON export: each chosen recipe's record (api/recipes/<id>.json, the same
 * record as in api/recipes.json), so comparing two recipes loads two records whatever the size of
 * the catalogue. The list of every recipe (api/index.json) is loaded only to choose one: at once
 * while fewer than two are chosen, else when the reader turns to the picker.
 *
 * Shown: the headline figures with their differences from the baseline (which figures, and how
 * each is written, come from the facts registry through assets/facets.js), every field of the
 * recipes (flattened to dotted paths: layout.tp, stack.nccl, env.NCCL_DEBUG, ...) with the ones
 * that differ highlighted, and a line diff of each launch script against the baseline's
 * (unified format, by jsdiff: the site's copy in assets/vendor/, loaded on this page only).
 * Everything from the data is written as text. A record's address is built from the site's root
 * and an id that has the form of a recipe id, never from the page.
 */
(function () {
  "use strict";

  const OR = window.OpenRecipes;
  const h = OR.h;
  const KEYS = "abcdefghijklmnopqrstuvwxyz".split("");
  // jsdiff (npm "diff"): the site's own copy (assets/vendor/, see its README), loaded only on this page.
  const DIFF_JS = OR.siteUrl("assets/vendor/diff.min.js").href;
  // <model>/<gpu>/<name>, each part as the catalogue allows it (loader.py): nothing else is asked for.
  const RECIPE_ID = /^[A-Za-z0-9][A-Za-z0-9._-]*\/[A-Za-z0-9][A-Za-z0-9._-]*\/[A-Za-z0-9][A-Za-z0-9._-]*$/;
  // Kept across pages of one visit: records by address, and the list of recipes.
  const records = new Map(); // address -> promise of a record, or null for no such recipe
  let index = null; // {url, promise} of api/index.json

  OR.onPage((doc, signal) => {
    const root = doc.querySelector("[data-or-compare]");
    if (!root) return;
    const app = new Compare(root, OR.siteRoot.href, signal);
    // Without the diff library the rest of the page still works: the script section says so.
    app.start(OR.loadScript(DIFF_JS, "Diff").catch(() => null));
  });

  function fetchJson(url) {
    return fetch(url, { credentials: "same-origin" }).then((response) => {
      if (response.status === 404) return null;
      if (!response.ok) throw new Error(`${response.status} ${response.statusText}`.trim());
      return response.json();
    });
  }

  /** The record of `id`, or null when the catalogue has no such recipe. */
  function fetchRecord(id) {
    if (!RECIPE_ID.test(id)) return Promise.resolve(null);
    const url = OR.siteUrl(`api/recipes/${id}.json`).href;
    if (!records.has(url)) {
      const promise = fetchJson(url).then((record) => {
        if (record === null) return null;
        if (!record || record.id !== id || !record.fields) throw new Error(`${id}.json holds no record of it`);
        return record;
      });
      promise.catch(() => records.delete(url)); // try again next time
      records.set(url, promise);
    }
    return records.get(url);
  }

  /** Every recipe as {id, title, model}, in the catalogue's order. */
  function fetchIndex() {
    const url = OR.siteUrl("api/index.json").href;
    if (!index || index.url !== url) {
      const mine = {
        url,
        promise: fetchJson(url).then((data) => {
          if (!data || !Array.isArray(data.recipes)) throw new Error("it holds no list of recipes");
          return data.recipes.filter((entry) => entry && typeof entry.id === "string");
        }),
      };
      mine.promise.catch(() => {
        if (index === mine) index = null;
      });
      index = mine;
    }
    return index.promise;
  }

  /* -- figures and differences ----------------------------------------------------------- */

  // "same" when the difference is written as zero (describe.point_change decides alike).
  function pointChange(points, places) {
    const shown = OR.number(Math.abs(points), places);
    if (shown === OR.number(0, places)) return "same";
    return (points > 0 ? "+" : "−") + shown + " pp";
  }

  // "same" only when the prices print the same: below a dollar they print to four figures, so a
  // difference under a cent can be a real one ($0.1143 against $0.1162 is 1.7%).
  function usdChange(value, base) {
    const difference = value - base;
    if (OR.usd(value) === OR.usd(base)) return "same";
    return `${difference > 0 ? "+" : "−"}${OR.usd(Math.abs(difference))} (${OR.relativeChange(value, base)})`;
  }

  const get = (record, path) => path.split(".").reduce((value, key) => (value == null ? undefined : value[key]), record);
  const isNumber = (value) => typeof value === "number" && Number.isFinite(value);

  // $ figures follow the reader's price basis (price.js) once it has loaded; until then, and
  // without it, they are the build's, at the default basis.
  const basis = () => (OR.priceBasis && OR.priceBasis.loaded() ? OR.priceBasis : null);
  const gpuOf = (record) => get(record, "derived.gpu");

  function usdPerMillion(record) {
    const prices = basis();
    if (!prices) return get(record, "derived.usd_per_million_tokens");
    return prices.usdPerMillion(gpuOf(record), get(record, "fields.result.tokens_per_s_per_gpu"));
  }

  /** A cost (a run's, a time to train's): its GPU-hours (at `figure.hours` in the record) at the
   * recipe's own instance when it has one (what it cost there), else at the reader's basis. */
  const cost = (figure) => (record) => {
    const prices = basis();
    if (!prices || get(record, "derived.instance")) return get(record, figure.path);
    const price = prices.usdPerGpuHour(gpuOf(record));
    const hours = get(record, figure.hours);
    return price === null || !isNumber(hours) ? null : hours * price;
  };

  function noPrice(record) {
    const prices = basis();
    return prices ? prices.missing(gpuOf(record)) : OR.NO_PRICE;
  }

  // A figure the recipe does not publish, or one derived from such a figure, is said to be absent.
  const NOT_PUBLISHED = OR.NOT_PUBLISHED;
  const noCost = (figure) => (record) => (isNumber(get(record, figure.hours)) ? "unpriced" : figure.no_hours);

  // The headline figures, as the registry declares them (hooks/openrecipes/site/facts.py, written
  // into assets/facets.js): where each value is in a record, how it is written (the functions
  // fmt.py has too) and how a difference is. Prices are recomputed here at the reader's basis.
  const FORMATS = {
    number: (value, format) => OR.number(value, format.places ?? 0),
    usd: (value, format) => OR.usd(value, format.places ?? undefined),
    percent: (value, format) => OR.percent(value, format.places ?? 1),
    as_written: (value) => OR.asWritten(value),
  };
  const CHANGES = {
    relative: () => OR.relativeChange,
    usd: () => usdChange,
    points: (change) => (value, base) => pointChange((value - base) * change.scale, change.places),
  };
  const RECOMPUTED = {
    price: () => ({ value: usdPerMillion, missing: noPrice }),
    cost: (figure) => ({ value: cost(figure), missing: noCost(figure) }),
  };

  const METRICS = (OR.figures || []).map((figure) => {
    const recomputed = RECOMPUTED[figure.kind] ? RECOMPUTED[figure.kind](figure) : null;
    return {
      label: figure.label,
      value: recomputed ? recomputed.value : (record) => get(record, figure.path),
      format: (value) => FORMATS[figure.format.name](value, figure.format) + (figure.format.suffix || ""),
      // What the value is against ("vs FP8 peak"), written after it; values against different ones
      // get no difference (facts.Fact.qualifier).
      qualifier: (record) => (figure.qualifier ? get(record, figure.qualifier) : null) ?? null,
      missing: recomputed ? recomputed.missing : null,
      delta: CHANGES[figure.change.kind](figure.change),
      better: figure.change.better,
    };
  });

  /** {"layout.tp": 4, "env.NCCL_DEBUG": "WARN", "result.window": "5, 19", ...}; the scripts are diffed apart. */
  const DIFFED_APART = new Set(["run", "launch.command", "launch.checkout"]);
  /** A field as the Fields table shows it: an expert-parallel degree a dense model's recipe leaves
   * out does not apply (facts.DENSE), not "—"; a field absent from the record is not published. */
  function shownField(record, flat, path) {
    if (EXPERT_PATHS.has(path) && get(record, `fields.${path}`) == null && get(record, "derived.dense_model") === true) {
      return OR.DENSE;
    }
    return flat.has(path) ? flat.get(path) : NOT_PUBLISHED;
  }

  const EXPERT_PATHS = new Set(["layout.ep", "layout.etp"]);

  function flatten(value, prefix, out) {
    if (Array.isArray(value)) {
      if (value.every((item) => item === null || typeof item !== "object")) {
        out.set(prefix, value.length ? value.map(show).join(", ") : "none");
      } else {
        value.forEach((item, index) => flatten(item, `${prefix}[${index}]`, out));
        if (!value.length) out.set(prefix, "none");
      }
    } else if (value && typeof value === "object") {
      const entries = Object.entries(value);
      for (const [key, item] of entries) {
        const path = prefix ? `${prefix}.${key}` : key;
        if (DIFFED_APART.has(path)) continue;
        flatten(item, path, out);
      }
      if (!entries.length) out.set(prefix, "none");
    } else {
      out.set(prefix, show(value));
    }
    return out;
  }

  function show(value) {
    if (value === null || value === undefined) return "—";
    if (typeof value === "boolean") return value ? "true" : "false";
    return String(value);
  }

  /* -- launch-script diff ----------------------------------------------------------------- */

  const MAX_EDITS = 1000; // beyond this many changed lines, show the scripts as replaced wholesale

  /**
   * Unified-diff hunks turning script `before` into `after`, with `context` unchanged lines around
   * each change: {hunks: [{header, lines: [{op: " " | "-" | "+", text}]}], added, removed}.
   */
  function scriptDiff(Diff, before, after, context) {
    const a = splitLines(before);
    const b = splitLines(after);
    // Every line ends in a newline, so a missing final newline is no difference and jsdiff adds
    // no "\ No newline at end of file" lines.
    const text = (lines) => lines.map((line) => `${line}\n`).join("");
    const patch = Diff.structuredPatch("", "", text(a), text(b), "", "", { context, maxEditLength: MAX_EDITS });
    const raw = patch
      ? patch.hunks
      : [{ oldStart: 1, oldLines: a.length, newStart: 1, newLines: b.length, lines: [...a.map((l) => `-${l}`), ...b.map((l) => `+${l}`)] }];
    // A side with no lines is numbered by the line before it, 0 at the top, as diff -u does.
    const start = (line, count) => (count ? line : line - 1);
    const hunks = raw.map((hunk) => ({
      header: `@@ -${start(hunk.oldStart, hunk.oldLines)},${hunk.oldLines} +${start(hunk.newStart, hunk.newLines)},${hunk.newLines} @@`,
      lines: hunk.lines.map((line) => ({ op: line[0], text: line.slice(1) })),
    }));
    const count = (op) => hunks.reduce((total, hunk) => total + hunk.lines.filter((line) => line.op === op).length, 0);
    return { hunks, added: count("+"), removed: count("-") };
  }

  function splitLines(text) {
    if (typeof text !== "string" || text === "") return [];
    const lines = text.split("\n");
    if (lines[lines.length - 1] === "") lines.pop();
    return lines;
  }

  /* -- the page ---------------------------------------------------------------------------- */

  class Compare {
    constructor(root, home, signal) {
      this.root = root;
      this.home = home;
      this.signal = signal;
      this.recipes = null; // the list of every recipe, once loaded
      this.Diff = null; // jsdiff, once loaded
      this.library = null;
      this.onlyDifferences = false;
      this.shown = 0; // the latest render asked for: an earlier one finishing late is dropped
      root.querySelectorAll(":scope > :not(noscript)").forEach((element) => element.remove());
      this.status = h("p", { class: "or-note", role: "status", "aria-live": "polite" });
      this.view = h("div", { class: "or-compare__view" });
      root.append(this.status, this.view);
    }

    start(library) {
      this.library = library;
      this.render(OR.params());
      OR.onQueryChange((params) => this.render(params), this.signal);
      // The figures again at the reader's basis, once it is known and whenever it changes.
      const again = () => {
        if (!this.signal.aborted && this.chosen) this.view.querySelector("[data-or-compare-figures]")?.closest("section")?.replaceWith(this.figures(this.chosen));
      };
      if (OR.priceBasis) OR.priceBasis.ready.then(again);
      document.addEventListener("openrecipes:prices", again, { signal: this.signal });
    }

    failed(error) {
      this.status.textContent = "";
      this.view.replaceChildren(
        h(
          "p",
          { class: "or-compare__message or-compare__message--error", "data-or-compare-error": true },
          `The catalogue could not be loaded (${error && error.message ? error.message : "unknown error"}). `,
          "Every recipe's page has the same figures.",
        ),
      );
    }

    /** Load the list of every recipe (once), and show it in the picker. */
    loadRecipes() {
      if (this.recipes || this.loadingRecipes) return;
      this.loadingRecipes = true;
      fetchIndex().then(
        (recipes) => {
          this.loadingRecipes = false;
          if (this.signal.aborted) return;
          this.recipes = recipes;
          if (this.fill) this.fill();
        },
        (error) => {
          this.loadingRecipes = false;
          if (!this.signal.aborted) this.failed(error);
        },
      );
    }

    chosenIds(params) {
      const ids = [];
      for (const key of KEYS) {
        const id = (params.get(key) || "").trim();
        if (id && !ids.includes(id)) ids.push(id);
      }
      return ids;
    }

    choose(ids) {
      const changes = {};
      KEYS.forEach((key, index) => (changes[key] = ids[index] || null));
      OR.setParams(changes, true);
      this.render(OR.params());
    }

    link(record, text) {
      const label = text ?? record.title ?? record.id;
      let url = null;
      try {
        url = new URL(String(record.url), this.home);
      } catch (error) {
        /* no link */
      }
      // Only pages of this site: the JSON is ours, but a link is never a place to run code.
      if (!url || url.origin !== location.origin) return h("span", {}, label);
      return h("a", { href: url.href }, label);
    }

    render(params) {
      const ticket = ++this.shown;
      const ids = this.chosenIds(params);
      this.status.textContent = ids.length ? "Loading the recipes…" : "";
      Promise.all([Promise.all(ids.map(fetchRecord)), ids.length > 1 ? this.library : null]).then(
        ([found, Diff]) => {
          if (this.signal.aborted || ticket !== this.shown) return;
          this.status.textContent = "";
          this.Diff = Diff;
          this.show(ids, found);
        },
        (error) => {
          if (!this.signal.aborted && ticket === this.shown) this.failed(error);
        },
      );
    }

    show(ids, found) {
      const known = ids.filter((id, index) => found[index]);
      const unknown = ids.filter((id, index) => !found[index]);
      const chosen = found.filter(Boolean);
      const parts = [this.picker(known)];
      if (unknown.length) {
        parts.push(
          h(
            "div",
            { class: "or-compare__message", role: "alert", "data-or-compare-unknown": true },
            h(
              "p",
              {},
              `${unknown.length === 1 ? "No recipe has" : "No recipes have"} the id${unknown.length === 1 ? "" : "s"} `,
              unknown.map((id, index) => [index ? ", " : "", h("code", {}, id)]),
              " in this catalogue: it may have been renamed or removed. ",
              h("button", { type: "button", class: "md-button", "data-or-compare-drop": true }, "Drop from the comparison"),
            ),
          ),
        );
      }
      if (chosen.length) parts.push(this.chosenList(chosen, known));
      this.chosen = chosen.length > 1 ? chosen : null;
      if (chosen.length < 2) {
        parts.push(
          h(
            "p",
            { class: "or-compare__hint" },
            chosen.length
              ? "Add at least one more recipe to compare."
              : "Choose two or more recipes to see them side by side.",
          ),
        );
        this.loadRecipes(); // a choice is to be made: the list is needed now
      } else {
        parts.push(this.figures(chosen), this.fields(chosen), this.scripts(chosen));
      }
      this.view.replaceChildren(...parts);
      const drop = this.view.querySelector("[data-or-compare-drop]");
      if (drop) drop.addEventListener("click", () => this.choose(known));
    }

    picker(known) {
      const filter = h("input", {
        type: "search",
        placeholder: "Filter by id, model, GPU…",
        autocomplete: "off",
        "data-or-compare-filter": true,
      });
      const select = h("select", { "data-or-compare-add": true });
      const fill = () => {
        if (!this.recipes) {
          select.replaceChildren(h("option", { value: "" }, "Add a recipe…"));
          return;
        }
        const words = filter.value.toLowerCase().split(/\s+/).filter(Boolean);
        const available = this.recipes.filter((recipe) => {
          if (known.includes(recipe.id)) return false;
          const text = `${recipe.id} ${recipe.title || ""}`.toLowerCase();
          return words.every((word) => text.includes(word));
        });
        const byModel = new Map();
        for (const recipe of available) {
          const model = recipe.model || "other";
          if (!byModel.has(model)) byModel.set(model, []);
          byModel.get(model).push(recipe);
        }
        const options = [h("option", { value: "" }, `Add a recipe (${available.length})…`)];
        for (const [model, recipes] of Array.from(byModel).sort((x, y) => String(x[0]).localeCompare(String(y[0]), "en"))) {
          options.push(
            h(
              "optgroup",
              { label: model },
              recipes.map((recipe) => h("option", { value: recipe.id }, `${recipe.title || recipe.id} — ${recipe.id}`)),
            ),
          );
        }
        select.replaceChildren(...options);
      };
      this.fill = fill;
      fill();
      // With two recipes chosen the list is not loaded until the reader turns to the picker.
      for (const control of [filter, select]) control.addEventListener("focus", () => this.loadRecipes());
      filter.addEventListener("input", fill);
      filter.addEventListener("keydown", (event) => {
        if (event.key !== "Enter" || !this.recipes) return;
        event.preventDefault();
        const first = select.querySelector("option[value]:not([value=''])");
        const typed = filter.value.trim();
        const exact = this.recipes.some((recipe) => recipe.id === typed) && !known.includes(typed);
        const id = exact ? typed : first && select.options.length === 2 ? first.value : null;
        if (id) this.choose([...known, id]);
      });
      select.addEventListener("change", () => {
        if (select.value) this.choose([...known, select.value]);
      });
      return h(
        "div",
        { class: "or-compare__picker" },
        h("label", { class: "or-filter or-filter--search" }, h("span", { class: "or-filter__label" }, "Find"), filter),
        h("label", { class: "or-filter or-compare__add" }, h("span", { class: "or-filter__label" }, "Recipe"), select),
      );
    }

    chosenList(chosen, known) {
      return h(
        "ol",
        { class: "or-compare__chosen", "data-or-compare-chosen": true },
        chosen.map((record, index) => {
          const remove = h("button", { type: "button", class: "or-compare__button", title: `Remove ${record.id}` }, "Remove");
          remove.addEventListener("click", () => this.choose(known.filter((id) => id !== record.id)));
          const baseline = index
            ? h("button", { type: "button", class: "or-compare__button", title: `Compare the others with ${record.id}` }, "Make baseline")
            : h("span", { class: "or-badge" }, "baseline");
          if (index) baseline.addEventListener("click", () => this.choose([record.id, ...known.filter((id) => id !== record.id)]));
          return h("li", { "data-recipe": record.id }, this.link(record), " ", h("code", {}, record.id), " ", baseline, " ", remove);
        }),
      );
    }

    header(chosen, first) {
      return h(
        "thead",
        {},
        h(
          "tr",
          {},
          h("th", { scope: "col" }, first),
          chosen.map((record, index) =>
            h("th", { scope: "col" }, this.link(record), index === 0 ? h("span", { class: "or-compare__base" }, " (baseline)") : null),
          ),
        ),
      );
    }

    /** A recipe's readiness (its record's `readiness`): the label as a badge, why, and what it lists. */
    readiness(record) {
      const readiness = get(record, "readiness");
      if (!readiness || typeof readiness.key !== "string") return h("td", { class: "or-missing" }, NOT_PUBLISHED);
      const items = Array.isArray(readiness.items) ? readiness.items.filter((item) => typeof item === "string") : [];
      return h(
        "td",
        { "data-or-readiness": readiness.key },
        // The key names the badge's colour: a class of ours only when it has the form of one.
        h("span", { class: /^[a-z-]+$/.test(readiness.key) ? `or-badge or-badge--${readiness.key}` : "or-badge" }, show(readiness.label)),
        h("span", { class: "or-compare__why" }, ` ${show(readiness.why)}`),
        items.length ? h("span", { class: "or-compare__why" }, ` ${show(readiness.listed)}: ${items.join("; ")}.`) : null,
      );
    }

    figures(chosen) {
      const base = chosen[0];
      const rows = [
        h("tr", {}, h("th", { scope: "row" }, "GPUs"), chosen.map((r) => h("td", {}, `${get(r, "fields.gpu.count")} × ${get(r, "fields.gpu.type")}`))),
        h("tr", {}, h("th", { scope: "row" }, "Status"), chosen.map((r) => h("td", {}, show(get(r, "fields.status"))))),
        // The training method: recipes of different methods are not like for like (facts.method_of).
        h("tr", { "data-metric": "Method" }, h("th", { scope: "row" }, "Method"), chosen.map((r) => h("td", {}, show(get(r, "derived.method_name"))))),
        // Whether each runs as it stands: the label its page, the tables and the exports give it.
        h("tr", { "data-metric": "Readiness" }, h("th", { scope: "row" }, "Readiness"), chosen.map((r) => this.readiness(r))),
      ];
      for (const metric of METRICS) {
        const baseValue = metric.value(base);
        rows.push(
          h(
            "tr",
            { "data-metric": metric.label },
            h("th", { scope: "row" }, metric.label),
            chosen.map((record, index) => {
              const value = metric.value(record);
              const qualifier = metric.qualifier(record);
              const cell = isNumber(value)
                ? h("td", { class: "or-num" }, metric.format(value), qualifier ? h("span", { class: "or-compare__against" }, ` ${qualifier}`) : "")
                : h("td", { class: "or-num or-missing" }, metric.missing ? metric.missing(record) : NOT_PUBLISHED);
              // A difference only between two figures on one scale: none against an absent one.
              if (index > 0 && isNumber(value) && isNumber(baseValue) && qualifier === metric.qualifier(base)) {
                const delta = metric.delta(value, baseValue);
                let tone = "";
                if (metric.better && delta !== "same" && value !== baseValue) {
                  tone = (value - baseValue) * metric.better > 0 ? "better" : "worse";
                }
                cell.append(" ", h("span", { class: `or-delta${tone ? ` or-delta--${tone}` : ""}`, "data-delta": true }, delta));
              }
              return cell;
            }),
          ),
        );
      }
      return h(
        "section",
        { class: "or-compare__section" },
        h("h2", {}, "Headline figures"),
        h(
          "p",
          { class: "or-note", "data-or-compare-basis": true },
          "Differences are relative to the baseline, the first recipe. Each $ / 1M tokens is at the price basis ",
          "(chosen on the home, model and GPU pages), whatever instance a recipe's author rented; a run cost is ",
          "at the recipe's own instance where it names one, else at the price basis.",
        ),
        h("div", { class: "or-scroll" }, h("table", { "data-or-compare-figures": true }, this.header(chosen, "Figure"), h("tbody", {}, rows))),
      );
    }

    fields(chosen) {
      const flat = chosen.map((record) => flatten(record.fields, "", new Map()));
      const paths = [];
      const seen = new Set();
      for (const map of flat) {
        for (const path of map.keys()) {
          if (!seen.has(path)) {
            seen.add(path);
            paths.push(path);
          }
        }
      }
      let differing = 0;
      const body = h("tbody", {});
      for (const path of paths) {
        const values = flat.map((map, index) => shownField(chosen[index], map, path));
        const differs = values.some((value) => value !== values[0]);
        if (differs) differing += 1;
        body.append(
          h(
            "tr",
            { class: differs ? "or-differs" : null, "data-path": path, "data-differs": differs ? "true" : "false" },
            h("th", { scope: "row" }, h("code", {}, path), differs ? h("span", { class: "or-differs__mark", title: "differs" }, " ≠") : null),
            values.map((value, index) =>
              h("td", { class: differs && index > 0 && value !== values[0] ? "or-differs__value" : null }, value),
            ),
          ),
        );
      }
      const table = h("table", { "data-or-compare-fields": true }, this.header(chosen, "Field"), body);
      const toggle = h("input", { type: "checkbox", "data-or-compare-only-differences": true });
      toggle.checked = this.onlyDifferences;
      table.toggleAttribute("data-only-differences", this.onlyDifferences);
      toggle.addEventListener("change", () => {
        this.onlyDifferences = toggle.checked;
        table.toggleAttribute("data-only-differences", toggle.checked);
      });
      return h(
        "section",
        { class: "or-compare__section" },
        h("h2", {}, "Fields"),
        h(
          "p",
          { class: "or-note", "data-or-compare-summary": true },
          `${differing} of ${paths.length} fields differ (highlighted, marked ≠). `,
          h("label", {}, toggle, " Show only the fields that differ"),
        ),
        h("div", { class: "or-scroll" }, table),
      );
    }

    /** Each recipe's launch (its record's `launches`, launch.py: as run, the publisher's documented
     * launch, or none) as a line diff of the `launch.sh` each downloads, against the baseline's. */
    scripts(chosen) {
      const base = chosen[0];
      const heading = h("h2", {}, "Launches");
      const launchOf = (record) => (get(record, "launches") || [])[0] || { kind: "not-published", files: {} };
      // Each recipe named with its readiness, the one label every page gives it.
      const named = (record) => [h("code", {}, record.id), ` (${show(get(record, "readiness.label") ?? NOT_PUBLISHED)})`];
      const missing = (record) => {
        const launch = launchOf(record);
        return `${record.id} has no launch: ${launch.reason || "not published."}`;
      };
      const sections = chosen.slice(1).map((record) => {
        const title = h("h3", {}, "Launch: ", ...named(record), " against ", ...named(base));
        const before = launchOf(base).files["launch.sh"] ?? null;
        const after = launchOf(record).files["launch.sh"] ?? null;
        if (before === null || after === null) {
          const notes = [base, record].filter((one) => (launchOf(one).files["launch.sh"] ?? null) === null);
          const text = notes.length === 2 ? `Neither recipe has a launch to compare. ${notes.map(missing).join(" ")}` : `${missing(notes[0])} Nothing to compare its launch with.`;
          return h("div", { "data-or-diff": record.id, "data-or-diff-kind": "missing" }, title, h("p", { class: "or-note" }, text));
        }
        if (!this.Diff) {
          return h("div", { "data-or-diff": record.id }, title, h("p", { class: "or-note", "data-or-diff-unavailable": true }, "The line diff could not be loaded; every recipe's page shows its launch."));
        }
        const diff = scriptDiff(this.Diff, before, after, 3);
        if (!diff.hunks.length) {
          return h("div", { "data-or-diff": record.id, "data-or-diff-kind": "identical" }, title, h("p", { class: "or-note" }, "The two launch.sh files are identical."));
        }
        const code = h("code", {});
        code.append(
          h("span", { class: "or-diff__file" }, `--- ${base.id}/launch.sh`),
          h("span", { class: "or-diff__file" }, `+++ ${record.id}/launch.sh`),
        );
        for (const hunk of diff.hunks) {
          code.append(h("span", { class: "or-diff__hunk" }, hunk.header));
          for (const step of hunk.lines) {
            const kind = step.op === "+" ? "add" : step.op === "-" ? "del" : "ctx";
            code.append(h("span", { class: `or-diff__line or-diff__${kind}`, "data-op": step.op }, `${step.op}${step.text}`));
          }
        }
        return h(
          "div",
          { "data-or-diff": record.id, "data-or-diff-kind": "diff" },
          title,
          h("p", { class: "or-note" }, `${diff.added} line${diff.added === 1 ? "" : "s"} added, ${diff.removed} removed (of the launch.sh each recipe's page downloads).`),
          h("pre", { class: "or-diff" }, code),
        );
      });
      return h("section", { class: "or-compare__section" }, heading, sections);
    }
  }

  // For tests and for reuse: the diff on its own, once the library is loaded (OR.loadScript).
  OR.scriptDiff = (before, after, context) => scriptDiff(window.Diff, before, after, context);
  OR.diffLibrary = DIFF_JS;
})();
