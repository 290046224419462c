// docs/assets/price.js rewriting a page's figures at the price basis the address names, against
// what the build writes at a price (checking/pricebasis.py, recipe.md.j2), from tests/vectors/prices.json.
import assert from "node:assert/strict";
import { test } from "node:test";
import { FakeElement, openPage, vectors } from "./harness.mjs";

const V = vectors("prices");

for (const basis of V.bases) {
  const name = new URLSearchParams(basis.query).toString() || "the default basis";
  test(`figures at ${name}`, async () => {
    const [baseGpu, baseTokens] = basis.base;
    const figures = basis.figures.map((figure) => {
      const at = { "data-gpu": figure.gpu, "data-tokens-per-s": figure.tokens_per_s };
      return {
        figure,
        usd: new FakeElement({ "data-usd-per-mtok": "", ...at }),
        delta: new FakeElement({
          "data-usd-delta": "",
          ...at,
          "data-base-gpu": baseGpu,
          "data-base-tokens-per-s": baseTokens,
        }),
        cost: new FakeElement({ "data-run-cost": "", "data-gpu": figure.gpu, "data-gpu-hours": figure.gpu_hours }),
      };
    });
    const elements = figures.flatMap(({ usd, delta, cost }) => [usd, delta, cost]);
    const page = await openPage(["core.js", "price.js"], { query: basis.query, elements, prices: V.prices });
    const prices = page.OR.priceBasis;
    assert.equal(prices.loaded(), true);
    const got = figures.map(({ figure, usd, delta, cost }) => ({
      gpu: figure.gpu,
      usd_per_million: prices.usdPerMillion(figure.gpu, figure.tokens_per_s),
      shown: usd.orUsd,
      usd_text: figure.usd_text === null ? null : usd.textContent,
      delta_text: delta.textContent,
      run_cost_text: cost.textContent,
    }));
    const expected = figures.map(({ figure }) => ({
      gpu: figure.gpu,
      usd_per_million: figure.usd_per_million,
      shown: figure.usd_per_million,
      usd_text: figure.usd_text,
      delta_text: figure.delta_text,
      run_cost_text: figure.run_cost_text,
    }));
    assert.deepEqual(got, expected);
    assert.deepEqual(page.warnings, []);
    assert.deepEqual(page.requests, [`${page.OR.siteRoot.href}assets/prices.json`]);
  });
}
