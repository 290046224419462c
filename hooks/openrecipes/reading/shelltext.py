"""Where a bash script's text is code, quoted text or a comment, and its `<placeholders>`.

A publisher's documented command is often not yet a script: it says `</path/to/dataset>` where the
reader puts a path, `<docker/registry>` where an image goes. Bash reads `</path/to/dataset>` as a
redirection, so such a command does not even parse. Before it can run, each placeholder has to
become a variable the reader sets, written so that bash reads it as the publisher meant in every
place it can stand: unquoted, inside double quotes, inside single quotes, `$'…'`, in the script of
a `bash -c '…'` (for the shell it starts to expand), in a here-document. That needs to know, for
every character, what bash would take it for, which this module works out the way bash's own
reader does (quotes, escapes, comments, command substitutions, here-documents) rather than by
patterns over lines. What it makes is then checked by bash itself and by ShellCheck
(`checking/shellcheck.py`).

A placeholder is `<`, a short description of letters, digits and `_ . / : @ + , = -` (words
separated by single spaces, at least one letter), and `>`, where bash would not read `<` as the
start of a here-document, a here-string, a process substitution or a descriptor redirection. A
placeholder only ever written as the whole value of an assignment (`LOGDIR=</path/to/output/dir>`,
quoted or not) stands for that variable: the reader sets LOGDIR. Any other stands for a variable
named after its text (`<docker/registry>/image:tag` reads DOCKER_REGISTRY), one for every use of that
text.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

Context = Literal["code", "double", "single", "inner", "ansi", "comment", "heredoc", "heredoc-literal"]
"""`inner` is single-quoted text a shell runs as its script (`bash -c '…'`): code again, one level in."""

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_DESCRIPTION = re.compile(r"[A-Za-z0-9_./:@+,=-]+(?: [A-Za-z0-9_./:@+,=-]+)*")
_WORD_END = frozenset(" \t\n;&|)#")
_COMMAND_START = frozenset({"", ";", "&&", "||", "|", "&", "(", "{", "then", "do", "else", "elif", "if", "while"})
_DECLARATIONS = frozenset({"export", "declare", "local", "readonly", "typeset"})
_HEREDOC = re.compile(r"<<(-?)[ \t]*(?:'([^'\n]*)'|\"([^\"\n]*)\"|\\?([A-Za-z0-9_.-]+))")


@dataclass(frozen=True)
class Placeholder:
    """One use of a placeholder in a script."""

    text: str
    """Between the brackets: `/path/to/dataset` for `</path/to/dataset>`."""
    start: int
    """Offset of its `<` in the script."""
    end: int
    """Offset just after its `>`."""
    line: int
    """Its line in the script, 1-based."""
    context: Context
    assigned_to: str | None
    """The variable it is the whole value of (`LOGDIR` in `export LOGDIR=</path/to/output/dir>`)."""

    @property
    def written(self) -> str:
        return f"<{self.text}>"


def contexts(script: str) -> list[Context]:
    """What bash takes each character of `script` for (one entry per character)."""
    return _Reader(script).read()


class _Reader:
    """Bash's reading of quotes, escapes, comments, `$( )` and here-documents, character by
    character; each frame on the stack is a context and, for code, its open parentheses."""

    def __init__(self, script: str) -> None:
        self.script = script
        self.out: list[Context] = []
        self.stack: list[list[object]] = [["code", 0, False]]  # context, open parens, is a $( )
        self.pending: list[tuple[str, bool, bool]] = []  # here-documents to read after this line

    def read(self) -> list[Context]:
        text, index = self.script, 0
        while index < len(text):
            index = self._step(text, index)
        return self.out

    def _mark(self, context: Context, count: int = 1) -> None:
        self.out.extend([context] * count)

    def _step(self, text: str, index: int) -> int:
        frame = self.stack[-1]
        context = frame[0]
        char = text[index]
        if context in ("single", "inner"):
            self._mark(context)  # type: ignore[arg-type]
            if char == "'":
                self.stack.pop()
            return index + 1
        if context == "ansi":
            if char == "\\" and index + 1 < len(text):
                self._mark("ansi", 2)
                return index + 2
            self._mark("ansi")
            if char == "'":
                self.stack.pop()
            return index + 1
        if context == "comment":
            if char == "\n":
                self.stack.pop()
                return index  # the newline is code: it ends the command and starts here-documents
            self._mark("comment")
            return index + 1
        if context == "double":
            if char == "\\" and index + 1 < len(text):
                self._mark("double", 2)
                return index + 2
            if char == '"':
                self._mark("double")
                self.stack.pop()
                return index + 1
            if text.startswith("$(", index) and not text.startswith("$((", index):
                self._mark("double", 2)
                self.stack.append(["code", 0, True])
                return index + 2
            self._mark("double")
            return index + 1
        return self._code(text, index, frame)

    def _code(self, text: str, index: int, frame: list[object]) -> int:
        char = text[index]
        if char == "\\" and index + 1 < len(text):
            self._mark("code", 2)
            return index + 2
        if char == "'":
            quoted: Context = "inner" if _runs_as_script(text, index) else "single"
            self._mark(quoted)
            self.stack.append([quoted, 0, False])
            return index + 1
        if text.startswith("$'", index):
            self._mark("ansi", 2)
            self.stack.append(["ansi", 0, False])
            return index + 2
        if char == '"':
            self._mark("double")
            self.stack.append(["double", 0, False])
            return index + 1
        if char == "#" and (index == 0 or text[index - 1] in " \t\n;&|()"):
            self.stack.append(["comment", 0, False])
            return index
        if text.startswith("$(", index):
            self._mark("code", 2)
            self.stack.append(["code", 0, True])
            return index + 2
        if char == "(":
            frame[1] = int(frame[1]) + 1  # type: ignore[call-overload]
        elif char == ")":
            if frame[1] == 0 and frame[2]:
                self._mark("code")
                self.stack.pop()
                return index + 1
            frame[1] = max(0, int(frame[1]) - 1)  # type: ignore[call-overload]
        elif text.startswith("<<", index) and not text.startswith("<<<", index):
            heredoc = _HEREDOC.match(text, index)
            if heredoc:
                quoted = (
                    heredoc.group(2) is not None
                    or heredoc.group(3) is not None
                    or text[index + 2 :].lstrip("- \t").startswith("\\")
                )
                delimiter = next(group for group in heredoc.groups()[1:] if group is not None)
                self.pending.append((delimiter, quoted, heredoc.group(1) == "-"))
                self._mark("code", heredoc.end() - index)
                return heredoc.end()
        elif char == "\n" and self.pending:
            self._mark("code")
            return self._heredocs(text, index + 1)
        self._mark("code")
        return index + 1

    def _heredocs(self, text: str, index: int) -> int:
        """The bodies of the here-documents the line just ended opened, each up to its delimiter."""
        for delimiter, quoted, strip_tabs in self.pending:
            body: Context = "heredoc-literal" if quoted else "heredoc"
            while index < len(text):
                end = text.find("\n", index)
                end = len(text) if end < 0 else end
                line = text[index:end]
                if (line.lstrip("\t") if strip_tabs else line) == delimiter:
                    self._mark("code", end - index)
                    index = end
                    break
                self._mark(body, end - index + (1 if end < len(text) else 0))
                index = end + 1
        self.pending = []
        return index


_SHELLS = frozenset({"bash", "sh", "zsh", "dash"})


def _runs_as_script(text: str, quote: int) -> bool:
    """Whether the single-quoted word opening at `quote` is the script of `bash -c` (or `sh -lc`…)."""
    line_start = text.rfind("\n", 0, quote) + 1
    words = text[line_start:quote].split()
    if len(words) < 2 or not re.fullmatch(r"-[a-z]*c[a-z]*", words[-1]):
        return False
    return words[-2].rsplit("/", 1)[-1] in _SHELLS


def placeholders(script: str) -> list[Placeholder]:
    """Every placeholder `script` uses outside comments, in order."""
    where = contexts(script)
    found = []
    for match in re.finditer(r"<", script):
        start = match.start()
        context = where[start]
        if context == "comment" or not _opens_placeholder(script, start, context):
            continue
        described = _DESCRIPTION.match(script, start + 1)
        if described is None or not script.startswith(">", described.end()):
            continue
        text = described.group()
        if not any(char.isalpha() for char in text):
            continue
        end = described.end() + 1
        if any(where[position] != context for position in range(start, end)):
            continue  # a quote or a comment begins inside it: not one placeholder
        line = script.count("\n", 0, start) + 1
        found.append(Placeholder(text, start, end, line, context, _assigned_to(script, where, start, end, context)))
    return found


def _opens_placeholder(script: str, start: int, context: Context) -> bool:
    if context != "code":
        return True
    before = script[start - 1] if start > 0 else ""
    after = script[start + 1] if start + 1 < len(script) else ""
    # `<<` and `<<<` (here-documents and strings), `<(` (a process), `<&` and `<>`, `2<`: bash's.
    return before not in "<0123456789" and after not in "<(&>"


def _assigned_to(script: str, where: list[Context], start: int, end: int, context: Context) -> str | None:
    """The variable a placeholder is the whole value of, when it is (see the module)."""
    value_start, value_end = start, end
    if context in ("double", "single"):
        quote = '"' if context == "double" else "'"
        if not (script[start - 1 : start] == quote and script[end : end + 1] == quote):
            return None
        value_start, value_end = start - 1, end + 1
    elif context != "code":
        return None
    if value_end < len(script) and script[value_end] not in _WORD_END:
        return None
    word_start = value_start
    while word_start > 0 and script[word_start - 1] not in " \t\n;&|(":
        word_start -= 1
    assignment = script[word_start:value_start]
    if not assignment.endswith("=") or not _NAME.fullmatch(assignment[:-1]):
        return None
    if where[word_start] != "code" or not _in_assignment_position(script, word_start):
        return None
    return assignment[:-1]


def _in_assignment_position(script: str, word_start: int) -> bool:
    """Whether a word starting at `word_start` is where bash takes `NAME=value` as an assignment:
    first in a command, after other assignments, or an argument of `export` and its kin."""
    line_start = script.rfind("\n", 0, word_start) + 1
    before = script[line_start:word_start].split()
    while before and "=" in before[-1] and _NAME.fullmatch(before[-1].split("=", 1)[0]):
        before.pop()  # an earlier assignment of the same command
    options = len(before)
    while options and before[options - 1].startswith("-"):
        options -= 1
    if options < len(before) and options and before[options - 1] in _DECLARATIONS:
        before = before[:options]  # `export -n`, `declare -x -r`: the declaration's options
    last = before[-1] if before else ""
    return last in _COMMAND_START or last in _DECLARATIONS or last.endswith((";", "&&", "||", "|", "("))


def variable_for(text: str, taken: Collection[str]) -> str:
    """A shell variable named after a placeholder's text (`docker/registry` → DOCKER_REGISTRY),
    never one in `taken` (the shell's own, the recipe's environment, other inputs)."""
    base = re.sub(r"[^A-Z0-9]+", "_", text.upper()).strip("_") or "INPUT"
    if base[0].isdigit():
        base = f"INPUT_{base}"
    name, number = base, 1
    while name in taken:
        number += 1
        name = f"{base}_INPUT" if number == 2 else f"{base}_INPUT_{number - 1}"
    return name


def expansion(variable: str, context: Context) -> str | None:
    """What stands for `variable` where a placeholder stood, so that bash reads its value there as
    the publisher's text meant: one word in code, spliced into a quoted string by closing and
    reopening it. None where nothing can (a here-document whose delimiter is quoted)."""
    if context in ("code", "inner"):  # in `bash -c '…'`, for the shell that runs it to expand
        return f'"${{{variable}}}"'
    if context in ("double", "heredoc"):
        return f"${{{variable}}}"
    if context == "single":
        return f"'\"${{{variable}}}\"'"
    if context == "ansi":
        return f"'\"${{{variable}}}\"$'"
    return None


def substituted(script: str, variables: Mapping[int, str]) -> str:
    """`script` with the placeholder starting at each offset in `variables` replaced by that
    variable's expansion in its context (`expansion`); everything else byte for byte."""
    out, end = [], 0
    for use in placeholders(script):
        variable = variables.get(use.start)
        replacement = expansion(variable, use.context) if variable else None
        if replacement is None:
            continue
        out += [script[end : use.start], replacement]
        end = use.end
    return "".join(out) + script[end:]


