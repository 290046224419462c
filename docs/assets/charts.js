/*
 * Charts: every .or-chart names a figure the build wrote (data-chart="home-cost" is the file
 * charts/home-cost.json on this site). Figures and the site's own copy of plotly.min.js are
 * loaded from the site's root (OpenRecipes.siteRoot, from where the scripts were loaded), never
 * from an address found in the page; a name that is not a plain file name is refused. Plotly is
 * loaded once, and only on a page that has a chart; recipe pages never load it.
 *
 * The figures carry no theme: colours come from Material's palette (body[data-md-color-scheme],
 * its CSS variables) when a chart is drawn, and charts are redrawn when the reader toggles it.
 * Each point's customdata is its recipe page's address relative to the site's root: a click
 * opens it (through Material's instant navigation when it is on). Charts are purged when the
 * page is left, follow the width of their container (a ResizeObserver), and never log an error:
 * a chart that cannot be drawn says so in its place.
 */
(function () {
  "use strict";

  const OR = window.OpenRecipes;
  const CHART_NAME = /^[a-z0-9][a-z0-9._-]{0,200}$/;
  const PLOTLY = "assets/javascripts/plotly.min.js";
  const figures = new Map(); // chart name -> promise of its figure, kept across pages
  let plotlyStyles = []; // Plotly's <style> elements, kept across instant navigation
  let drawn = new Set(); // chart elements of the page shown, to purge when it is left

  OR.onPage((doc, signal) => {
    purge();
    const charts = Array.from(doc.querySelectorAll(".or-chart[data-chart]"));
    if (!charts.length) return;
    OR.loadScript(OR.siteUrl(PLOTLY).href, "Plotly")
      .then((Plotly) => {
        if (signal.aborted) return;
        keepStyles();
        for (const chart of charts) {
          figure(chart.getAttribute("data-chart"))
            .then((data) => {
              if (!signal.aborted) draw(Plotly, chart, data, signal);
            })
            .catch((error) => {
              if (!signal.aborted) fail(chart, error.message);
            });
        }
        watchPalette(Plotly, charts, signal);
      })
      .catch(() => {
        if (!signal.aborted) charts.forEach((chart) => fail(chart, "the chart library could not be loaded"));
      });
  });

  /** The figure the build wrote under `name`, fetched once. */
  function figure(name) {
    if (!CHART_NAME.test(name || "")) return Promise.reject(new Error("it names no chart of this site"));
    if (!figures.has(name)) {
      const url = OR.siteUrl(`charts/${name}.json`).href;
      const promise = fetch(url, { credentials: "same-origin" })
        .then((response) => {
          if (!response.ok) throw new Error(`its data could not be loaded (${response.status})`);
          return response.json();
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
      for (const chart of drawn) {
        try {
          window.Plotly.purge(chart);
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
    const grid = resolveColour(variable("--md-default-fg-color--lightest"), "rgba(0,0,0,0.07)");
    const line = resolveColour(variable("--md-default-fg-color--lighter"), "rgba(0,0,0,0.32)");
    const background = resolveColour(variable("--md-default-bg-color"), "#fff");
    const axis = { gridcolor: grid, zerolinecolor: line, linecolor: line, tickcolor: line };
    return {
      scheme: document.body.getAttribute("data-md-color-scheme") || "default",
      layout: {
        paper_bgcolor: "rgba(0,0,0,0)",
        plot_bgcolor: "rgba(0,0,0,0)",
        font: { color: text, family: style.fontFamily || "sans-serif" },
        hoverlabel: { bgcolor: background, bordercolor: line, font: { color: text } },
        legend: { bgcolor: "rgba(0,0,0,0)" },
        xaxis: axis,
        yaxis: axis,
      },
    };
  }

  /** `layout` with the theme's values where the figure does not set its own. */
  function themed(layout, colours) {
    const out = JSON.parse(JSON.stringify(layout || {}));
    const merge = (target, source) => {
      for (const [key, value] of Object.entries(source)) {
        if (value && typeof value === "object" && !Array.isArray(value)) {
          if (!target[key] || typeof target[key] !== "object") target[key] = {};
          merge(target[key], value);
        } else {
          target[key] = value;
        }
      }
    };
    merge(out, colours.layout);
    out.autosize = true;
    delete out.width;
    return out;
  }

  /* -- drawing --------------------------------------------------------------------------- */

  function draw(Plotly, chart, shared, signal) {
    const figure = structuredClone(shared); // Plotly writes into what it draws; the cache stays clean
    const data = Array.isArray(figure.data) ? figure.data : [];
    // Not Plotly's `responsive` (a window listener, which a resize still in flight when the page is
    // left can add back after purging): a ResizeObserver per chart, disconnected with the page.
    const config = { responsive: false, displaylogo: false, displayModeBar: "hover", showTips: false };
    chart.orFigure = { data, layout: figure.layout || {}, config };
    const colours = theme();
    Promise.resolve()
      .then(() => Plotly.newPlot(chart, data, themed(chart.orFigure.layout, colours), config))
      .then(() => {
        if (signal.aborted) {
          Plotly.purge(chart);
          return;
        }
        drawn.add(chart);
        chart.setAttribute("data-or-drawn", colours.scheme);
        chart.on("plotly_click", (event) => open(event));
        follow(Plotly, chart, signal);
      })
      .catch(() => fail(chart, "the figure could not be drawn"));
  }

  /** Redraw `chart` at its container's new width (window resized, phone turned, sidebar shown). */
  function follow(Plotly, chart, signal) {
    let width = chart.clientWidth;
    let frame = 0;
    const resize = () => {
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(() => {
        if (signal.aborted || !chart.isConnected || !drawn.has(chart) || chart.clientWidth === width) return;
        width = chart.clientWidth;
        Promise.resolve()
          .then(() => Plotly.Plots.resize(chart))
          .catch(() => {
            /* left or hidden meanwhile: nothing to redraw */
          });
      });
    };
    if (typeof ResizeObserver === "function") {
      const observer = new ResizeObserver(resize);
      observer.observe(chart);
      signal.addEventListener("abort", () => observer.disconnect(), { once: true });
    } else {
      window.addEventListener("resize", resize, { signal });
    }
    signal.addEventListener("abort", () => cancelAnimationFrame(frame), { once: true });
  }

  function open(event) {
    const point = event && event.points && event.points[0];
    const target = point && point.customdata;
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

  function watchPalette(Plotly, charts, signal) {
    const observer = new MutationObserver(() => {
      const colours = theme();
      for (const chart of charts) {
        if (!chart.orFigure || !drawn.has(chart) || chart.getAttribute("data-or-drawn") === colours.scheme) continue;
        const { data, layout, config } = chart.orFigure;
        Promise.resolve()
          .then(() => Plotly.react(chart, data, themed(layout, colours), config))
          .then(() => chart.setAttribute("data-or-drawn", colours.scheme))
          .catch(() => fail(chart, "the figure could not be redrawn"));
      }
    });
    observer.observe(document.body, { attributes: true, attributeFilter: ["data-md-color-scheme"] });
    signal.addEventListener("abort", () => observer.disconnect(), { once: true });
  }
})();
