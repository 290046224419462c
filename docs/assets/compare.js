/*
 * The compare page: two or more recipes side by side. The choice is in the address
 * (compare/?a=<id>&b=<id>&c=<id>...; the first is the baseline) and the data comes from the
 * catalogue's own JSON export (api/recipes.json on this site, the same records as the CLI).
 *
 * Shown: the headline figures with their differences from the baseline, every field of the
 * recipes (flattened to dotted paths: layout.tp, stack.nccl, env.NCCL_DEBUG, ...) with the ones
 * that differ highlighted, and a line diff of each launch script against the baseline's
 * (Myers' algorithm, unified format). Everything from the data is written as text.
 */
(function () {
  "use strict";

  const OR = window.OpenRecipes;
  const h = OR.h;
  const KEYS = "abcdefghijklmnopqrstuvwxyz".split("");
  let catalogue = null; // {url, promise} of the JSON export, kept across pages

  OR.onPage((doc, signal) => {
    const root = doc.querySelector("[data-or-compare]");
    if (!root) return;
    const api = OR.siteUrl("api/recipes.json").href;
    const home = OR.siteRoot.href;
    const app = new Compare(root, home, signal);
    if (!catalogue || catalogue.url !== api) catalogue = { url: api, promise: fetchCatalogue(api) };
    const mine = catalogue;
    app.loading();
    mine.promise.then(
      (records) => !signal.aborted && app.ready(records),
      (error) => {
        if (catalogue === mine) catalogue = null; // try again next time
        if (!signal.aborted) app.failed(error);
      },
    );
  });

  function fetchCatalogue(url) {
    return fetch(url, { credentials: "same-origin" })
      .then((response) => {
        if (!response.ok) throw new Error(`${response.status} ${response.statusText}`.trim());
        return response.json();
      })
      .then((data) => {
        if (!data || !Array.isArray(data.recipes)) throw new Error("it holds no list of recipes");
        return data.recipes.filter((record) => record && typeof record.id === "string" && record.fields);
      });
  }

  /* -- figures and differences ----------------------------------------------------------- */

  function pointChange(points, places) {
    if (Math.round(points * 10 ** places) === 0) return "same";
    return (points > 0 ? "+" : "−") + OR.number(Math.abs(points), places) + " pp";
  }

  function usdChange(value, base) {
    const difference = value - base;
    if (Math.round(difference * 100) === 0) return "same";
    return `${difference > 0 ? "+" : "−"}${OR.usd(Math.abs(difference))} (${OR.relativeChange(value, base)})`;
  }

  const get = (record, path) => path.split(".").reduce((value, key) => (value == null ? undefined : value[key]), record);
  const isNumber = (value) => typeof value === "number" && Number.isFinite(value);

  const METRICS = [
    {
      label: "Tokens/s per GPU",
      path: "fields.result.tokens_per_s_per_gpu",
      format: (v) => OR.number(v, 1),
      delta: OR.relativeChange,
      better: 1,
    },
    {
      label: "$ / 1M tokens",
      path: "fields.result.usd_per_million_tokens",
      format: (v) => OR.usd(v),
      missing: "no public price",
      delta: usdChange,
      better: -1,
    },
    {
      label: "MFU",
      path: "fields.result.mfu",
      format: (v) => OR.percent(v),
      delta: (v, b) => pointChange((v - b) * 100, 1),
      better: 1,
    },
    {
      label: "Step-time CV",
      path: "fields.result.step_time_cv_percent",
      format: (v) => `${OR.asWritten(v)}%`,
      delta: (v, b) => pointChange(v - b, 2),
      better: -1,
    },
    { label: "GPU-hours", path: "fields.result.gpu_hours", format: (v) => OR.asWritten(v), delta: OR.relativeChange },
    {
      label: "Run cost",
      path: "derived.run_cost_usd",
      format: (v) => OR.usd(v),
      missing: "unpriced",
      delta: usdChange,
    },
  ];

  /** {"layout.tp": 4, "env.NCCL_DEBUG": "WARN", "result.window": "5, 19", ...}; `run` is diffed apart. */
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
        if (path === "run") continue;
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

  /* -- line diff (Myers, "An O(ND) difference algorithm and its variations", 1986) ------- */

  const MAX_EDITS = 1000; // beyond this many changed lines, show the scripts as replaced wholesale

  /** [{op: " " | "-" | "+", text, a, b}] turning lines `a` into lines `b` (a, b: 1-based line numbers). */
  function diffLines(a, b) {
    let start = 0;
    while (start < a.length && start < b.length && a[start] === b[start]) start += 1;
    let endA = a.length;
    let endB = b.length;
    while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
      endA -= 1;
      endB -= 1;
    }
    const middle = editScript(a.slice(start, endA), b.slice(start, endB));
    const ops = [];
    for (let i = 0; i < start; i += 1) ops.push({ op: " ", text: a[i], a: i + 1, b: i + 1 });
    for (const step of middle) {
      ops.push({
        op: step.op,
        text: step.op === "+" ? b[start + step.j] : a[start + step.i],
        a: step.op === "+" ? null : start + step.i + 1,
        b: step.op === "-" ? null : start + step.j + 1,
      });
    }
    for (let i = endA, j = endB; i < a.length; i += 1, j += 1) ops.push({ op: " ", text: a[i], a: i + 1, b: j + 1 });
    return ops;
  }

  /** The shortest edit script from `a` to `b`: [{op, i, j}] with 0-based indexes into a and b. */
  function editScript(a, b) {
    const n = a.length;
    const m = b.length;
    const max = Math.min(n + m, MAX_EDITS);
    const offset = max + 1;
    const v = new Int32Array(2 * max + 3);
    const trace = [];
    let found = -1;
    for (let d = 0; d <= max && found < 0; d += 1) {
      trace.push(v.slice(offset - d - 1, offset + d + 2)); // v before round d, for k in -d-1..d+1
      for (let k = -d; k <= d; k += 2) {
        let x = k === -d || (k !== d && v[offset + k - 1] < v[offset + k + 1]) ? v[offset + k + 1] : v[offset + k - 1] + 1;
        let y = x - k;
        while (x < n && y < m && a[x] === b[y]) {
          x += 1;
          y += 1;
        }
        v[offset + k] = x;
        if (x >= n && y >= m) {
          found = d;
          break;
        }
      }
    }
    if (found < 0) {
      return [...a.map((_, i) => ({ op: "-", i, j: 0 })), ...b.map((_, j) => ({ op: "+", i: n, j }))];
    }
    const steps = [];
    let x = n;
    let y = m;
    for (let d = found; d >= 0; d -= 1) {
      const saved = trace[d];
      const at = (k) => saved[k + d + 1];
      const k = x - y;
      const previousK = k === -d || (k !== d && at(k - 1) < at(k + 1)) ? k + 1 : k - 1;
      const previousX = d === 0 ? 0 : at(previousK);
      const previousY = d === 0 ? 0 : previousX - previousK;
      while (x > previousX && y > previousY) {
        x -= 1;
        y -= 1;
        steps.push({ op: " ", i: x, j: y });
      }
      if (d > 0) {
        if (x === previousX) steps.push({ op: "+", i: x, j: y - 1 });
        else steps.push({ op: "-", i: x - 1, j: y });
      }
      x = previousX;
      y = previousY;
    }
    return steps.reverse();
  }

  /** Unified-diff hunks of `ops` with `context` unchanged lines around each change. */
  function hunks(ops, context) {
    const changed = [];
    ops.forEach((step, index) => step.op !== " " && changed.push(index));
    const out = [];
    let i = 0;
    while (i < changed.length) {
      let last = changed[i];
      let j = i + 1;
      while (j < changed.length && changed[j] - last <= 2 * context + 1) {
        last = changed[j];
        j += 1;
      }
      const from = Math.max(0, changed[i] - context);
      const to = Math.min(ops.length, last + context + 1);
      const lines = ops.slice(from, to);
      const aLines = lines.filter((step) => step.op !== "+");
      const bLines = lines.filter((step) => step.op !== "-");
      const before = (key) => {
        for (let k = from - 1; k >= 0; k -= 1) if (ops[k][key] !== null) return ops[k][key];
        return 0;
      };
      const aStart = aLines.length ? aLines[0].a : before("a");
      const bStart = bLines.length ? bLines[0].b : before("b");
      out.push({ header: `@@ -${aStart},${aLines.length} +${bStart},${bLines.length} @@`, lines });
      i = j;
    }
    return out;
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
      this.records = [];
      this.byId = new Map();
      this.onlyDifferences = false;
      root.querySelectorAll(":scope > :not(noscript)").forEach((element) => element.remove());
      this.status = h("p", { class: "or-note", role: "status", "aria-live": "polite" });
      this.view = h("div", { class: "or-compare__view" });
      root.append(this.status, this.view);
    }

    loading() {
      this.status.textContent = "Loading the catalogue…";
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

    ready(records) {
      this.records = records;
      this.byId = new Map(records.map((record) => [record.id, record]));
      this.status.textContent = "";
      this.render(OR.params());
      OR.onQueryChange((params) => this.render(params), this.signal);
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
      const ids = this.chosenIds(params);
      const known = ids.filter((id) => this.byId.has(id));
      const unknown = ids.filter((id) => !this.byId.has(id));
      const chosen = known.map((id) => this.byId.get(id));
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
              ` in this catalogue of ${this.records.length} recipe${this.records.length === 1 ? "" : "s"}: `,
              "it may have been renamed or removed. ",
              h("button", { type: "button", class: "md-button", "data-or-compare-drop": true }, "Drop from the comparison"),
            ),
          ),
        );
      }
      if (chosen.length) parts.push(this.chosenList(chosen, known));
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
        const words = filter.value.toLowerCase().split(/\s+/).filter(Boolean);
        const available = this.records.filter((record) => {
          if (known.includes(record.id)) return false;
          const text = `${record.id} ${record.title || ""}`.toLowerCase();
          return words.every((word) => text.includes(word));
        });
        const byModel = new Map();
        for (const record of available) {
          const model = (record.fields && record.fields.model) || "other";
          if (!byModel.has(model)) byModel.set(model, []);
          byModel.get(model).push(record);
        }
        const options = [h("option", { value: "" }, `Add a recipe (${available.length})…`)];
        for (const [model, records] of Array.from(byModel).sort((x, y) => x[0].localeCompare(y[0], "en"))) {
          options.push(
            h(
              "optgroup",
              { label: model },
              records.map((record) => h("option", { value: record.id }, `${record.title || record.id} — ${record.id}`)),
            ),
          );
        }
        select.replaceChildren(...options);
      };
      fill();
      filter.addEventListener("input", fill);
      filter.addEventListener("keydown", (event) => {
        if (event.key !== "Enter") return;
        event.preventDefault();
        const first = select.querySelector("option[value]:not([value=''])");
        const exact = this.byId.has(filter.value.trim()) && !known.includes(filter.value.trim());
        const id = exact ? filter.value.trim() : first && select.options.length === 2 ? first.value : null;
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

    figures(chosen) {
      const base = chosen[0];
      const rows = [
        h("tr", {}, h("th", { scope: "row" }, "GPUs"), chosen.map((r) => h("td", {}, `${get(r, "fields.gpu.count")} × ${get(r, "fields.gpu.type")}`))),
        h("tr", {}, h("th", { scope: "row" }, "Status"), chosen.map((r) => h("td", {}, show(get(r, "fields.status"))))),
      ];
      for (const metric of METRICS) {
        const baseValue = get(base, metric.path);
        rows.push(
          h(
            "tr",
            { "data-metric": metric.label },
            h("th", { scope: "row" }, metric.label),
            chosen.map((record, index) => {
              const value = get(record, metric.path);
              const cell = h("td", { class: "or-num" }, isNumber(value) ? metric.format(value) : metric.missing || "—");
              if (index > 0) {
                let delta = "–";
                let tone = "";
                if (isNumber(value) && isNumber(baseValue)) {
                  delta = metric.delta(value, baseValue);
                  if (metric.better && delta !== "same" && value !== baseValue) {
                    tone = (value - baseValue) * metric.better > 0 ? "better" : "worse";
                  }
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
        h("p", { class: "or-note" }, "Differences are relative to the baseline, the first recipe."),
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
        const values = flat.map((map) => (map.has(path) ? map.get(path) : "—"));
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

    scripts(chosen) {
      const base = chosen[0];
      const baseLines = splitLines(get(base, "fields.run"));
      const sections = chosen.slice(1).map((record) => {
        const ops = diffLines(baseLines, splitLines(get(record, "fields.run")));
        const added = ops.filter((step) => step.op === "+").length;
        const removed = ops.filter((step) => step.op === "-").length;
        const title = h("h3", {}, "Launch script: ", h("code", {}, record.id), " against ", h("code", {}, base.id));
        if (!added && !removed) {
          return h("div", { "data-or-diff": record.id }, title, h("p", { class: "or-note" }, "The launch scripts are identical."));
        }
        const code = h("code", {});
        code.append(
          h("span", { class: "or-diff__file" }, `--- ${base.id}`),
          h("span", { class: "or-diff__file" }, `+++ ${record.id}`),
        );
        for (const hunk of hunks(ops, 3)) {
          code.append(h("span", { class: "or-diff__hunk" }, hunk.header));
          for (const step of hunk.lines) {
            const kind = step.op === "+" ? "add" : step.op === "-" ? "del" : "ctx";
            code.append(h("span", { class: `or-diff__line or-diff__${kind}`, "data-op": step.op }, `${step.op}${step.text}`));
          }
        }
        return h(
          "div",
          { "data-or-diff": record.id },
          title,
          h("p", { class: "or-note" }, `${added} line${added === 1 ? "" : "s"} added, ${removed} removed.`),
          h("pre", { class: "or-diff" }, code),
        );
      });
      return h("section", { class: "or-compare__section" }, h("h2", {}, "Launch scripts"), sections);
    }
  }

  // For tests and for reuse: the diff on its own.
  OR.diffLines = diffLines;
  OR.diffHunks = hunks;
})();
