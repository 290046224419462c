"""The test vectors the page scripts are held to, made by the Python side: `tests/vectors/*.json`.

What is computed both in Python (at build time) and in the page scripts (in the reader's browser)
must agree digit for digit. Each file here gives inputs and what the Python side makes of them;
`node --test tests/js/` checks that `docs/assets/*.js` make the same, without a browser, and
tests/test_vectors.py checks that each committed file is what this module makes now (so a change
on the Python side fails until the file is made again and the scripts agree with it):

    .venv/bin/python tests/vectors/make.py

Values cross to JavaScript as JSON, which cannot tell 9000.0 from 9000: a whole float is written
as an integer here, and the Python side is asked about that integer (`_js`). `fmt.as_written`
writes a whole float as the integer it equals, as JavaScript must, so a recipe's `gpu_hours:
1024.0` is "1,024" on its page and on the compare page alike (tests/test_reader_view.py holds
that). Integers past 2^53, NaN, infinities and -0.0 have no JSON or JavaScript counterpart and are
not used.

Every case is held equal: negative numbers that round to zero ("0.00") and percentages of very
large fractions (the decimal point moved in the written number) included.
"""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from openrecipes import describe, fmt, loader, markup
from openrecipes.checking import pricebasis
from openrecipes.site import charts, facts

HERE = Path(__file__).resolve().parent


def _js(value: Any) -> Any:
    """`value` as JavaScript reads it from JSON: a whole float is an integer (from 10^16 Python too
    writes a float without its ".0", in exponent form, and the float stays)."""
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e16:
        return int(value)
    return value


# -- numbers (fmt.py, describe.py) and core.js ------------------------------------------------------


def _numbers() -> list[float | int]:
    """Values every formatting function is asked about: the site's figures, rounding boundaries
    (at every decimal the functions are used with), tiny and huge ones, and seeded random ones."""
    values: list[float | int] = [0, 1, 0.5, 0.005, 0.125, 0.135, 1.005, 2.675, 1.8402225385395443, 0.92802]
    values += [24.4198, 1194.3, 9000, 25623920640, 123456789.125, 0.1857, 0.38515, 3.99 / 1194.3]
    # Halves at 0-3 decimals, and the values next to them.
    values += [0.5, 1.5, 2.5, 0.05, 0.15, 0.25, 0.0005, 0.0015, 9.5, 99.5, 99.95, 99.995, 999.5, 999.95, 999.995]
    values += [0.9995, 0.99995, 0.99996, 0.999999, 0.0999949, 0.099996, 0.0099995, 0.00012345, 0.212345, 0.0051234]
    values += [0.49999999999999994, 0.5000000000000001, 0.0004999, 0.00050001, 1.0049999999999999, 2.6749999999999998]
    # Thousands separators at every length.
    values += [999, 1000, 9999.999, 99999.9999, 999999.5, 1e6, 1234567.891, 2**31, 2**53 - 1, 2**53]
    # Tiny and huge: the shortest text of the float, never its exponent form.
    values += [1e-4, 1e-7, 1.5e-7, 1e-12, 1.2345e-15, 5e-324, 1e21, 1.5e21, 1e22, 1e24, 1.2345678901234567e24]
    # Negative values (nothing the site formats is negative, but nothing refuses one), away from 0.
    values += [-1, -0.5, -1.5, -2.675, -1194.35, -0.1857, -0.00012345, -25623920640, -1e21]
    rng = random.Random(4)
    values += [round(rng.uniform(0, 10_000), rng.randint(0, 6)) for _ in range(300)]
    values += [rng.uniform(0, 2) * 10 ** -rng.randint(0, 7) for _ in range(300)]
    values += [rng.uniform(1, 1000) * 10 ** rng.randint(0, 15) for _ in range(30)]
    return [_js(value) for value in dict.fromkeys(values)]


