/*
 * The storage helpers Material for MkDocs expects as globals (__md_scope, __md_hash, __md_get,
 * __md_set). Material ships them as an inline script; the site's Content-Security-Policy runs
 * scripts from the site's own files only, so overrides/partials/javascripts/base.html loads this
 * file in their place. Values are JSON, stored per site under "<site path>.<key>".
 */
(function () {
  "use strict";

  // This file is assets/theme-state.js: the site's root is one folder up.
  const scope = new URL("../", document.currentScript ? document.currentScript.src : location.href);

  window.__md_scope = scope;

  window.__md_hash = function (text) {
    let hash = 0;
    for (const char of String(text)) hash = ((hash << 5) - hash + char.charCodeAt(0)) | 0;
    return hash;
  };

  window.__md_get = function (key, storage = localStorage, base = window.__md_scope) {
    try {
      return JSON.parse(storage.getItem(`${base.pathname}.${key}`));
    } catch (error) {
      return null;
    }
  };

  window.__md_set = function (key, value, storage = localStorage, base = window.__md_scope) {
    try {
      storage.setItem(`${base.pathname}.${key}`, JSON.stringify(value));
    } catch (error) {
      /* storage full or disabled: the choice is not kept */
    }
  };
})();
