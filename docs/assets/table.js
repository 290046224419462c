/*
 * The comparison table (home, model and GPU pages): sort by a column, filter by the facts the
 * registry makes filters of (model, GPU, GPU count, status, ...), search the rows' text, and count
 * what is shown. The state lives in the address (?gpu=H200&status=verified&sort=mfu&dir=desc&
 * search=slime), so a view can be shared and survives reload and back/forward. `search` (not `q`)
 * names the text filter: Material opens its own site search for `?q=`.
 *
 * Before the reader sorts, rows are in the catalogue's order at the reader's price basis
 * (OpenRecipes.tableOrder, as loader.table_order_key): cheapest $ / 1M first, then higher MFU,
 * then id; the $ / 1M cells follow the basis (price.js, `openrecipes:prices`). A filter may leave
 * values out until asked for (deprecated recipes): its "any" choice means any other value.
 *
 * Rows are data, not elements: the table shows the first rows of the matching ones in order and
 * offers the next ones, so sorting and filtering thousands of rows touches a screenful of DOM.
 * The home page, and a model's or GPU type's page with many recipes, hold only their first rows
 * (data-or-total says how many there are): the others come from assets/catalogue-rows.json
 * (export.catalogue_rows), loaded from the site's own root, and are drawn here exactly as the build
 * draws a row. A model's or GPU type's page keeps the rows of its own group: data-or-group-by names
 * the kind (model, gpu) and data-or-group the page's slug, which is only compared with each row's
 * slug in the data's `groups`, never used as an address. Without JavaScript the rows in the page
 * are a complete table (the first rows, or a small group's every recipe).
 *
 * Contract: [data-or-catalogue] holds [data-or-count] and a table whose header cells carry
 * data-key, data-cell (link, badge, price, text) and data-type="number" on numeric columns,
 * whose rows carry data-recipe and the filter attributes, and whose cells carry data-value
 * ("" = missing: last in either direction) and data-label; a $ / 1M cell carries data-gpu and
 * data-tokens-per-s; on a group page the root carries data-or-group-by and data-or-group.
 */
