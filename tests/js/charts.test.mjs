// The arithmetic docs/assets/charts.js shares with site/charts.py (it re-prices, re-draws the
// Pareto frontier and re-chooses the axes at the reader's price basis), from tests/vectors/charts.json.
import assert from "node:assert/strict";
import { test } from "node:test";
import { disagreements, openPage, vectors } from "./harness.mjs";

const V = vectors("charts");
const page = await openPage(["core.js", "charts.js"]);
const charts = page.OR.charts;

test("paretoFront is charts.pareto_front", () => {
  assert.deepEqual(disagreements(V.pareto_front, (points) => charts.paretoFront(points)), []);
});

test("axisType is charts.axis_type", () => {
  assert.deepEqual(disagreements(V.axis_type, (values) => charts.axisType(values)), []);
});

test("usdPerMillion is charts.usd_per_million, to the last bit", () => {
  assert.deepEqual(disagreements(V.usd_per_million, (price, tokens) => charts.usdPerMillion(price, tokens)), []);
});

test("priceText is charts.price_text", () => {
  assert.deepEqual(disagreements(V.price_text, (price, tokens) => charts.priceText(price, tokens)), []);
});

test("escape is charts.escape", () => {
  assert.deepEqual(disagreements(V.escape, (text) => charts.escape(text)), []);
  assert.deepEqual(page.warnings, []);
});
