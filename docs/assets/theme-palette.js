/*
 * Applies the palette the reader chose (Material keeps it under "__palette") before the page is
 * painted: loaded right after the palette toggle in the header, in place of Material's inline
 * script. A choice of "follow the system" is resolved against the system's current preference.
 */
(function () {
  "use strict";

  const palette = window.__md_get("__palette");
  if (!palette || !palette.color) return;
  const color = Object.assign({}, palette.color);
  if (color.media === "(prefers-color-scheme)") {
    const light = matchMedia("(prefers-color-scheme: light)").matches;
    const input = document.querySelector(
      `[data-md-color-media='(prefers-color-scheme: ${light ? "light" : "dark"})']`,
    );
    if (input) {
      for (const name of ["media", "scheme", "primary", "accent"]) {
        color[name] = input.getAttribute(`data-md-color-${name}`);
      }
    }
  }
  for (const [name, value] of Object.entries(color)) {
    if (typeof value === "string") document.body.setAttribute(`data-md-color-${name}`, value);
  }
})();
