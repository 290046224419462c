"""`openrecipes measure LOG…`: the `result` block a training log supports, with the lines it came from.

Reads MLPerf result logs, Megatron-LM/Megatron-Bridge logs and torchtitan logs
(`openrecipes.measuring`), prints the figures as the YAML of a recipe's `result` with a comment
per figure naming its lines, and with `--write RECIPE` sets those keys in the recipe, every other
line kept (comments too). Nothing is written when a log has a problem, a figure cannot be made,
or the recipe would not validate afterwards; every problem is printed as `file:line: message`.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

from ..measuring.compute import ORDER, Measurement, Settings, cite, measure
from ..measuring.detect import read_log
from ..problems import Problem
from ..project import UsageError
from ..reading.yamlwrite import dump, set_in_place


def window(text: str) -> tuple[int, int]:
    """`A:B` (first and last step, inclusive) for argparse."""
    first, colon, last = text.partition(":")
    try:
        low, high = int(first), int(last)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not FIRST:LAST, two step numbers (100:200)") from None
    if not colon or low < 1 or high < low:
        raise argparse.ArgumentTypeError(f"{text!r} is not FIRST:LAST with 1 <= FIRST <= LAST") from None
    return low, high


def cmd_measure(args: argparse.Namespace) -> int:
    settings = Settings(gpus=args.gpus, seq_length=args.seq_length, window=args.window)
    logs = []
    problems: list[Problem] = []
    for name in args.logs:
        path = Path(name)
        if not path.is_file():
            raise UsageError(f"{name}: no such log file")
        log, found = read_log(path, name)
        problems += found
        if log is not None:
            logs.append(log)
    measured: Measurement | None = None
    if not problems:
        measured, found = measure(logs, settings)
        problems += found
    if problems or measured is None:
        return _refuse(problems, "no figure printed" + (", nothing written" if args.write else ""))
    for note in measured.notes:
        print(f"note: {note}", file=sys.stderr)
    print(render(measured))
    if args.write:
        return _write(Path(args.write), measured, args)
    return 0


def render(measured: Measurement) -> str:
    """The figures as a recipe's `result` block, each preceded by a comment with its lines."""
    out = ["# openrecipes measure: each figure with the log lines it came from"]
    for figure in measured.figures:
        if figure.key == "throughput_note" or figure.key == "gpu_hours_note":
            continue  # the note says it already
        out.append(f"# {figure.key}: {figure.how} [{cite(figure.lines)}]")
    return "\n".join(out) + "\n" + dump({"result": measured.result()}).rstrip("\n")


def _write(path: Path, measured: Measurement, args: argparse.Namespace) -> int:
    from ..loader import validate_catalogue
    from ..project import project_root

    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise UsageError(f"{path}: cannot read the recipe ({error})") from None
    try:
        edited = set_in_place(text, "result", measured.result(), ORDER)
    except Exception as error:  # a recipe PyYAML cannot compose, or not a mapping: said once, nothing written
        return _refuse(
            [Problem(str(path), 0, 0, "$.result", f"cannot edit the recipe in place: {error}")], "nothing written"
        )
    root = project_root(getattr(args, "root", None), [str(path)])
    # The edited recipe is validated as the site would, from a copy beside the original, before
    # the original is replaced: a figure the recipe's checks refuse leaves the file as it was.
    with tempfile.NamedTemporaryFile("w", encoding="utf-8", suffix=".yaml", dir=path.parent, delete=False) as handle:
        handle.write(edited)
        trial = Path(handle.name)
    try:
        found = validate_catalogue(root, only=[trial.resolve()])
    finally:
        trial.unlink(missing_ok=True)
    if found.problems:
        moved = [Problem(str(path), p.line, p.column, p.where, p.message) for p in found.problems]
        return _refuse(moved, f"{path} not written")
    path.write_text(edited, encoding="utf-8")
    print(
        f"wrote result in {path} ({len(measured.figures)} value{'s' if len(measured.figures) != 1 else ''})",
        file=sys.stderr,
    )
    return 0


def _refuse(problems: list[Problem], what: str) -> int:
    for problem in problems:
        print(problem)
    count = len(problems)
    print(f"{count} problem{'s' if count != 1 else ''}: {what}", file=sys.stderr)
    return 1
