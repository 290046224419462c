/*
 * Live reload under `mkdocs serve`, which the site's Content-Security-Policy would otherwise stop.
 *
 * MkDocs' server adds an inline script to every page it sends; it asks the server (a long poll
 * of /livereload/<epoch>/<request>) and reloads the page once a newer build is done. The policy
 * (script-src 'self') refuses to run inline scripts, so that script never runs and an edit never
 * reaches the browser. This file, loaded from the site like every other script, does the same:
 * the two numbers it needs are read from the inline script's text, digits only, and the only
 * address it asks is the server's own. The hook adds it only while serving: a built site never
 * names it.
 */
(function () {
  "use strict";

  let epoch = null;
  let request = null;
  let pending = null;
  let timer = null;

  function poll() {
    const xhr = new XMLHttpRequest();
    pending = xhr;
    xhr.onloadend = () => {
      if (pending !== xhr) return;
      pending = null;
      if (parseFloat(xhr.responseText) > epoch) {
        location.reload();
      } else {
        timer = setTimeout(poll, xhr.status === 200 ? 0 : 3000);
      }
    };
    xhr.open("GET", `/livereload/${epoch}/${request}`);
    xhr.send();
  }

  function stop() {
    if (pending) pending.abort();
    if (timer) clearTimeout(timer);
    pending = timer = null;
  }

  // The server's script comes after every script of the site: it is read once the page is loaded.
  window.addEventListener("load", () => {
    let found = null;
    for (const script of document.querySelectorAll("script:not([src])")) {
      found = /livereload\((\d+), (\d+)\);/.exec(script.textContent) || found;
    }
    if (!found) return;
    epoch = Number(found[1]);
    request = found[2];
    // As MkDocs' own script: only while the page is visible.
    document.addEventListener("visibilitychange", () => (document.visibilityState === "visible" ? poll() : stop()));
    window.addEventListener("beforeunload", stop);
    if (document.visibilityState === "visible") poll();
  });
})();
