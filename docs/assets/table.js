/*
 * The comparison table (home, model and GPU pages): sort by a column, filter by the facts the
 * registry makes filters of (model, GPU, GPU count, status, ...), search the rows' text, and count
 * what is shown.
 * The state lives in the address (?gpu=H200&status=verified&sort=mfu&dir=desc&search=slime),
 * so a view can be shared and survives reload and back/forward.
 *
 * Without JavaScript the table is complete, in its default order; this script only reorders
 * and hides the rows the build wrote. `search` (not `q`) names the text filter: Material opens
 * its own site search for `?q=`.
 *
 * Contract: [data-or-catalogue] holds [data-or-count] and a table whose header cells carry
 * data-key (and data-type="number" on numeric columns), whose rows carry data-recipe and the
 * filter attributes, and whose cells carry data-value ("" = missing: last in either direction).
 */
(function () {
  "use strict";

  const OR = window.OpenRecipes;
  const h = OR.h;

  // The filters, made from the facts registry (hooks/openrecipes/facts.py) into assets/facets.js:
  // each is {name, label, any, numeric, unit}, and every row carries data-<name>.
  const FILTERS = OR.facets || [];
  const SEARCH = "search";
  const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
  const collator = new Intl.Collator("en", { numeric: true, sensitivity: "base" });
  const tables = new WeakMap();

  OR.onPage((doc, signal) => {
    for (const root of doc.querySelectorAll("[data-or-catalogue]")) {
      let table = tables.get(root);
      if (!table) {
        table = new Catalogue(root);
        tables.set(root, table);
      }
      table.attach(signal);
    }
  });

  /** Sort key of a cell: {missing, number?, text}. */
  function cellKey(cell, numeric) {
    const text = cell ? (cell.getAttribute("data-value") ?? "").trim() : "";
    if (text === "") return { missing: true, text };
    if (numeric || NUMBER.test(text)) {
      const number = Number(text);
      if (Number.isFinite(number)) return { missing: false, number, text };
      if (numeric) return { missing: true, text };
    }
    return { missing: false, text };
  }

  function compareKeys(a, b) {
    if (a.number !== undefined && b.number !== undefined) return a.number - b.number;
    return collator.compare(a.text, b.text);
  }

  function plural(count, word) {
    return `${word}${count === 1 ? "" : "s"}`;
  }

  class Catalogue {
    constructor(root) {
      this.root = root;
      this.table = root.querySelector("table");
      this.body = this.table.tBodies[0];
      this.rows = Array.from(this.body.rows).filter((row) => row.hasAttribute("data-recipe"));
      this.defaultIndex = new Map(this.rows.map((row, index) => [row, index]));
      this.headers = Array.from(this.table.tHead ? this.table.tHead.rows[0].cells : []);
      this.columns = new Map();
      this.headers.forEach((th, index) => {
        const key = th.getAttribute("data-key");
        if (key) this.columns.set(key, { index, th, numeric: th.getAttribute("data-type") === "number" });
      });
      // A wide table scrolls sideways inside the page (on a phone, say) instead of widening it.
      if (!this.table.parentElement.classList.contains("or-scroll")) {
        const scroller = h("div", { class: "or-scroll" });
        this.table.before(scroller);
        scroller.appendChild(this.table);
      }
      this.count = root.querySelector("[data-or-count]");
      if (this.count) this.count.setAttribute("aria-live", "polite");
      this.state = { filters: {}, search: "", sort: null, dir: "asc" };
      this.texts = new Map();
      this.buildHeaders();
      this.buildControls();
    }

    /* -- the controls ------------------------------------------------------------------------- */

    buildHeaders() {
      for (const [key, column] of this.columns) {
        const th = column.th;
        const label = th.textContent.trim();
        const button = h("button", { type: "button", class: "or-sort", title: `Sort by ${label}` });
        while (th.firstChild) button.appendChild(th.firstChild);
        button.appendChild(h("span", { class: "or-sort__icon", "aria-hidden": "true" }));
        th.appendChild(button);
        button.addEventListener("click", () => {
          if (this.state.sort === key) this.state.dir = this.state.dir === "asc" ? "desc" : "asc";
          else {
            this.state.sort = key;
            this.state.dir = "asc";
          }
          this.changed(true);
        });
      }
    }

    buildControls() {
      this.selects = new Map();
      const fields = [];
      for (const filter of FILTERS) {
        const select = h("select", { "data-or-filter": filter.name });
        select.addEventListener("change", () => {
          this.state.filters[filter.name] = select.value;
          this.changed(true);
        });
        const field = h("label", { class: "or-filter" }, h("span", { class: "or-filter__label" }, filter.label), select);
        this.selects.set(filter.name, { select, field, filter });
        fields.push(field);
      }
      this.search = h("input", {
        type: "search",
        class: "or-filter__search",
        "data-or-search": true,
        placeholder: "Search the recipes",
        autocomplete: "off",
        spellcheck: "false",
      });
      // One history entry per search: the first keystroke adds it, the next ones update it,
      // until the search is finished (Enter, or leaving the field).
      this.searching = false;
      this.search.addEventListener("input", () => {
        this.state.search = this.search.value;
        this.changed(!this.searching);
        this.searching = true;
      });
      this.search.addEventListener("change", () => (this.searching = false));
      fields.push(h("label", { class: "or-filter or-filter--search" }, h("span", { class: "or-filter__label" }, "Search"), this.search));

      this.clear = h("button", { type: "button", class: "md-button or-filter__reset", "data-or-clear": true }, "Clear filters");
      this.clear.addEventListener("click", () => {
        this.state.filters = {};
        this.state.search = "";
        this.changed(true);
      });
      this.reset = h("button", { type: "button", class: "md-button or-filter__reset", "data-or-default-order": true }, "Default order");
      this.reset.addEventListener("click", () => {
        this.state.sort = null;
        this.state.dir = "asc";
        this.changed(true);
      });
      fields.push(h("span", { class: "or-filter__buttons" }, this.clear, this.reset));

      this.controls = h("div", { class: "or-filters", role: "search", "aria-label": "Filter the recipes" }, fields);
      this.root.insertBefore(this.controls, this.root.firstChild);
      this.empty = h("p", { class: "or-empty", hidden: true }, "No recipe matches these filters.");
      this.table.parentElement.after(this.empty);
    }

    /* -- state ----------------------------------------------------------------------------- */

    attach(signal) {
      this.read(OR.params());
      this.apply();
      OR.onQueryChange((params) => {
        this.read(params);
        this.apply();
      }, signal);
      // Prices typed into the calculator change the $ / 1M cells' values: sort by what is shown.
      document.addEventListener(
        "openrecipes:prices",
        () => {
          this.texts.clear(); // the $ / 1M cells' text changed
          this.apply();
        },
        { signal },
      );
    }

    read(params) {
      const filters = {};
      for (const filter of FILTERS) filters[filter.name] = (params.get(filter.name) || "").trim();
      const sort = params.get("sort");
      this.state = {
        filters,
        search: params.get(SEARCH) || "",
        sort: sort && this.columns.has(sort) ? sort : null,
        dir: params.get("dir") === "desc" ? "desc" : "asc",
      };
    }

    write(push) {
      const changes = {};
      for (const filter of FILTERS) changes[filter.name] = this.state.filters[filter.name] || null;
      changes[SEARCH] = this.state.search.trim() ? this.state.search : null;
      changes.sort = this.state.sort;
      changes.dir = this.state.sort ? this.state.dir : null;
      OR.setParams(changes, push);
    }

    changed(push) {
      this.apply();
      this.write(push);
    }

    /* -- filtering and sorting ------------------------------------------------------------ */

    matches(row, except) {
      for (const filter of FILTERS) {
        if (filter.name === except) continue;
        const wanted = (this.state.filters[filter.name] || "").toLowerCase();
        if (wanted && (row.getAttribute(`data-${filter.name}`) || "").toLowerCase() !== wanted) return false;
      }
      const words = this.state.search.toLowerCase().split(/\s+/).filter(Boolean);
      if (!words.length) return true;
      const text = this.text(row);
      return words.every((word) => text.includes(word));
    }

    /** What the search looks in: the row's text, its id and every filter's value. */
    text(row) {
      let text = this.texts.get(row);
      if (text === undefined) {
        const values = FILTERS.map((filter) => row.getAttribute(`data-${filter.name}`) || "");
        text = [row.textContent, row.getAttribute("data-recipe"), ...values].join(" ").toLowerCase().replace(/\s+/g, " ");
        this.texts.set(row, text);
      }
      return text;
    }

    apply() {
      const visible = this.rows.filter((row) => this.matches(row, null));
      const shown = new Set(visible);
      for (const row of this.rows) row.hidden = !shown.has(row);
      this.sortRows();
      this.updateSelects();
      if (this.search.value !== this.state.search) this.search.value = this.state.search;

      const total = this.rows.length;
      if (this.count) this.count.textContent = `${visible.length} of ${total} ${plural(total, "recipe")}`;
      this.empty.hidden = visible.length > 0 || total === 0;
      const filtered = FILTERS.some((f) => this.state.filters[f.name]) || this.state.search.trim() !== "";
      this.clear.hidden = !filtered;
      this.reset.hidden = !this.state.sort;
    }

    sortRows() {
      const column = this.state.sort ? this.columns.get(this.state.sort) : null;
      const direction = this.state.dir === "desc" ? -1 : 1;
      const order = this.rows.slice();
      if (column) {
        const keys = new Map(order.map((row) => [row, cellKey(row.cells[column.index], column.numeric)]));
        order.sort((r1, r2) => {
          const a = keys.get(r1);
          const b = keys.get(r2);
          if (a.missing !== b.missing) return a.missing ? 1 : -1; // missing last, in both directions
          const c = a.missing ? 0 : compareKeys(a, b);
          return c !== 0 ? c * direction : this.defaultIndex.get(r1) - this.defaultIndex.get(r2);
        });
      }
      const current = Array.from(this.body.rows);
      if (order.some((row, index) => current[index] !== row)) {
        const fragment = document.createDocumentFragment();
        for (const row of order) fragment.appendChild(row);
        this.body.insertBefore(fragment, this.body.firstChild);
      }
      for (const [key, { th }] of this.columns) {
        if (key === this.state.sort) th.setAttribute("aria-sort", this.state.dir === "desc" ? "descending" : "ascending");
        else th.removeAttribute("aria-sort");
      }
    }

    updateSelects() {
      for (const { select, field, filter } of this.selects.values()) {
        const counts = new Map();
        const all = new Set();
        for (const row of this.rows) {
          const value = row.getAttribute(`data-${filter.name}`) || "";
          if (!value) continue;
          all.add(value);
          if (this.matches(row, filter.name)) counts.set(value, (counts.get(value) || 0) + 1);
        }
        const values = Array.from(all);
        values.sort(
          filter.numeric ? (a, b) => Number(a) - Number(b) || collator.compare(a, b) : (a, b) => collator.compare(a, b),
        );
        const wanted = this.state.filters[filter.name] || "";
        const chosen = values.find((value) => value.toLowerCase() === wanted.toLowerCase());
        if (wanted && chosen === undefined) values.push(wanted); // asked for in the address, no row has it
        const anyCount = this.rows.filter((row) => this.matches(row, filter.name)).length;
        const options = [h("option", { value: "" }, `${filter.any} (${anyCount})`)];
        for (const value of values) {
          const label = filter.unit ? `${value} ${filter.unit}` : value;
          options.push(h("option", { value }, `${label} (${counts.get(value) || 0})`));
        }
        select.replaceChildren(...options);
        select.value = chosen !== undefined ? chosen : wanted;
        // A filter with one value has nothing to choose from, unless the address set it.
        field.hidden = all.size < 2 && !wanted;
      }
    }
  }
})();