def _pairs() -> list[tuple[float | int, float | int]]:
    """(value, base) pairs for relative changes: on both sides of 'same' (under 0.05%) and of each
    rounding step, against 0, seeded random ones, and a change of up to 0.15% of every number."""
    rng = random.Random(5)
    pairs = [(v, base) for base in (1, 900.0, 2000, 0.1857) for v in (base, base * 1.0005, base * 0.9995)]
    pairs += [(v, base) for base in (1, 1000) for v in (base * 1.0004999, base * 1.0005001, base * 0.9995001)]
    pairs += [(2001, 2000), (1999, 2000), (1.0005, 1), (0.9995, 1), (5, 0), (0, 5), (0, 0), (700.0, 900.0)]
    pairs += [(2.7302, 2.1235), (7.912 / 90, 6.88 / 900), (4.5 / 90, 3.85 / 900), (1e-9, 1e-3), (1e9, 1)]
    pairs += [(rng.uniform(0, 1000), rng.uniform(0.001, 1000)) for _ in range(300)]
    bases = (0.3, 1.19, 24.42, 2000)
    pairs += [(base * (1 + rng.randint(-30, 30) / 20_000), base) for base in bases for _ in range(10)]
    pairs += [(base * (1 + rng.randint(-30, 30) / 20_000), base) for base in _numbers() if base]
    return [(_js(value), _js(base)) for value, base in pairs]


def format_vectors() -> dict[str, Any]:
    values = _numbers()
    number = [[v, places, fmt.number(v, places)] for v in values for places in (0, 1, 2, 3)]
    usd = [[v, None, fmt.usd(v)] for v in values if v >= 0]
    usd += [[v, places, fmt.usd(v, places)] for v in values for places in (2, 3, 4)]
    percent = [[v, places, fmt.percent(v, places)] for v in values for places in (0, 1, 2)]
    return {
        "about": "fmt.py and describe.relative_change against docs/assets/core.js (OpenRecipes.number, usd,"
        " percent, asWritten, relativeChange); each case is [arguments..., expected]",
        "number": number,
        "usd": usd,
        "percent": percent,
        "as_written": [[v, fmt.as_written(v)] for v in values],
        "relative_change": [[v, base, describe.relative_change(v, base)] for v, base in _pairs()],
        "missing": {"not_published": facts.NOT_PUBLISHED, "no_price": facts.NO_PRICE},
    }


# -- chart arithmetic (site/charts.py) and charts.js ------------------------------------------------


def charts_vectors() -> dict[str, Any]:
    rng = random.Random(12)
    fronts: list[list[tuple[float, float]]] = [
        [],
        [(1.0, 1.0)],
        [(1.0, 1.0), (1.0, 1.0)],  # the same point twice
        [(2.0, 1.0), (1.0, 1.0), (3.0, 1.0)],  # equal prices
        [(2.0, 3.0), (2.0, 1.0), (2.0, 2.0)],  # equal throughputs
        [(1.0, 5.0), (2.0, 4.0), (3.0, 3.0), (4.0, 2.0)],  # all on the frontier
        [(4.0, 2.0), (3.0, 3.0), (2.0, 4.0), (1.0, 5.0)],  # the same, in the other order
        [(1.0, 1.0), (2.0, 2.0), (3.0, 3.0)],  # each faster one dearer: every point on it
        [(3.0, 1.0), (2.0, 2.0), (1.0, 3.0)],  # the fastest is the cheapest: one point
        [(900.0, 2.0 / 3.24), (700.0, 2.0 / 2.52), (2000.0, 20.0 / 7.2), (90.0, 3.0 / 0.324)],
    ]
    for _ in range(200):
        count = rng.randint(1, 25)
        fronts.append(
            [
                (rng.choice([rng.uniform(1, 5e4), 100.0, 900.0]), rng.choice([rng.random() * 5, 0.5]))
                for _ in range(count)
            ]
        )
    spans = [[], [5.0], [0.0], [-3.0, 50.0], [1.0, 10.0], [1.0, 10.000001], [0.0, 1.0, 50.0], [3.0, 3.0]]
    spans += [[0.06, 0.1], [16.0, 1413.0], [0.1, 1.0], [0.1, 1.0000000000000002], [1e-9, 1e-8, 1.01e-8], [2e30, 1e29]]
    spans += [[rng.uniform(0, 1) * 10 ** rng.randint(-3, 4) for _ in range(rng.randint(2, 8))] for _ in range(40)]
    prices = [(6.88, 900.0), (7.912, 1194.3), (2.0, 900.0), (3.85, 90.0), (0.2, 90.0), (1.0, 3.0), (15.0, 10.0)]
    prices += [(2.95, 1e5), (0.01, 5e4), (100.0, 0.5), (1e-3, 1e6)]
    prices += [(round(rng.uniform(0.5, 15), rng.randint(1, 4)), round(rng.uniform(10, 5e4), 1)) for _ in range(100)]
    prices += [(rng.uniform(0.5, 15), rng.uniform(10, 5e4)) for _ in range(200)]
    prices = [(_js(p), _js(t)) for p, t in prices]
    texts = ["<b>bold</b> & 'q' \"dq\"", "a<br>b", "&amp;", "plain", "", "Llama 3.1 70B on 8 × H100 · TP8 PP1"]
    texts += ["<script>alert(1)</script>", 'it\'s "quoted" & <tagged>', "<img src=x onerror=alert(1)>", "ä → 漢字 🙂"]
    return {
        "about": "site/charts.py against docs/assets/charts.js (OpenRecipes.charts); each case is"
        " [arguments..., expected]",
        "pareto_front": [[points, charts.pareto_front(points)] for points in fronts],
        "axis_type": [[values, charts.axis_type(values)] for values in spans],
        "usd_per_million": [[p, t, pricebasis.usd_per_million_tokens(p, t)] for p, t in prices],
        "price_text": [[p, t, charts.price_text(p, t)] for p, t in prices],
        "escape": [[text, charts.escape(text)] for text in texts],
    }


