"""The date of the build: the one notion of "today", the same wherever and whenever a commit is built.

With `SOURCE_DATE_EPOCH` set (CI sets it to the commit's time, as reproducible builds do) it is
the date of that instant in UTC; without it, the current date in UTC. Never the local date: a
recipe measured "tomorrow" would otherwise pass or fail with the time zone of the machine.
"""

from __future__ import annotations

import datetime as dt
import os
from collections.abc import Mapping

VARIABLE = "SOURCE_DATE_EPOCH"


class BuildDateError(ValueError):
    """`SOURCE_DATE_EPOCH` is set to something that is not an instant."""


def build_date(environ: Mapping[str, str] = os.environ) -> dt.date:
    """Today's date for checks, in UTC, fixed by `SOURCE_DATE_EPOCH` when it is set."""
    value = environ.get(VARIABLE)
    if value is None:
        return dt.datetime.now(dt.UTC).date()
    try:
        return dt.datetime.fromtimestamp(int(value), dt.UTC).date()
    except (ValueError, OverflowError, OSError):
        shown = value if len(value) <= 40 else value[:37] + "..."
        raise BuildDateError(
            f"{shown!r} is not a time: set it to whole seconds since 1970-01-01 UTC "
            "(git log -1 --format=%ct), or unset it"
        ) from None
