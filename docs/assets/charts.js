/*
 * Charts: every .or-chart names a chart file the build wrote (data-chart="home-cost" is
 * charts/home-cost.json on this site, see hooks/openrecipes/site/charts.py). Files and the site's own
 * copy of plotly.min.js are loaded from the site's root (OpenRecipes.siteRoot, from where the
 * scripts were loaded), never from an address found in the page; a name that is not a plain file
 * name is refused. Plotly is loaded once, and only on a page that has a chart; recipe pages never
 * load it.
 *
 * A chart file holds one panel or several (a cost chart per model on a page of several models):
 * several get a picker, which starts on the model named by the address's ?model= (the tables'
 * model filter) or the file's choice. The figures carry no theme: colours come from Material's
 * palette (body[data-md-color-scheme], its CSS variables) when a chart is drawn, and charts are
 * redrawn when the reader toggles it.
 *
 * Cost charts follow the price basis: each point carries its GPU key and tokens/s per GPU, and is
 * priced at OpenRecipes.priceBasis.usdPerGpuHour(gpu) when that exists (else at the price the
 * build wrote), again on every `openrecipes:prices` event. A point whose GPU has no price is left
 * out and the chart says so; the Pareto frontier and the log-or-linear choice of each axis are
 * recomputed as charts.py computes them; fewer than three priced points draw no chart, only a note.
 *
 * Each point's customdata[0] is its recipe page's address relative to the site's root: a click
 * opens it (through Material's instant navigation when it is on). On a touch screen the first tap
 * on a point shows its tooltip and a second tap on the same point opens it, and there is no mode
 * bar over the plot. Charts are purged when the page is left, follow the width of their container
 * (a ResizeObserver), and never log an error: a chart that cannot be drawn says so in its place.
 */