# -- the price basis (checking/pricebasis.py) and price.js ------------------------------------------

PRICES = {
    # $ per GPU-hour of each preset (pricebasis.PRESETS, in order), made up: the arithmetic is the point.
    "cheapest": {"H100": 2.95, "H200": 3.85, "B200": 5.5},
    "hyperscaler": {"H100": 6.88, "H200": 7.912, "B200": 14.24},
    "neocloud": {"H100": 2.95, "H200": 4.5},
}
GPUS = ["H100", "H200", "B200", "MI300X"]  # MI300X: no price in any preset


def price_data() -> dict[str, Any]:
    """Presets in the shape of `assets/prices.json` (pricebasis.price_data), with made-up prices."""
    presets = []
    for preset in pricebasis.PRESETS:
        prices = {
            gpu: {
                "instance": f"Example {gpu} ({preset.key})",
                "provider": "Example",
                "usd_per_gpu_hour": price,
                "as_of": "2026-01-01",
            }
            for gpu, price in PRICES[preset.key].items()
        }
        description = f"the {preset.key} prices"
        presets.append({"key": preset.key, "label": preset.label, "description": description, "prices": prices})
    return {"default": pricebasis.DEFAULT.key, "gpus": GPUS, "presets": presets}


BASES: list[tuple[str, dict[str, float]]] = [
    # (preset, own prices): as the address gives them (?basis=...&H100=2.5).
    (pricebasis.DEFAULT.key, {}),
    ("hyperscaler", {}),
    ("neocloud", {}),
    (pricebasis.DEFAULT.key, {"H200": 0.2}),
    ("neocloud", {"MI300X": 2, "H100": 1.2345}),
]
FIGURES = [
    # (GPU, tokens/s per GPU, GPU-hours of the run): a recipe page's figures, and an alternative's.
    ("H100", 900.0, 1024.0),
    ("H100", 1194.3, 0.5),
    ("H200", 90.0, 26.7),
    ("H200", 4112.5, 3.0),
    ("B200", 20000.0, 1e-3),
    ("MI300X", 2000.0, 100.0),
]


def _basis_price(preset: str, own: dict[str, float], gpu: str) -> float | None:
    return own[gpu] if gpu in own else PRICES[preset].get(gpu)