def placeholder_variables(scripts: Sequence[str], taken: Collection[str]) -> list[list[tuple[str, Placeholder]]]:
    """For each of `scripts` (run one after the other, as a launch's checkout and command), each
    placeholder use with the variable it stands for (see the module). A text that is only ever the
    whole value of assignments stands for the variables it is assigned to (`CONT=<as/set/above>` and
    `DATADIR=<as/set/above>` are two inputs); any other text for one variable named after it,
    whatever it is assigned to (`<tag>` in `CONT=<tag>` and in `docker build -t <tag>` is one value),
    never one of `taken` (the shell's own, the recipe's environment, the inputs named as variables)."""
    found = [placeholders(script) for script in scripts]
    every = [use for uses in found for use in uses]
    assigned_only = {use.text for use in every} - {use.text for use in every if use.assigned_to is None}
    used = set(taken) | {use.assigned_to for use in every if use.text in assigned_only and use.assigned_to}
    named: dict[str, str] = {}
    result = []
    for uses in found:
        pairs = []
        for use in uses:
            if use.text in assigned_only and use.assigned_to is not None:
                pairs.append((use.assigned_to, use))
                continue
            if use.text not in named:
                named[use.text] = variable_for(use.text, used)
                used.add(named[use.text])
            pairs.append((named[use.text], use))
        result.append(pairs)
    return result