(function () {
  "use strict";

  const OR = window.OpenRecipes;
  const CHART_NAME = /^[a-z0-9][a-z0-9._-]{0,200}$/;
  const PLOTLY = "assets/javascripts/plotly.min.js";
  const FILE_VERSION = 2;
  const MIN_POINTS = 3; // charts.py MIN_POINTS
  const LOG_SPAN = 10; // charts.py LOG_SPAN
  const PRICES_EVENT = "openrecipes:prices";
  const figures = new Map(); // chart name -> promise of its file, kept across pages
  let plotlyStyles = []; // Plotly's <style> elements, kept across instant navigation
  let drawn = new Set(); // plot elements of the page shown, to purge when it is left

  OR.onPage((doc, signal) => {
    purge();
    const charts = Array.from(doc.querySelectorAll(".or-chart[data-chart]"));
    if (!charts.length) return;
    const views = [];
    // Listeners now, not once Plotly has loaded: a page has them from its start to its end.
    document.addEventListener(PRICES_EVENT, () => views.forEach((view) => view.render()), { signal });
    OR.onQueryChange(() => views.forEach((view) => view.follow(OR.params())), signal);
    OR.loadScript(OR.siteUrl(PLOTLY).href, "Plotly")
      .then((Plotly) => {
        if (signal.aborted) return;
        keepStyles();
        for (const chart of charts) {
          figure(chart.getAttribute("data-chart"))
            .then((file) => {
              if (signal.aborted) return;
              const view = new ChartView(Plotly, chart, file, signal);
              views.push(view);
              view.render();
            })
            .catch((error) => {
              if (!signal.aborted) fail(chart, error.message);
            });
        }
        watchPalette(views, signal);
      })
      .catch(() => {
        if (!signal.aborted) charts.forEach((chart) => fail(chart, "the chart library could not be loaded"));
      });
  });

  /** The chart file the build wrote under `name`, fetched once. */
  function figure(name) {
    if (!CHART_NAME.test(name || "")) return Promise.reject(new Error("it names no chart of this site"));
    if (!figures.has(name)) {
      const url = OR.siteUrl(`charts/${name}.json`).href;
      const promise = fetch(url, { credentials: "same-origin" })
        .then((response) => {
          if (!response.ok) throw new Error(`its data could not be loaded (${response.status})`);
          return response.json();
        })
        .then((file) => {
          if (!file || file.version !== FILE_VERSION || !Array.isArray(file.panels) || !file.panels.length) {
            throw new Error("its data is not a chart of this version of the site");
          }
          return file;
        })
        .catch((error) => {
          figures.delete(name); // try again on the next page
          throw error instanceof SyntaxError ? new Error("its data is not valid JSON") : error;
        });
      figures.set(name, promise);
    }
    return figures.get(name);
  }

  // Plotly adds its stylesheet (<style id="plotly.js-style-global">) to <head> once, when it
  // loads, with insertRule. Instant navigation removes head elements the next page does not
  // have, which would drop those rules: keep them as text and put them back on every page.
  function keepStyles() {
    const present = Array.from(document.querySelectorAll('style[id^="plotly.js-style"]'));
    for (const style of present) {
      if (!plotlyStyles.includes(style)) {
        if (style.sheet && !style.textContent.trim()) {
          style.textContent = Array.from(style.sheet.cssRules, (rule) => rule.cssText).join("\n");
        }
        plotlyStyles.push(style);
      }
    }
    for (const style of plotlyStyles) if (!style.isConnected) document.head.appendChild(style);
  }

  function purge() {
    if (window.Plotly) {
      for (const plot of drawn) {
        try {
          window.Plotly.purge(plot);
        } catch (error) {
          /* already gone */
        }
      }
    }
    drawn = new Set();
  }

  function fail(chart, why) {
    chart.replaceChildren(OR.h("p", { class: "or-note or-chart__failed" }, `This chart cannot be shown: ${why}.`));
  }

  /** A touch screen is the main pointer: no mode bar, and a tap shows before it opens. */
  function touchScreen() {
    return typeof window.matchMedia === "function" && window.matchMedia("(pointer: coarse)").matches;
  }

  /* -- the figures' arithmetic, as charts.py does it ------------------------------------------- */

  /** $/1M tokens: $/GPU-hour ÷ (tokens/s × 3,600) × 10⁶, in checks.py's order of operations. */
  function usdPerMillion(usdPerGpuHour, tokensPerSecond) {
    return (usdPerGpuHour / (tokensPerSecond * 3600)) * 1e6;
  }

  /** Indexes of the points no other beats on both axes (more x, lower y), by x: charts.pareto_front. */
  function paretoFront(points) {
    const order = points.map((_, i) => i);
    order.sort((a, b) => points[b][0] - points[a][0] || points[a][1] - points[b][1]); // stable, as sorted()
    const front = [];
    let cheapest = Infinity;
    for (const index of order) {
      if (points[index][1] < cheapest) {
        front.push(index);
        cheapest = points[index][1];
      }
    }
    return front.sort((a, b) => points[a][0] - points[b][0]);
  }

  /** "log" when the positive values span more than LOG_SPAN: charts.axis_type. */
  function axisType(values) {
    const positive = values.filter((value) => value > 0);
    if (positive.length < 2) return "linear";
    return Math.max(...positive) / Math.min(...positive) > LOG_SPAN ? "log" : "linear";
  }

  /** Plotly reads text as HTML: charts.escape. */
  function escape(text) {
    return String(text)
      .replace(/&/g, "&amp;")
      .replace(/</g, "&lt;")
      .replace(/>/g, "&gt;")
      .replace(/"/g, "&quot;")
      .replace(/'/g, "&#x27;");
  }

  /** The hover line of a price: charts.price_text. */
  function priceText(usdPerGpuHour, tokensPerSecond) {
    const usd = usdPerMillion(usdPerGpuHour, tokensPerSecond);
    return escape(`${OR.usd(usd)} per 1M tokens at ${OR.usd(usdPerGpuHour)}/GPU-hour`);
  }

  const isPrice = (value) => typeof value === "number" && Number.isFinite(value) && value > 0;

  /** $/GPU-hour of a GPU key under the reader's price basis; undefined when the page has none. */
  function basis() {
    const priceBasis = OR.priceBasis;
    if (!priceBasis || typeof priceBasis.usdPerGpuHour !== "function") return undefined;
    // Until its presets have loaded the basis knows no price; the build's (the default basis) stand.
    if (typeof priceBasis.loaded === "function" && !priceBasis.loaded()) return undefined;
    return (gpu) => {
      try {
        const value = priceBasis.usdPerGpuHour(gpu);
        return isPrice(value) ? value : null;
      } catch (error) {
        return null; // a price the basis cannot give is no price
      }
    };
  }

  const role = (trace) => (trace && trace.meta && trace.meta.role) || "";

  /**
   * Price every point of a cost figure (in place): at `rate(gpu)`, or at the build's price when
   * `rate` is undefined. Returns how many points have a price and the notes on those left out.
   */
  function price(figure, rate) {
    const data = figure.data;
    const xy = [];
    const ranked = []; // the points the frontier is drawn through: not those whose throughput is derived
    const unpriced = new Map();
    const gpus = new Set();
    const symbols = new Set();
    for (const trace of data.filter((t) => role(t) === "points")) {
      const custom = Array.isArray(trace.customdata) ? trace.customdata : [];
      const symbol = trace.marker && trace.marker.symbol;
      trace.y = [];
      trace.text = [];
      custom.forEach((point, i) => {
        const [, gpu, tokens, built, , derived] = Array.isArray(point) ? point : [];
        const usdPerGpuHour = rate ? rate(gpu) : built;
        if (isPrice(usdPerGpuHour) && isPrice(tokens)) {
          const y = usdPerMillion(usdPerGpuHour, tokens);
          trace.y.push(y);
          trace.text.push(`<br>${priceText(usdPerGpuHour, tokens)}`);
          xy.push([tokens, y]);
          if (derived !== "derived") ranked.push([tokens, y]);
          gpus.add(gpu);
          symbols.add(Array.isArray(symbol) ? symbol[i] : symbol);
        } else {
          trace.y.push(null);
          trace.text.push("");
          unpriced.set(gpu, (unpriced.get(gpu) || 0) + 1);
        }
      });
    }
    const front = paretoFront(ranked);
    for (const trace of data) {
      if (role(trace) === "pareto") {
        const shown = front.length >= 2;
        trace.x = shown ? front.map((i) => ranked[i][0]) : [];
        trace.y = shown ? front.map((i) => ranked[i][1]) : [];
        trace.showlegend = shown;
      } else if (role(trace) === "key-gpu") {
        trace.showlegend = gpus.has(trace.meta.gpu);
      } else if (role(trace) === "key-precision") {
        trace.showlegend = symbols.has(trace.marker && trace.marker.symbol);
      }
    }
    const layout = figure.layout || (figure.layout = {});
    for (const [name, values] of [
      ["xaxis", xy.map((p) => p[0])],
      ["yaxis", xy.map((p) => p[1])],
    ]) {
      const axis = layout[name] || (layout[name] = {});
      axis.type = axisType(values);
      if (axis.type === "linear") axis.rangemode = "tozero";
      else delete axis.rangemode;
    }
    const notes = [];
    for (const [gpu, count] of unpriced) {
      const why = rate ? "no price in the price basis" : OR.NO_PRICE;
      notes.push(`Not charted: ${count} ${count === 1 ? "recipe" : "recipes"} on ${gpu}, which has ${why}.`);
    }
    return { count: xy.length, notes };
  }

  /* -- colours --------------------------------------------------------------------------- */

  // CSS colours as rgb()/rgba() text, which Plotly reads whatever the theme's notation.
  function resolveColour(value, fallback) {
    const probe = document.createElement("span");
    probe.style.display = "none";
    probe.style.color = fallback;
    if (value) probe.style.color = value;
    document.body.appendChild(probe);
    const colour = getComputedStyle(probe).color;
    probe.remove();
    return colour;
  }

  function theme() {
    const style = getComputedStyle(document.body);
    const variable = (name) => style.getPropertyValue(name).trim();
    const text = resolveColour(variable("--md-default-fg-color"), "#333");
    const muted = resolveColour(variable("--md-default-fg-color--light"), "rgba(0,0,0,0.54)");
    const grid = resolveColour(variable("--md-default-fg-color--lightest"), "rgba(0,0,0,0.07)");
    const line = resolveColour(variable("--md-default-fg-color--lighter"), "rgba(0,0,0,0.32)");
    const background = resolveColour(variable("--md-default-bg-color"), "#fff");
    const axis = { gridcolor: grid, zerolinecolor: line, linecolor: line, tickcolor: line };
    return {
      scheme: document.body.getAttribute("data-md-color-scheme") || "default",
      text,
      muted,
      layout: {
        paper_bgcolor: "rgba(0,0,0,0)",
        plot_bgcolor: "rgba(0,0,0,0)",
        font: { color: text, family: style.fontFamily || "sans-serif" },
        hoverlabel: { bgcolor: background, bordercolor: line, font: { color: text }, align: "left" },
        legend: { bgcolor: "rgba(0,0,0,0)" },
        xaxis: axis,
        yaxis: axis,
      },
    };
  }

  function merge(target, source) {
    for (const [key, value] of Object.entries(source)) {
      if (value && typeof value === "object" && !Array.isArray(value)) {
        if (!target[key] || typeof target[key] !== "object") target[key] = {};
        merge(target[key], value);
      } else {
        target[key] = value;
      }
    }
    return target;
  }

  /** The figure in the theme's colours (in place): markers outlined in the text colour. */
  function themed(figure, colours) {
    for (const trace of figure.data) {
      const kind = role(trace);
      if (kind === "points" || kind === "key-gpu") {
        trace.marker = merge(trace.marker || {}, { line: { color: colours.text, width: 1 } });
      } else if (kind === "key-precision") {
        trace.marker = merge(trace.marker || {}, { color: colours.muted, line: { color: colours.text, width: 1 } });
      } else if (kind === "pareto") {
        trace.line = merge(trace.line || {}, { color: colours.text });
      }
    }
    const layout = merge(figure.layout || {}, colours.layout);
    layout.autosize = true;
    delete layout.width;
    figure.layout = layout;
    return figure;
  }

  /* -- drawing --------------------------------------------------------------------------- */

  class ChartView {
    constructor(Plotly, chart, file, signal) {
      this.Plotly = Plotly;
      this.chart = chart;
      this.file = file;
      this.signal = signal;
      this.touch = touchScreen();
      // Plotly measures its labels as it lays them out: drawn before the site's fonts arrive, the
      // legend and margins would be sized in a fallback font. A font that fails is no reason to wait.
      this.queue = document.fonts ? document.fonts.ready.catch(() => undefined) : Promise.resolve();
      this.armed = null; // on a touch screen, the point whose tooltip the first tap showed
      this.plot = OR.h("div", { class: "or-chart__plot", role: "figure", "aria-label": file.label || "chart" });
      this.note = OR.h("div", { class: "or-chart__notes" });
      this.index = this.initialPanel(OR.params());
      const parts = [];
      if (file.panels.length > 1) {
        this.select = OR.h(
          "select",
          { class: "or-chart__select" },
          file.panels.map((panel, i) => OR.h("option", { value: String(i) }, String(panel.name || ""))),
        );
        this.select.value = String(this.index);
        this.select.addEventListener("change", () => {
          this.index = Number(this.select.value);
          this.render();
        });
        parts.push(OR.h("label", { class: "or-chart__picker" }, "Model ", this.select));
      }
      parts.push(this.plot, this.note);
      chart.replaceChildren(...parts);
    }

    /**
     * The panel of the model the address names (?model=, as the tables filter): its own panel, else
     * its first of another training method ("Llama 3 70B · LoRA"); -1 for none.
     */
    namedPanel(params) {
      const named = params.get("model");
      if (!named) return -1;
      const exact = this.file.panels.findIndex((panel) => panel.name === named);
      return exact >= 0 ? exact : this.file.panels.findIndex((panel) => String(panel.name).startsWith(`${named} · `));
    }

    /** The panel the address names, else the file's choice. */
    initialPanel(params) {
      const found = this.namedPanel(params);
      const chosen = Number.isInteger(this.file.selected) ? this.file.selected : 0;
      return found >= 0 ? found : Math.min(Math.max(chosen, 0), this.file.panels.length - 1);
    }

    /** Back or forward to another ?model=: show it when this chart has it. */
    follow(params) {
      const found = this.namedPanel(params);
      if (found < 0 || found === this.index) return;
      this.index = found;
      if (this.select) this.select.value = String(found);
      this.render();
    }

    /** Draw the chosen panel at the current prices and palette (queued: one draw at a time). */
    render() {
      this.queue = this.queue
        .then(() => this.draw())
        .catch(() => {
          if (!this.signal.aborted) fail(this.chart, "the figure could not be drawn");
        });
      return this.queue;
    }

    draw() {
      if (this.signal.aborted || !this.chart.isConnected) return undefined;
      const panel = this.file.panels[this.index];
      const figure = structuredClone(panel.figure || {}); // Plotly writes into what it draws
      figure.data = Array.isArray(figure.data) ? figure.data : [];
      const notes = Array.isArray(panel.notes) ? panel.notes.map(String) : [];
      let enough = true;
      if (this.file.kind === "cost") {
        const priced = price(figure, basis());
        enough = priced.count >= MIN_POINTS;
        if (!enough) {
          notes.unshift(
            `${priced.count === 0 ? "None" : `Only ${priced.count}`} of these recipes ` +
              `${priced.count === 1 ? "has" : "have"} a price: too few for a chart (the table lists them).`,
          );
        }
        notes.push(...priced.notes);
      }
      const colours = theme();
      this.note.replaceChildren(...notes.map((note) => OR.h("p", { class: "or-note" }, note)));
      this.armed = null;
      if (!enough) {
        this.Plotly.purge(this.plot);
        drawn.delete(this.plot);
        this.plot.hidden = true;
        this.drawn(colours);
        return undefined;
      }
      this.plot.hidden = false;
      this.plot.setAttribute("aria-label", [this.file.label, panel.name].filter(Boolean).join(": "));
      themed(figure, colours);
      const config = {
        // Not Plotly's `responsive` (a window listener, which a resize still in flight when the page is
        // left can add back after purging): a ResizeObserver per chart, disconnected with the page.
        responsive: false,
        displaylogo: false,
        // On a phone the bar would sit over the legend and the points; zooming by a drag with no
        // bar to reset it would strand the reader, so there is no drag either.
        displayModeBar: this.touch ? false : "hover",
        showTips: false,
        scrollZoom: false,
      };
      if (this.touch) {
        figure.layout.dragmode = false;
        for (const trace of figure.data) {
          if (typeof trace.hovertemplate === "string") {
            trace.hovertemplate = trace.hovertemplate.replace("<extra>", "<br><i>Tap again to open</i><extra>");
          }
        }
      }
      const first = !drawn.has(this.plot);
      return Promise.resolve(this.Plotly.react(this.plot, figure.data, figure.layout, config)).then(() => {
        if (this.signal.aborted) {
          this.Plotly.purge(this.plot);
          return;
        }
        if (first) {
          drawn.add(this.plot);
          this.plot.on("plotly_click", (event) => this.click(event));
          // A tap reaches Plotly twice: as touch events, then as the mouse events the browser makes
          // of them, which would be a second tap on the same point. Cancelling the touch's end
          // cancels those (a scroll, decided when the touch moves, still scrolls).
          this.plot.addEventListener("touchend", (event) => event.cancelable && event.preventDefault(), {
            passive: false,
            signal: this.signal,
          });
          this.followWidth();
        }
        this.drawn(colours);
      });
    }

    /** Mark the chart drawn, in which palette and how many times (tests wait for a redraw). */
    drawn(colours) {
      this.chart.setAttribute("data-or-drawn", colours.scheme);
      this.chart.setAttribute("data-or-renders", String(Number(this.chart.getAttribute("data-or-renders") || 0) + 1));
    }

    click(event) {
      const point = event && event.points && event.points[0];
      if (!point) return;
      const target = Array.isArray(point.customdata) ? point.customdata[0] : null;
      const origin = event.event;
      const tapped = this.touch || (origin && (/^touch/.test(origin.type || "") || origin.pointerType === "touch"));
      if (tapped) {
        const key = `${point.curveNumber}:${point.pointNumber}`;
        if (this.armed !== key) {
          // The first tap: show the tooltip (as a mouse's hover would), open on the next tap.
          this.armed = key;
          try {
            this.Plotly.Fx.hover(this.plot, [{ curveNumber: point.curveNumber, pointNumber: point.pointNumber }]);
          } catch (error) {
            /* the tooltip is a courtesy */
          }
          return;
        }
      }
      this.armed = null;
      open(target);
    }

    /** Redraw at the container's new width (window resized, phone turned, sidebar shown). */
    followWidth() {
      const { Plotly, plot, signal } = this;
      let width = plot.clientWidth;
      let frame = 0;
      const resize = () => {
        cancelAnimationFrame(frame);
        frame = requestAnimationFrame(() => {
          if (signal.aborted || !plot.isConnected || !drawn.has(plot) || plot.hidden) return;
          if (plot.clientWidth === width) return;
          width = plot.clientWidth;
          Promise.resolve()
            .then(() => Plotly.Plots.resize(plot))
            .catch(() => {
              /* left or hidden meanwhile: nothing to redraw */
            });
        });
      };
      if (typeof ResizeObserver === "function") {
        const observer = new ResizeObserver(resize);
        observer.observe(plot);
        signal.addEventListener("abort", () => observer.disconnect(), { once: true });
      } else {
        window.addEventListener("resize", resize, { signal });
      }
      signal.addEventListener("abort", () => cancelAnimationFrame(frame), { once: true });
    }
  }

  function open(target) {
    if (typeof target !== "string" || !target) return;
    let url;
    try {
      url = OR.siteUrl(target);
    } catch (error) {
      return; // only pages of this site
    }
    // A link click, so Material's instant navigation takes it when it is on.
    const link = OR.h("a", { href: url.href, hidden: true });
    document.body.appendChild(link);
    link.click();
    link.remove();
  }

  function watchPalette(views, signal) {
    const observer = new MutationObserver(() => {
      const scheme = document.body.getAttribute("data-md-color-scheme") || "default";
      for (const view of views) if (view.chart.getAttribute("data-or-drawn") !== scheme) view.render();
    });
    observer.observe(document.body, { attributes: true, attributeFilter: ["data-md-color-scheme"] });
    signal.addEventListener("abort", () => observer.disconnect(), { once: true });
  }

  // For the tests: the arithmetic that must agree with charts.py.
  OR.charts = { paretoFront, axisType, usdPerMillion, priceText, escape };
})();
