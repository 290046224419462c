/*
 * Every row of a built site's assets/catalogue-rows.json drawn as docs/assets/table.js draws the
 * rows a page does not hold, at the default price basis: what tests/test_vectors.py compares with
 * the rows the build writes (catalogue_table.md.j2). Not a test of its own (it needs a built site):
 *
 *   node tests/js/rows.mjs SITE_DIR < columns.json
 *
 * columns.json: the tables' header cells, [{key, label, cell, numeric}]. Prints
 * {"site": the address the page was at, "warnings": [...], "rows": {id: [tag, attributes, children]}}.
 */
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { SITE, openPage, tree } from "./harness.mjs";

const site = pathToFileURL(`${process.argv[2]}/`);
const read = (path) => JSON.parse(readFileSync(new URL(path, site), "utf8"));
const columns = new Map(JSON.parse(readFileSync(0, "utf8")).map((column) => [column.key, column]));
const page = await openPage(["core.js", new URL("assets/facets.js", site), "price.js", "table.js"], {
  prices: read("assets/prices.json"),
});
const rows = page.OR.table.rowsFromData(read("assets/catalogue-rows.json"), columns, null);
const drawn = Object.fromEntries(rows.map((row) => [row.id, tree(page.OR.table.drawRow(row, columns))]));
process.stdout.write(JSON.stringify({ site: SITE, warnings: page.warnings, rows: drawn }));
