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
from collections.abc import Collection, Iterator, Mapping
from dataclasses import dataclass

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
_PLACEHOLDER = re.compile(r"<([A-Za-z][A-Za-z0-9 _./:-]*[A-Za-z0-9.])>")


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
    """Variables `script` reads but neither it nor `environment` sets, and its `<placeholders>`,
    each once, in the order they first appear."""
    lines = _expanding(script)
    text = "\n".join(line for _, line in lines)
    assigned = {match.group(1) for match in _ASSIGNMENT.finditer(text)}
    assigned |= {match.group(1) for match in _LOOP.finditer(text)}
    assigned |= {name for match in _READ.finditer(text) for name in _read_names(match.group(1))}
    own = assigned | set(environment) | SHELL_VARIABLES
    found: dict[tuple[str, str], ScriptInput] = {}
    for number, line in lines:
        read: list[tuple[int, str, str]] = []
        for match in re.finditer(rf"\$(?:\{{[#!]?({_NAME})|({_NAME}))", line):
            name = match.group(1) or match.group(2)
            if name not in own:
                read.append((match.start(), name, "variable"))
        for match in _placeholders(line):
            read.append((match.start(), match.group(1), "placeholder"))
        for _, name, kind in sorted(read):
            found.setdefault((name, kind), ScriptInput(name, kind, number))
    return list(found.values())


def _placeholders(text: str) -> Iterator[re.Match[str]]:
    for match in _PLACEHOLDER.finditer(text):
        if match.start() == 0 or text[match.start() - 1] not in "<$":  # not a heredoc or <(...)
            yield match


def replace_placeholders(script: str, replacements: Mapping[str, str]) -> str:
    """`script` with each `<placeholder>` named in `replacements` (by the text between its
    brackets) replaced where `script_inputs` finds it read (not in single quotes or a comment);
    everything else byte for byte."""
    expanded = dict(_expanding(script))
    lines = script.split("\n")
    for number, line in enumerate(lines, start=1):
        seen = {match.start() for match in _placeholders(expanded.get(number, ""))}
        out, end = [], 0
        for match in _placeholders(line):
            if match.start() in seen and match.group(1) in replacements:
                out += [line[end : match.start()], replacements[match.group(1)]]
                end = match.end()
        lines[number - 1] = "".join(out) + line[end:]
    return "\n".join(lines)
