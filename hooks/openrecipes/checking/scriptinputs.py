"""What a launch script needs from outside: the variables it reads but never sets, and `<placeholders>`.

A reader who copies a launch script must know what to provide before it runs: `$HF_CKPT`, a
`${MODEL_ARGS[@]}` array, `<slime entry module>`. This reads a bash script the way bash would for
that purpose only: single-quoted text and comments expand nothing, a backslash escapes a `$`, and a
name assigned anywhere in the script (`NAME=…`, `export NAME=…`, `for NAME in`, `read NAME`) or set
by the recipe's environment is the script's own. It is not a shell: a name set by a sourced file or
an `eval` is not seen, so the result is what the script *appears* to read, said as such.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass

from ..reading.shelltext import placeholders

# Set by the shell or the system, not by the person running the script.
SHELL_VARIABLES = frozenset(
    {
        "HOME", "PATH", "PWD", "OLDPWD", "USER", "LOGNAME", "SHELL", "HOSTNAME", "HOSTTYPE", "RANDOM",
        "SECONDS", "LINENO", "BASH_SOURCE", "BASH_VERSION", "FUNCNAME", "IFS", "PPID", "UID", "EUID",
        "TMPDIR", "LANG", "TERM", "OSTYPE", "PIPESTATUS", "SLURM_JOB_ID", "SLURM_PROCID", "SLURM_NODEID",
        "SLURM_NTASKS", "SLURM_JOB_NODELIST", "SLURM_LOCALID", "SLURM_NNODES", "SLURM_GPUS_ON_NODE",
    }
)  # fmt: skip
_NAME = r"[A-Za-z_][A-Za-z0-9_]*"
_ASSIGNMENT = re.compile(
    rf"(?:^|[;&|(]\s*|\b(?:export|local|declare|typeset|readonly)\s+(?:-\w+\s+)*)({_NAME})(?:\[[^\]]*\])?\+?=",
    re.M,
)
_LOOP = re.compile(rf"\b(?:for|select)\s+({_NAME})\s+in\b")
_READ = re.compile(r"\bread\b([^;&|\n]*)")
_READ_OPTIONS_WITH_VALUE = frozenset("adinNptu")


@dataclass(frozen=True)
class ScriptInput:
    name: str
    """`HF_CKPT` for `$HF_CKPT`; the text between the brackets for a `<placeholder>`."""
    kind: str
    """`variable` or `placeholder`."""
    line: int
    """First line (1-based) of the script that reads it."""

    @property
    def written(self) -> str:
        return f"${self.name}" if self.kind == "variable" else f"<{self.name}>"


def _expanding(script: str) -> list[tuple[int, str]]:
    """The script's lines with what bash does not expand blanked out: comments, single-quoted
    text, escaped characters. Positions are kept, so line numbers stay right."""
    out: list[str] = []
    quote: str | None = None
    index = 0
    while index < len(script):
        char = script[index]
        if quote == "'":
            out.append("\n" if char == "\n" else " ")
            if char == "'":
                quote = None
        elif char == "\\" and index + 1 < len(script):
            out.append(" " if script[index + 1] != "\n" else "")
            out.append("\n" if script[index + 1] == "\n" else " ")
            index += 1
        elif char == "'" and quote is None:
            quote = "'"
            out.append(" ")
        elif char == '"':
            quote = None if quote == '"' else '"'
            out.append(char)
        elif char == "#" and quote is None and (index == 0 or script[index - 1] in " \t\n;&|("):
            end = script.find("\n", index)
            end = len(script) if end < 0 else end
            out.append(" " * (end - index))
            index = end
            continue
        else:
            out.append(char)
        index += 1
    return list(enumerate("".join(out).split("\n"), start=1))


def _read_names(arguments: str) -> list[str]:
    """The names `read` assigns: its words after the options (`-p PROMPT` takes a value)."""
    words = arguments.split()
    names = []
    index = 0
    while index < len(words):
        word = words[index]
        if word.startswith("-") and len(word) > 1:
            index += 2 if word[-1] in _READ_OPTIONS_WITH_VALUE else 1
            continue
        if re.fullmatch(_NAME, word):
            names.append(word)
        index += 1
    return names


def script_inputs(script: str, environment: Collection[str] = ()) -> list[ScriptInput]:
    """Variables `script` reads but neither it nor `environment` sets, and its `<placeholders>`
    (shelltext.py: wherever bash would read them, comments aside), each once, in the order they first
    appear."""
    lines = _expanding(script)
    text = "\n".join(line for _, line in lines)
    assigned = {match.group(1) for match in _ASSIGNMENT.finditer(text)}
    assigned |= {match.group(1) for match in _LOOP.finditer(text)}
    assigned |= {name for match in _READ.finditer(text) for name in _read_names(match.group(1))}
    own = assigned | set(environment) | SHELL_VARIABLES
    read: list[tuple[int, int, str, str]] = []  # line, position in the script, name, kind
    offset = 0
    for number, line in lines:
        for match in re.finditer(rf"\$(?:\{{[#!]?({_NAME})|({_NAME}))", line):
            name = match.group(1) or match.group(2)
            if name not in own:
                read.append((number, offset + match.start(), name, "variable"))
        offset += len(line) + 1
    read += [(use.line, use.start, use.text, "placeholder") for use in placeholders(script)]
    found: dict[tuple[str, str], ScriptInput] = {}
    for number, _, name, kind in sorted(read):
        found.setdefault((name, kind), ScriptInput(name, kind, number))
    return list(found.values())