def prices_vectors() -> dict[str, Any]:
    """What a page's figures read at each basis, as the build writes them at its own (the default):
    the $ / 1M (recipe.md.j2: `usd`, else facts.NO_PRICE), the change against the page's recipe
    (`(describe.relative_change)`) and the run cost (`usd` of GPU-hours × $ per GPU-hour, else
    "unpriced")."""
    bases = []
    base_gpu, base_tokens, _ = FIGURES[0]
    for preset, own in BASES:
        query = [("basis", preset)] if preset != pricebasis.DEFAULT.key else []
        query += [(gpu, str(_js(price))) for gpu, price in own.items()]
        figures = []
        base_price = _basis_price(preset, own, base_gpu)
        base_usd = pricebasis.usd_per_million_tokens(base_price, base_tokens) if base_price else None
        for gpu, tokens, hours in FIGURES:
            price = _basis_price(preset, own, gpu)
            usd = pricebasis.usd_per_million_tokens(price, tokens) if price is not None else None
            figures.append(
                {
                    "gpu": gpu,
                    "tokens_per_s": _js(tokens),
                    "gpu_hours": _js(hours),
                    "usd_per_million": usd,
                    # Without a price from the default preset the script names the basis, which the
                    # build never does: not checked (None).
                    "usd_text": fmt.usd(usd)
                    if usd is not None
                    else facts.NO_PRICE
                    if preset == pricebasis.DEFAULT.key and gpu not in own
                    else None,
                    "delta_text": f"({describe.relative_change(usd, base_usd)})"
                    if usd is not None and base_usd is not None
                    else "",
                    "run_cost_text": fmt.usd(hours * price) if price is not None else "unpriced",
                }
            )
        bases.append({"query": query, "base": [base_gpu, _js(base_tokens)], "figures": figures})
    return {
        "about": "checking/pricebasis.py and what recipe.md.j2 writes at the price basis, against"
        " docs/assets/price.js rewriting a page's figures at the basis the address names",
        "prices": price_data(),
        "bases": bases,
    }


# -- the catalogue table's default order (loader.table_order_key) and table.js ----------------------


def _rows() -> list[dict[str, Any]]:
    rng = random.Random(20)
    rows = [
        # Ties on everything but the id (as Python compares strings: capitals first).
        {"id": "m/h100/b", "gpu": "H100", "tokens": 900.0, "mfu": 0.4},
        {"id": "m/h100/a", "gpu": "H100", "tokens": 900.0, "mfu": 0.4},
        {"id": "m/h100/B", "gpu": "H100", "tokens": 900.0, "mfu": 0.4},
        {"id": "m/h100/a-1", "gpu": "H100", "tokens": 900.0, "mfu": 0.4},
        {"id": "m/h100/a.1", "gpu": "H100", "tokens": 900.0, "mfu": 0.4},
        {"id": "m/h100/a_1", "gpu": "H100", "tokens": 900.0, "mfu": 0.4},
        {"id": "m/h100/a10", "gpu": "H100", "tokens": 900.0, "mfu": 0.4},
        {"id": "m/h100/a9", "gpu": "H100", "tokens": 900.0, "mfu": 0.4},
        # The same price: higher MFU first, no MFU last.
        {"id": "m/h100/c", "gpu": "H100", "tokens": 900.0, "mfu": 0.41},
        {"id": "m/h100/d", "gpu": "H100", "tokens": 900.0, "mfu": None},
        {"id": "m/h100/e", "gpu": "H100", "tokens": 900.0, "mfu": 0.0},
        # No price at the default basis (MI300X): last, by MFU then id.
        {"id": "m/mi300x/a", "gpu": "MI300X", "tokens": 2000.0, "mfu": 0.3},
        {"id": "m/mi300x/b", "gpu": "MI300X", "tokens": 5000.0, "mfu": None},
        {"id": "m/mi300x/c", "gpu": "MI300X", "tokens": 1000.0, "mfu": 0.5},
        # Prices a hair apart, and the cheapest.
        {"id": "m/h200/a", "gpu": "H200", "tokens": 1174.5762711864406, "mfu": 0.2},
        {"id": "m/h200/b", "gpu": "H200", "tokens": 1174.576271186441, "mfu": 0.1},
        {"id": "m/b200/a", "gpu": "B200", "tokens": 60000.0, "mfu": 0.05},
        # Throughputs derived from a publisher's figure: never ranked, the cheapest and an unpriced one.
        {"id": "m/h100/derived", "gpu": "H100", "tokens": 90000.0, "mfu": 0.6, "derived": True},
        {"id": "m/mi300x/derived", "gpu": "MI300X", "tokens": 900.0, "mfu": 0.3, "derived": True},
    ]
    for index in range(40):
        gpu = rng.choice(GPUS)
        rows.append(
            {
                "id": f"r/{gpu.lower()}/r{index:02d}",
                "gpu": gpu,
                "tokens": rng.choice([900.0, 1000.0, round(rng.uniform(50, 20000), rng.randint(0, 3))]),
                "mfu": rng.choice([None, 0.4, round(rng.uniform(0.05, 0.7), 4)]),
            }
        )
    rng.shuffle(rows)
    return [{**row, "tokens": _js(row["tokens"])} for row in rows]


