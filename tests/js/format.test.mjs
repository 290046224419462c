// Numbers as the site's Python side writes them (fmt.py, describe.relative_change) against
// docs/assets/core.js, from tests/vectors/format.json.
import assert from "node:assert/strict";
import { test } from "node:test";
import { disagreements, openPage, vectors } from "./harness.mjs";

const V = vectors("format");
const page = await openPage(["core.js"]);
const OR = page.OR;

test("OpenRecipes.number is fmt.number", () => {
  assert.deepEqual(disagreements(V.number, (value, places) => OR.number(value, places)), []);
});

test("OpenRecipes.usd is fmt.usd, with its own decimals or the ones given", () => {
  // null: the decimals usd chooses (fmt.usd(value), OpenRecipes.usd(value)).
  assert.deepEqual(disagreements(V.usd, (value, places) => OR.usd(value, places === null ? undefined : places)), []);
});

test("OpenRecipes.percent is fmt.percent", () => {
  assert.deepEqual(disagreements(V.percent, (fraction, places) => OR.percent(fraction, places)), []);
});

test("OpenRecipes.asWritten is fmt.as_written", () => {
  assert.deepEqual(disagreements(V.as_written, (value) => OR.asWritten(value)), []);
});

test("OpenRecipes.relativeChange is describe.relative_change", () => {
  assert.deepEqual(disagreements(V.relative_change, (value, base) => OR.relativeChange(value, base)), []);
});

test("what stands for a missing figure is spelt as facts.py spells it", () => {
  assert.equal(OR.NOT_PUBLISHED, V.missing.not_published);
  assert.equal(OR.NO_PRICE, V.missing.no_price);
  assert.deepEqual(page.warnings, []);
});
