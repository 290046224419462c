"""Numbers formatted for people: thousands separators, fixed decimals, halves rounded up.

Python's own formatting rounds the binary value half-to-even (`f"{0.125:.2f}"` is 0.12), which
a reader checking by hand would call a wrong digit; these helpers round the decimal text instead.
"""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Context, Decimal

# Digits enough for any figure formatted with its decimals: Decimal's default 28 digits refuse to
# show 10^25 with three decimals, and a figure recomputed from bounded fields can reach 10^24.
_CONTEXT = Context(prec=64)


def _rounded(value: float | Decimal, places: int) -> Decimal:
    exact = value if isinstance(value, Decimal) else Decimal(repr(value))
    rounded = exact.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP, context=_CONTEXT)
    return abs(rounded) if rounded.is_zero() else rounded  # -0.0001 is "0.00", never "-0.00"


def number(value: float | int, places: int = 0) -> str:
    """1194.3 -> '1,194.3' (places=1); 25623920640 -> '25,623,920,640'."""
    return f"{_rounded(value, places):,.{places}f}"


def usd(value: float, places: int | None = None) -> str:
    """A price: to the cent from a dollar up, to four significant figures below one, so that a
    cheap $ / 1M tokens keeps the digits that tell two recipes apart: 1.8402 -> '$1.84',
    0.212345 -> '$0.2123', 0.00512345 -> '$0.005123'. `places` fixes the decimals instead (a
    check's tolerance: `usd(x, 4)`). docs/assets/core.js `usd` applies the same rule."""
    return "$" + number(value, price_places(value) if places is None else places)


def price_places(value: float) -> int:
    """The decimals `usd` shows `value` with: 2 from $1 up, else four significant figures."""
    magnitude = abs(Decimal(repr(value)))
    if magnitude == 0 or magnitude >= 1:
        return 2
    places = 3 - magnitude.adjusted()
    rounded = _rounded(float(magnitude), places)
    if rounded >= 1:
        return 2  # 0.99996 rounds up to a dollar: to the cent
    if rounded.adjusted() > magnitude.adjusted():
        places -= 1  # 0.099996 rounds to 0.1000, four figures one place sooner
    return places


def percent(fraction: float, places: int = 1) -> str:
    """0.1857 -> '18.6%': the decimal point moved in the written number, not a float × 100."""
    return f"{_rounded(Decimal(repr(fraction)).scaleb(2), places):,.{places}f}%"


def as_written(value: float | int) -> str:
    """A stated figure with exactly the decimals it was written with: 5.8, 0.000236, 1,194.3; a
    whole number without a decimal point: 4912 and 4912.0 are both '4,912'. (YAML and JSON make
    4912.0 of `4912.0`, and JavaScript makes 4912 of it: a figure never reads '4,912.0' on one page
    and '4,912' on the next. docs/assets/core.js `asWritten` is the same rule.)"""
    return number(value, decimals(value))


def decimals(value: float | int) -> int:
    """The decimals `value` was written with: 0 for a whole number (int or float), else the
    decimals of the shortest text that reads back as the same float (1194.3 -> 1, 1e-07 -> 7)."""
    if isinstance(value, int) or float(value).is_integer():
        return 0
    text = repr(value)
    if "e" in text or "E" in text:
        text = format(Decimal(text), "f")
    return len(text.split(".")[1]) if "." in text else 0


def plural(count: float, word: str) -> str:
    """`1 node`, `2 nodes`, `1.5 nodes`."""
    return f"{count:g} {word}" + ("" if count == 1 else "s")
