"""How a Megatron-Bridge release's launcher sets each dimension from its command line, read from its own parser.

Where the configuration a row's launch loads runs another value than the row (a batch size, a
sequence length), the launch adds the launcher's own option so that the command runs the row.
Which options a release has is read from its argument parser with `ast` at the release's tag,
never assumed: `-tp`, `-pp`, `-cp`, `-vp`, `-ep`, `-et`/`-etp`, `-mb`, `-gb` and `-sl` are the short
flags of the long options in `LONG_OPTIONS` (the parser's first single-dash alias, else the long
option itself). The sequence length is set differently in each shape, because what the run's
sequence length is differs (megatron_bridge_launch.py says why):

- `base` (0.2): the parser has no sequence-length option; it keeps unknown arguments
  (`parse_known_args`) and run_script.py applies them as Hydra overrides, so the launch adds
  `model.seq_length=N dataset.sequence_length=N` (the two must agree, or the configuration's check
  refuses the run);
- `variants` (0.3 to 0.5): `-sl N` makes the mock dataset N long, and `model.seq_length=N` (a Hydra
  override, applied before) makes the model agree;
- `flat` (0.6): `-sl N` sets `dataset.seq_length`, and the runner sets the model's from it.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

from .common import Cited

LONG_OPTIONS: dict[str, str] = {
    "tp": "--tensor_model_parallel_size",
    "pp": "--pipeline_model_parallel_size",
    "cp": "--context_parallel_size",
    "vp": "--virtual_pipeline_model_parallel_size",
    "ep": "--expert_model_parallel_size",
    "etp": "--expert_tensor_parallel_size",
    "gbs": "--global_batch_size",
    "mbs": "--micro_batch_size",
    "seq_length": "--seq_length",
}
"""`launch.sets` key -> the launcher's long option for it."""


@dataclass(frozen=True)
class Option:
    flag: str
    """As the command writes it: the first single-dash alias (`-gb`), else the long option."""
    cited: Cited


@dataclass(frozen=True)
class Overrides:
    """The options of one release's launcher, and how it takes overrides and a sequence length."""

    shape: str
    options: dict[str, Option]
    trailing: tuple[Cited, ...]
    """Where the release applies trailing `KEY=VALUE` overrides to the configuration."""
    sequence: tuple[Cited, ...]
    """Where the release makes the run's sequence length what its sequence-length words say."""

    def can_set(self, key: str) -> bool:
        if key == "seq_length":
            if self.shape == "base":
                return bool(self.trailing)
            return key in self.options and bool(self.sequence) and (self.shape == "flat" or bool(self.trailing))
        return key in self.options

    def words(self, key: str, value: int | None) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """The options and the trailing `KEY=VALUE` overrides that make the run's `key` `value` (a
        VP of None, or of 1, is no interleaving: the launcher's None, or a null override)."""
        if key == "vp" and value in (None, 1):
            if self.shape == "variants":
                return (self.options[key].flag, "None"), ()
            return (), ("model.virtual_pipeline_model_parallel_size=null",)
        if key != "seq_length":
            return (self.options[key].flag, str(value)), ()
        if self.shape == "base":
            return (), (f"model.seq_length={value}", f"dataset.sequence_length={value}")
        if self.shape == "variants":
            return (self.options[key].flag, str(value)), (f"model.seq_length={value}",)
        return (self.options[key].flag, str(value)), ()

    def cited(self, key: str, value: int | None) -> tuple[Cited, ...]:
        options, trailing = self.words(key, value)
        own = (self.options[key].cited,) if options and key in self.options else ()
        return own + (self.trailing if trailing else ()) + (self.sequence if key == "seq_length" else ())


def read_options(path: str, text: str) -> dict[str, Option]:
    """Every option of LONG_OPTIONS that `add_argument` calls in `text` define, with its flag and lines."""
    found: dict[str, Option] = {}
    for node in ast.walk(ast.parse(text)):
        if not (
            isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "add_argument"
        ):
            continue
        names = [arg.value for arg in node.args if isinstance(arg, ast.Constant) and isinstance(arg.value, str)]
        for key, long in LONG_OPTIONS.items():
            if long in names and key not in found:
                short = [name for name in names if name.startswith("-") and not name.startswith("--")]
                flag = short[0] if short else long
                found[key] = Option(flag, Cited(path, node.lineno, node.end_lineno or node.lineno, f"{flag} ({long})"))
    return found


def first_line(text: str, needle: str) -> int:
    for number, line in enumerate(text.splitlines(), start=1):
        if needle in line:
            return number
    return 0