(function () {
  "use strict";

  const OR = window.OpenRecipes;
  const h = OR.h;

  // The filters and the default order, made from the facts registry (hooks/openrecipes/site/facts.py)
  // into assets/facets.js: each filter is {name, label, any, numeric, unit, hidden}, and every row
  // carries data-<name>.
  const FILTERS = OR.facets || [];
  const HIDDEN = FILTERS.map((filter) => new Set(filter.hidden || [])); // values each filter hides by default
  const ORDER = OR.tableOrder || [];
  const ROWS = "assets/catalogue-rows.json";
  const ALL = "all"; // a hiding filter's choice that shows every value
  const PAGE = 25; // rows drawn at a time: two screens or so; each more costs layout
  const SEARCH = "search";
  const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
  const collator = new Intl.Collator("en", { numeric: true, sensitivity: "base" });
  let allRows = null; // the promise of assets/catalogue-rows.json, kept across pages

  OR.onPage((doc, signal) => {
    for (const root of doc.querySelectorAll("[data-or-catalogue]")) new Catalogue(root, signal);
  });

  /* -- rows -------------------------------------------------------------------------------- */

  /** Sort key of a value: {missing, number?, text}. */
  function valueKey(text, numeric) {
    text = (text ?? "").trim();
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

  /** Values in export._column's shape ({list} or {values, index}) as one array. */
  function expand(column, count) {
    if (!column) return new Array(count).fill(undefined);
    if (Array.isArray(column.list)) return column.list;
    return column.index.map((index) => column.values[index]);
  }

  function rowFromElement(tr, columns) {
    const row = { id: tr.getAttribute("data-recipe"), tr, texts: {}, values: {}, details: {}, facets: {}, hours: {} };
    for (const filter of FILTERS) row.facets[filter.name] = tr.getAttribute(`data-${filter.name}`) || "";
    for (const [key, column] of columns) {
      const cell = tr.cells[column.index];
      if (!cell) continue;
      row.values[key] = cell.getAttribute("data-value") ?? "";
      if (column.cell === "price") {
        row.gpu = cell.getAttribute("data-gpu") || "";
        row.tokens = Number(cell.getAttribute("data-tokens-per-s"));
        row.derived = cell.hasAttribute("data-derived");
      } else {
        row.texts[key] = cell.textContent.trim();
      }
      // A cost priced again at the reader's basis (none at the recipe's own instance): its GPU-hours.
      if (column.cell === "cost") row.hours[key] = cell.hasAttribute("data-gpu") ? Number(cell.getAttribute("data-gpu-hours")) : null;
    }
    return row;
  }

  /** The indexes of the rows of `data` the table shows: all, or on a group page its group's. */
  function rowIndexes(data, group) {
    const indexes = data.id.map((id, i) => i);
    if (!group) return indexes;
    const groups = data.groups || {};
    if (!Object.prototype.hasOwnProperty.call(groups, group.by)) throw new Error(`${ROWS}: no ${group.by} groups`);
    const keys = expand(groups[group.by], data.count);
    return indexes.filter((i) => keys[i] === group.key);
  }

  function rowsFromData(data, columns, group) {
    const count = data.count;
    const urls = data.url.list || data.id.map((id) => `${data.url.prefix}${id}${data.url.suffix}`);
    const facets = FILTERS.map((filter) => [filter.name, expand(data.facets[filter.name], count)]);
    const derived = new Set(data.derived || []); // rows whose throughput is derived from a publisher's figure
    const cols = [];
    for (const [key, column] of columns) {
      const source = data.columns[key];
      if (!source) continue;
      const texts = expand(source.text, count);
      cols.push({
        key,
        texts,
        values: source.value ? expand(source.value, count) : texts,
        details: source.detail ? expand(source.detail, count) : null,
        detailLabel: source.detail_label || "",
        hours: source.hours ? expand(source.hours, count) : null,
      });
    }
    return rowIndexes(data, group).map((i) => {
      const id = data.id[i];
      const row = { id, tr: null, url: urls[i], tokens: data.tokens[i], derived: derived.has(i), texts: {}, values: {}, details: {}, facets: {}, hours: {} };
      for (const [name, values] of facets) row.facets[name] = values[i] ?? "";
      for (const column of cols) {
        row.texts[column.key] = column.texts[i];
        const value = column.values[i];
        row.values[column.key] = value === null || value === undefined ? "" : String(value);
        if (column.details && column.details[i]) row.details[column.key] = [column.detailLabel, column.details[i]];
        if (column.hours) row.hours[column.key] = column.hours[i] ?? null;
      }
      row.gpu = row.facets.gpu || "";
      return row;
    });
  }

  /* -- the order --------------------------------------------------------------------------- */
  // Thousands of rows: a column's keys are numbers in an array indexed by row (row.index).

  /** A row's $ / 1M at the reader's basis; until the presets are loaded, what the build wrote (the default). */
  function rowUsd(row) {
    if (OR.priceBasis && OR.priceBasis.loaded()) return OR.priceBasis.usdPerMillion(row.gpu, row.tokens);
    return row.values.usd ? Number(row.values.usd) : null;
  }

  /** A row's cost in column `key` (a time to train's, say) at the reader's basis, when the page
   * prices it (`row.hours`); else, and until the presets are loaded, what the build wrote. */
  function rowCost(row, key) {
    const hours = row.hours ? row.hours[key] : null;
    if (hours !== null && hours !== undefined && OR.priceBasis && OR.priceBasis.loaded()) {
      const price = OR.priceBasis.usdPerGpuHour(row.gpu);
      return price === null ? null : hours * price;
    }
    const value = row.values[key];
    return value === "" || value === undefined ? null : Number(value);
  }

  /** A cost cell at the reader's basis, as price.js writes one. */
  function showCost(cell, row, key) {
    const hours = row.hours ? row.hours[key] : null;
    if (hours === null || hours === undefined || !OR.priceBasis || !OR.priceBasis.loaded()) return;
    const cost = rowCost(row, key);
    cell.textContent = cost === null ? "unpriced" : OR.usd(cost);
    cell.setAttribute("data-value", cost === null ? "" : String(cost));
  }

  /**
   * Column `key` as a number per row (indexed by row.index) that sorts as the column does: the
   * value itself when every value is a number, else its rank among the column's values; NaN for a
   * missing value. A price column's values are `usd(row)`, NaN for a row whose throughput is derived
   * from a publisher's figure: it never ranks as measured (loader.table_order_key).
   */
  function columnKeys(rows, key, column, usd) {
    const ranks = new Float64Array(rows.length);
    if (column && column.cell === "cost") {
      rows.forEach((row, i) => {
        const cost = rowCost(row, key);
        ranks[i] = cost === null ? NaN : cost;
      });
    } else if (column && column.cell === "price") {
      rows.forEach((row, i) => {
        const value = usd(row);
        ranks[i] = value === null || row.derived ? NaN : value;
      });
    } else {
      const keys = rows.map((row) => valueKey(row.values[key], column ? column.numeric : false));
      if (keys.every((k) => k.missing || k.number !== undefined)) {
        keys.forEach((k, i) => (ranks[i] = k.missing ? NaN : k.number));
      } else {
        const distinct = new Map();
        for (const k of keys) if (!k.missing && !distinct.has(k.text)) distinct.set(k.text, k);
        const sorted = Array.from(distinct.values()).sort(compareKeys);
        const rank = new Map();
        sorted.forEach((k, i) => rank.set(k.text, i > 0 && compareKeys(sorted[i - 1], k) === 0 ? rank.get(sorted[i - 1].text) : i));
        keys.forEach((k, i) => (ranks[i] = k.missing ? NaN : rank.get(k.text)));
      }
    }
    return ranks;
  }

  /** Two keys of a column in `direction` (1 or -1); missing ones (NaN) last in both directions. */
  function compareSortKeys(a, b, direction) {
    const missingA = Number.isNaN(a);
    if (missingA !== Number.isNaN(b)) return missingA ? 1 : -1;
    return missingA || a === b ? 0 : (a < b ? -1 : 1) * direction;
  }

  /** `rows` in the default order (ORDER, by the columns the table has: keysFor(key)), then by id. */
  function defaultOrder(rows, columns, keysFor) {
    const defaults = ORDER.filter((item) => columns.has(item.key)).map((item) => [
      keysFor(item.key),
      item.dir === "desc" ? -1 : 1,
    ]);
    return rows.slice().sort((r1, r2) => {
      for (const [keys, direction] of defaults) {
        const c = compareSortKeys(keys[r1.index], keys[r2.index], direction);
        if (c !== 0) return c;
      }
      return r1.id < r2.id ? -1 : r1.id > r2.id ? 1 : 0; // as Python compares ids
    });
  }

  /* -- drawing ----------------------------------------------------------------------------- */

  /** A row as catalogue_table.md.j2 draws it, its $ / 1M cell empty (showPrice writes it). */
  function drawRow(row, columns) {
    const attributes = { "data-recipe": row.id };
    for (const filter of FILTERS) attributes[`data-${filter.name}`] = row.facets[filter.name];
    const cells = Array.from(columns, ([key, column]) => {
      const text = row.texts[key] ?? "";
      const value = row.values[key] ?? "";
      const common = { "data-key": key, "data-label": column.label, "data-value": value };
      if (column.cell === "link") return h("td", common, h("a", { href: OR.siteUrl(row.url).href }, text));
      if (column.cell === "badge" && value !== "") {
        const [name, detail] = row.details[key] || [];
        return h(
          "td",
          common,
          h("span", { class: `or-badge or-badge--${value}` }, text),
          detail ? [" ", h("span", { class: `or-badge or-badge--${detail}` }, `${name}: ${detail}`)] : null,
        );
      }
      if (column.cell === "cost") {
        const hours = row.hours ? row.hours[key] : null;
        const priced = hours !== null && hours !== undefined;
        return h("td", { ...common, class: "or-num", "data-run-cost": priced || null, "data-gpu-hours": priced ? hours : null, "data-gpu": priced ? row.gpu : null }, text);
      }
      if (column.cell === "price") {
        // Whose price the figure is at, as the build writes it (the provider of the basis's instance).
        const provider = OR.priceBasis && OR.priceBasis.loaded() ? OR.priceBasis.provider(row.gpu) : null;
        return h("td", { ...common, class: "or-num", "data-usd-per-mtok": true, "data-gpu": row.gpu, "data-tokens-per-s": row.tokens, "data-derived": row.derived ? true : null, "data-price-provider": provider });
      }
      return h("td", { ...common, class: column.numeric ? "or-num" : null }, text);
    });
    return h("tr", attributes, cells);
  }

  /** A $ / 1M cell at the reader's basis, once price.js has loaded its presets. */
  function showPrice(cell, gpu, usd) {
    if (usd === null) OR.priceBasis.showMissing(cell, gpu);
    else cell.textContent = OR.usd(usd);
    cell.setAttribute("data-value", usd === null ? "" : String(usd));
    cell.setAttribute("title", `At ${OR.priceBasis.label(gpu)}`);
    const provider = OR.priceBasis.provider(gpu);
    if (provider) cell.setAttribute("data-price-provider", provider);
    else cell.removeAttribute("data-price-provider");
    cell.classList.toggle("or-custom-price", !OR.priceBasis.isDefault());
  }

  /* -- the table --------------------------------------------------------------------------- */

  class Catalogue {
    constructor(root, signal) {
      this.root = root;
      this.signal = signal;
      this.table = root.querySelector("table");
      this.body = this.table.tBodies[0];
      this.headers = Array.from(this.table.tHead ? this.table.tHead.rows[0].cells : []);
      this.columns = new Map();
      this.headers.forEach((th, index) => {
        const key = th.getAttribute("data-key");
        if (key) {
          this.columns.set(key, {
            index,
            th,
            label: th.textContent.trim(),
            cell: th.getAttribute("data-cell") || "text",
            numeric: th.getAttribute("data-type") === "number",
          });
        }
      });
      this.setRows(Array.from(this.body.rows).filter((tr) => tr.hasAttribute("data-recipe")).map((tr) => rowFromElement(tr, this.columns)));
      this.total = Number(root.getAttribute("data-or-total")) || this.rows.length;
      // A model's or GPU type's page: which rows of the data are its own (compared, never fetched).
      const by = root.getAttribute("data-or-group-by");
      this.group = by ? { by, key: root.getAttribute("data-or-group") || "" } : null;
      this.complete = this.rows.length >= this.total;
      this.limit = PAGE;
      this.priceSerial = 0;

      // A wide table scrolls sideways inside the page instead of widening it (a phone shows
      // cards instead: openrecipes-interactive.css).
      if (!this.table.parentElement.classList.contains("or-scroll")) {
        const scroller = h("div", { class: "or-scroll" });
        this.table.before(scroller);
        scroller.appendChild(this.table);
      }
      this.count = root.querySelector("[data-or-count]");
      if (this.count) this.count.setAttribute("aria-live", "polite");
      this.state = { filters: {}, search: "", sort: null, dir: "asc" };
      this.buildHeaders();
      this.buildControls();
      this.attach();
      if (!this.complete) this.loadRest();
    }

    setRows(rows) {
      this.rows = rows;
      rows.forEach((row, index) => (row.index = index));
      for (const row of rows) {
        row.lower = {};
        for (const filter of FILTERS) row.lower[filter.name] = row.facets[filter.name].toLowerCase();
        row.search = null;
        this.text(row); // now, while the rows arrive, not at the reader's first keystroke
      }
      this.keys = new Map(); // column -> its sort keys by row index, for the current prices
      this.orders = new Map(); // "sort|dir" -> rows in that order, for the current prices
      this.values = new Map(); // filter -> its distinct values, in the order its choices show
      for (const filter of FILTERS) {
        const values = Array.from(new Set(rows.map((row) => row.facets[filter.name]).filter(Boolean)));
        values.sort(
          filter.numeric ? (a, b) => Number(a) - Number(b) || collator.compare(a, b) : (a, b) => collator.compare(a, b),
        );
        this.values.set(filter.name, values);
      }
    }

    /** The rows the page does not hold, from the catalogue's row data. */
    loadRest() {
      if (!allRows) {
        allRows = fetch(OR.siteUrl(ROWS).href, { credentials: "same-origin" }).then((response) => {
          if (!response.ok) throw new Error(`${ROWS}: ${response.status}`);
          return response.json();
        });
        allRows.catch(() => (allRows = null)); // try again on the next page
      }
      allRows
        .then((data) => {
          if (this.signal.aborted) return;
          const drawn = new Map(this.rows.map((row) => [row.id, row.tr]));
          const rows = rowsFromData(data, this.columns, this.group);
          for (const row of rows) row.tr = drawn.get(row.id) || null;
          this.setRows(rows);
          this.total = rows.length;
          this.complete = true;
          this.apply();
        })
        .catch((error) => {
          if (this.signal.aborted) return;
          console.warn("OpenRecipes:", error);
          this.failed = true;
          this.apply();
        });
    }

    /* -- the controls ------------------------------------------------------------------------- */

    buildHeaders() {
      for (const [key, column] of this.columns) {
        const th = column.th;
        const button = h("button", { type: "button", class: "or-sort", title: `Sort by ${column.label}` });
        while (th.firstChild) button.appendChild(th.firstChild);
        button.appendChild(h("span", { class: "or-sort__icon", "aria-hidden": "true" }));
        th.appendChild(button);
        th.classList.add("or-sortable");
        // The whole header cell sorts (its padding too, where a click would otherwise do nothing);
        // the button inside it is what the keyboard reaches, and its click bubbles to here.
        th.addEventListener("click", () => {
          const [shown, dir] = this.sortShown();
          if (shown === key) {
            this.state.sort = key;
            this.state.dir = dir === "asc" ? "desc" : "asc";
          } else {
            this.state.sort = key;
            this.state.dir = "asc";
          }
          this.changed(true);
        });
      }
    }

    /**
     * The column the rows are sorted by and its direction, as the header shows it: the reader's
     * column, else the first of the default order ($ / 1M ascending), which is then as sorted as
     * any column the reader picks and carries aria-sort as the build writes it.
     */
    sortShown() {
      if (this.state.sort && this.columns.has(this.state.sort)) return [this.state.sort, this.state.dir];
      const first = ORDER.find((item) => this.columns.has(item.key));
      return first ? [first.key, first.dir] : [null, "asc"];
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
        placeholder: "Model, GPU, provider, precision…",
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
      this.more = h("button", { type: "button", class: "md-button", "data-or-more": true });
      this.more.addEventListener("click", () => this.showMore(this.limit + PAGE));
      this.all = h("button", { type: "button", class: "md-button", "data-or-all": true });
      this.all.addEventListener("click", () => this.showMore(Infinity));
      this.pager = h("p", { class: "or-pager", hidden: true }, this.more, " ", this.all);
      this.table.parentElement.after(this.empty, this.pager);
    }

    /* -- state ----------------------------------------------------------------------------- */

    attach() {
      const signal = this.signal;
      this.read(OR.params());
      this.apply();
      OR.onQueryChange((params) => {
        this.read(params);
        this.apply();
      }, signal);
      // Another price basis: other $ / 1M figures, another default order.
      document.addEventListener(
        "openrecipes:prices",
        () => {
          this.priceSerial += 1;
          this.keys = new Map();
          this.orders = new Map();
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
      this.limit = PAGE;
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
      this.limit = PAGE;
      this.apply();
      this.write(push);
    }

    showMore(limit) {
      this.limit = limit;
      this.draw();
    }

    /* -- filtering and sorting ------------------------------------------------------------ */
    // Thousands of rows: keys are computed once per column and price basis into arrays indexed by
    // row, orders are cached until the sorting or the basis changes, and the filters' counts are
    // made in one pass over the rows.

    /** Each filter's wanted value, lower-cased ("" = any, but the values it hides). */
    wanted() {
      return FILTERS.map((filter) => (this.state.filters[filter.name] || "").toLowerCase());
    }

    /** The index of the first filter `row` fails, -1 if none; `failures` counts them. */
    failing(row, wanted) {
      let first = -1;
      let count = 0;
      for (let i = 0; i < FILTERS.length; i++) {
        const filter = FILTERS[i];
        const want = wanted[i];
        const fails = want === "" ? HIDDEN[i].has(row.facets[filter.name]) : want !== ALL && row.lower[filter.name] !== want;
        if (fails) {
          count += 1;
          if (first < 0) first = i;
          if (count > 1) break;
        }
      }
      row.failures = count;
      return first;
    }

    searched(row, words) {
      if (!words.length) return true;
      const text = this.text(row);
      return words.every((word) => text.includes(word));
    }

    /** What the search looks in: every column's text (not the $ / 1M), the id and every filter's value. */
    text(row) {
      if (row.search === null) {
        // A drawn row's cells hold their detail badges; a row from data keeps them apart.
        const details = Object.values(row.details).map(([name, value]) => `${name}: ${value}`);
        const parts = [row.id, ...Object.values(row.texts), ...details, ...Object.values(row.facets)];
        row.search = parts.join(" ").toLowerCase().replace(/\s+/g, " ");
      }
      return row.search;
    }

    words() {
      return this.state.search.toLowerCase().split(/\s+/).filter(Boolean);
    }

    /** $ / 1M at the reader's basis; until the presets are loaded, what the build wrote (the default). */
    usd(row) {
      if (row.priceSerial !== this.priceSerial) {
        row.usd = rowUsd(row);
        row.priceSerial = this.priceSerial;
      }
      return row.usd;
    }

    /** Column `key`'s sort keys (columnKeys), computed once per column and price basis. */
    keysFor(key) {
      if (!this.keys.has(key)) this.keys.set(key, columnKeys(this.rows, key, this.columns.get(key), (row) => this.usd(row)));
      return this.keys.get(key);
    }

    /** Rows in order: the reader's column, else the default order; ties by the default order. */
    ordered() {
      const sort = this.state.sort && this.columns.has(this.state.sort) ? this.state.sort : null;
      const name = `${sort}|${this.state.dir}`;
      if (this.orders.has(name)) return this.orders.get(name);
      let order;
      if (!this.orders.has("null|asc")) {
        order = defaultOrder(this.rows, this.columns, (key) => this.keysFor(key));
        order.forEach((row, position) => (row.position = position));
        this.orders.set("null|asc", order);
      }
      if (sort) {
        const keys = this.keysFor(sort);
        const direction = this.state.dir === "desc" ? -1 : 1;
        order = this.rows
          .slice()
          .sort((r1, r2) => compareSortKeys(keys[r1.index], keys[r2.index], direction) || r1.position - r2.position);
      } else {
        order = this.orders.get("null|asc");
      }
      this.orders.set(name, order);
      return order;
    }

    apply() {
      const words = this.words();
      const wanted = this.wanted();
      const matching = [];
      for (const row of this.ordered()) if (this.failing(row, wanted) < 0 && this.searched(row, words)) matching.push(row);
      this.matching = matching;
      this.draw();
      this.updateSelects(words, wanted);
      if (this.search.value !== this.state.search) this.search.value = this.state.search;
      const [shown, dir] = this.sortShown();
      for (const [key, { th }] of this.columns) {
        if (key === shown) th.setAttribute("aria-sort", dir === "desc" ? "descending" : "ascending");
        else th.removeAttribute("aria-sort");
      }
      const filtered = FILTERS.some((f) => this.state.filters[f.name]) || this.state.search.trim() !== "";
      this.clear.hidden = !filtered;
      this.reset.hidden = !this.state.sort;
    }

    /** The first `limit` matching rows into the table, and the count and the pager. */
    draw() {
      const shown = this.matching.slice(0, this.limit);
      const elements = shown.map((row) => this.element(row));
      // Ranked by cost (the default order, or sorted by $ / 1M either way), the rows without a
      // price come after every priced one: a line marks where the ranking ends.
      const priceKey = Array.from(this.columns).find(([, column]) => column.cell === "price");
      const byPrice = !this.state.sort || (priceKey !== undefined && this.state.sort === priceKey[0]);
      let priced = false;
      let marked = false;
      for (const row of shown) {
        const unpriced = this.usd(row) === null || row.derived; // neither ranks by price
        const first = byPrice && unpriced && priced && !marked;
        row.tr.classList.toggle("or-unranked-first", first);
        marked ||= first;
        priced ||= !unpriced;
      }
      const current = Array.from(this.body.rows);
      if (elements.length !== current.length || elements.some((tr, i) => current[i] !== tr)) {
        this.body.replaceChildren(...elements);
      }
      const total = this.total;
      const matching = this.matching.length;
      if (this.count) {
        let text = `${matching} of ${total} recipe${total === 1 ? "" : "s"}`;
        if (!this.complete) text += this.failed ? " (the others could not be loaded)" : " (loading the others…)";
        this.count.textContent = text;
      }
      this.empty.hidden = matching > 0 || this.rows.length === 0;
      const left = matching - shown.length;
      this.pager.hidden = left <= 0;
      if (left > 0) {
        this.more.textContent = `Show ${Math.min(PAGE, left)} more`;
        this.all.textContent = `Show all ${matching}`;
        this.all.hidden = left <= PAGE;
      }
    }

    /** The row's element, drawn from its data the first time it is shown; its $ / 1M at the basis. */
    element(row) {
      if (!row.tr) row.tr = drawRow(row, this.columns);
      if (row.drawnSerial !== this.priceSerial) {
        const column = Array.from(this.columns.values()).find((c) => c.cell === "price");
        const cell = column ? row.tr.cells[column.index] : null;
        if (cell && OR.priceBasis && OR.priceBasis.loaded()) showPrice(cell, row.gpu, this.usd(row));
        for (const [key, cost] of this.columns) if (cost.cell === "cost") showCost(row.tr.cells[cost.index], row, key);
        row.drawnSerial = this.priceSerial;
      }
      return row.tr;
    }

    /**
     * Each filter's choices with how many rows each would show, the other filters and the search
     * as they are: in one pass, as a row counts for a filter when it fails no other filter.
     */
    updateSelects(words, wanted) {
      const counts = FILTERS.map(() => new Map());
      const anyCounts = FILTERS.map(() => 0);
      const everyCounts = FILTERS.map(() => 0);
      // Plain loops: thousands of rows, and no garbage for the collector to stop the page for.
      const rows = this.rows;
      for (let r = 0; r < rows.length; r++) {
        const row = rows[r];
        if (!this.searched(row, words)) continue;
        const first = this.failing(row, wanted);
        if (row.failures > 1) continue;
        for (let i = 0; i < FILTERS.length; i++) {
          if (row.failures === 1 && i !== first) continue;
          const value = row.facets[FILTERS[i].name];
          everyCounts[i] += 1;
          if (!HIDDEN[i].has(value)) anyCounts[i] += 1;
          if (value) counts[i].set(value, (counts[i].get(value) || 0) + 1);
        }
      }
      FILTERS.forEach((filter, i) => {
        const { select, field } = this.selects.get(filter.name);
        const hidden = filter.hidden || [];
        const values = this.values.get(filter.name).slice();
        const want = this.state.filters[filter.name] || "";
        const chosen =
          hidden.length && want.toLowerCase() === ALL
            ? ALL
            : values.find((value) => value.toLowerCase() === want.toLowerCase());
        if (want && chosen === undefined) values.push(want); // asked for in the address, no row has it
        const options = [];
        if (hidden.length) {
          options.push(["", `${filter.any} but ${hidden.join(", ")} (${anyCounts[i]})`]);
          options.push([ALL, `${filter.any}, ${hidden.join(", ")} included (${everyCounts[i]})`]);
        } else {
          options.push(["", `${filter.any} (${everyCounts[i]})`]);
        }
        for (const value of values) {
          const label = filter.unit ? `${value} ${filter.unit}` : value;
          options.push([value, `${label} (${counts[i].get(value) || 0})`]);
        }
        // Options change only when a count does: leave the element alone otherwise.
        const signature = JSON.stringify(options);
        if (select.orOptions !== signature) {
          select.replaceChildren(...options.map(([value, text]) => h("option", { value }, text)));
          select.orOptions = signature;
        }
        const selected = chosen !== undefined ? chosen : want;
        if (select.value !== selected) select.value = selected;
        // A filter with one value has nothing to choose from, unless the address set it.
        field.hidden = this.values.get(filter.name).length < 2 && !want;
      });
    }
  }

  // For the tests run by Node (tests/js/, tests/test_vectors.py), which hold the table to the Python
  // side without a browser. `columns`: key -> {label, cell, numeric}, as the header's cells say.
  OR.table = {
    /** `rows` ({id, gpu, tokens, values}) in the order the table shows them before a reader sorts
     * (loader.table_order_key), at the price basis of the moment. */
    defaultOrder(rows, columns) {
      rows.forEach((row, index) => (row.index = index));
      return defaultOrder(rows, columns, (key) => columnKeys(rows, key, columns.get(key), rowUsd));
    },
    /** The rows of assets/catalogue-rows.json (export.catalogue_rows). */
    rowsFromData,
    /** A row's element as the table shows it (catalogue_table.md.j2), its $ / 1M at the basis. */
    drawRow(row, columns) {
      const tr = drawRow(row, columns);
      const price = Array.from(columns.values()).findIndex((column) => column.cell === "price");
      if (price >= 0 && OR.priceBasis && OR.priceBasis.loaded()) showPrice(tr.cells[price], row.gpu, rowUsd(row));
      return tr;
    },
  };
})();