def _order(rows: list[dict[str, Any]], preset: str, own: dict[str, float]) -> list[str]:
    """loader.table_order_key of `rows` priced at the basis."""

    def entry(row: dict[str, Any]) -> Any:
        price = _basis_price(preset, own, row["gpu"])
        usd = pricebasis.usd_per_million_tokens(price, row["tokens"]) if price is not None else None
        source = object() if row.get("derived") else None  # Derived.tokens_from
        derived = SimpleNamespace(usd_per_million_tokens=usd, mfu=row["mfu"], tokens_from=source)
        return SimpleNamespace(derived=derived, recipe=SimpleNamespace(id=row["id"]))

    return [row["id"] for row in sorted(rows, key=lambda row: loader.table_order_key(entry(row)))]


def order_vectors() -> dict[str, Any]:
    """Rows as the table reads them from the page (each cell's data-value, as the template writes
    it: `fact.sort_value(entry) | attr`), and their order at each basis."""
    rows = _rows()
    table_rows = []
    for row in rows:
        price = _basis_price(pricebasis.DEFAULT.key, {}, row["gpu"])
        usd = pricebasis.usd_per_million_tokens(price, row["tokens"]) if price is not None else None
        # A derived throughput's MFU has no sort value (facts.Fact.ranked), and its price cell data-derived.
        values = {"usd": markup.html_text(usd), "mfu": markup.html_text(None if row.get("derived") else row["mfu"])}
        table_row = {"id": row["id"], "gpu": row["gpu"], "tokens": row["tokens"], "values": values}
        table_rows.append({**table_row, "derived": True} if row.get("derived") else table_row)
    orders = []
    for preset, own in BASES:
        query = [("basis", preset)] if preset != pricebasis.DEFAULT.key else []
        query += [(gpu, str(_js(price))) for gpu, price in own.items()]
        orders.append({"query": query, "order": _order(rows, preset, own)})
    return {
        "about": "loader.table_order_key against docs/assets/table.js (OpenRecipes.table.defaultOrder), at"
        " the build's prices (the rows' data-value) and at each basis price.js gives",
        # What assets/facets.js gives table.js (export.py), and the header's cells of the columns the
        # order sorts by (the others play no part in it: a column added to the registry changes nothing here).
        "table_order": [{"key": key, "dir": direction} for key, direction in facts.DEFAULT_ORDER],
        "columns": [
            {"key": fact.key, "cell": fact.column, "numeric": fact.numeric}
            for fact in facts.COLUMNS
            if fact.key in dict(facts.DEFAULT_ORDER)
        ],
        "prices": price_data(),
        "rows": table_rows,
        "orders": orders,
    }


# -- the files --------------------------------------------------------------------------------------

VECTORS: dict[str, Callable[[], dict[str, Any]]] = {
    "format": format_vectors,
    "charts": charts_vectors,
    "prices": prices_vectors,
    "order": order_vectors,
}


def dump(data: dict[str, Any]) -> str:
    """JSON with one case per line, so that a change shows as the cases it changes."""

    def text(value: Any) -> str:
        return json.dumps(value, ensure_ascii=False, allow_nan=False)

    parts = []
    for key, value in data.items():
        if isinstance(value, list) and value:
            value_text = "[\n" + ",\n".join(f"  {text(item)}" for item in value) + "\n ]"
        else:
            value_text = text(value)
        parts.append(f" {text(key)}: {value_text}")
    return "{\n" + ",\n".join(parts) + "\n}\n"


def texts() -> dict[str, str]:
    """Each vector file's name and the text it should have."""
    return {f"{name}.json": dump(make()) for name, make in VECTORS.items()}


def main() -> int:
    for name, text in texts().items():
        path = HERE / name
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            path.write_text(text, encoding="utf-8")
            print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
