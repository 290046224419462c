/*
 * A link to a content tab (#__tabbed_1_2) opens that tab: Material's inline script, as a file so
 * the site's Content-Security-Policy can refuse every inline script.
 */
(function () {
  "use strict";

  const target = location.hash ? document.getElementById(decodeURIComponent(location.hash.slice(1))) : null;
  if (target && target instanceof HTMLInputElement && target.name) {
    target.checked = target.name.startsWith("__tabbed_");
  }
})();
