"""What a bash file sets in the environment when it is sourced, read as bash reads it and never run.

A publisher's `config_*.sh` is code: a launch sources it, and the programs it starts inherit what
it exports. Reading it line by line gets it wrong wherever the shell does not read lines:
`export ACG=full && export ACM=block` is two commands, an `export` inside `if …; then … fi` runs
only when the test holds, `unset` takes a name out again, an `export` may span lines. This module
reads the file with bash's grammar instead: `shelltext.contexts` says what bash takes each
character for (code, quoted text, a comment, a here-document), a tokenizer on top of it makes
words and operators, and a small parser makes commands (`;`, `&`, `&&`, `||`, newlines and line
continuations; pipelines; `if`/`elif`/`else`, `case`, loops, `{ }` and `( )` groups, functions).
The commands are then walked, never executed: the file is untrusted, and what it would compute
(`$(…)`, `$(( ))`, `${VAR:-default}`) depends on the machine it runs on.

What the walk records, for each variable, in order (`Setting`): an assignment with its value
(quotes removed as bash removes them, or, where the value expands something when the file is
sourced, the text as written and `expression`), an `export NAME` of a value set before, an
`export -n`, an `unset`; each with its file and line and the conditions it runs under (`Condition`:
the test of each enclosing `if`, `elif`, `else`, `case` item, loop or `&&`/`||` list, as written).
`environment` then says what the programs a launch starts inherit: every variable exported and set
whatever the tests find (`Environment.exported`), and every value that only a condition sets,
overrides or removes (`Environment.conditional`), never taken for an unconditional one.

Decisions, each as bash does it:
- A plain `NAME=value` sets a shell variable, which no program the launch starts sees, unless the
  name is exported (before or after, by `export NAME` or `declare -x`) or `set -a` is on.
- `NAME=value command` sets NAME for that command alone: not recorded.
- A pipeline of two or more commands, a `( )` group, a command put in the background with `&` and
  a command substitution run in a subshell: nothing they set reaches the file's shell.
- A function's body runs where the function is called: it is walked there, under the call's
  conditions. `local` variables are the function's own.
- `return` (and `exit`) ends the file: what follows an unconditional one is never run, and what
  follows a conditional one runs only when it did not return (a `Condition` saying so).
- `eval`, and a `source` of a path that cannot be known without running the file, are recorded as
  not read (`Sourced.unread`, `Sourced.missing`).
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Literal

from .shelltext import Context, contexts

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_ASSIGNMENT = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)(\+?)=")
# The longest first: `;;&` before `;;` before `;`.
_OPERATORS = (
    ";;&", "&>>", "<<<", "<<-",
    ";;", ";&", "&&", "||", "|&", "&>", "<<", "<>", "<&", ">>", ">&", ">|",
    ";", "&", "|", "(", ")", "<", ">",
)  # fmt: skip
_REDIRECTIONS = frozenset({"&>>", "<<<", "<<-", "&>", "<<", "<>", "<&", ">>", ">&", ">|", "<", ">"})
_LIST_END = frozenset({";", "&", "\n"})
_CASE_END = frozenset({";;", ";&", ";;&"})
_RESERVED = frozenset(
    {"if", "then", "elif", "else", "fi", "case", "esac", "for", "select", "while", "until", "do", "done", "{", "}", "!"}
)
# What may follow `<<` as a here-document's delimiter, as shelltext reads it.
_DELIMITER = re.compile(r"-?[ \t]*(?:'[^'\n]*'|\"[^\"\n]*\"|\\?[A-Za-z0-9_.-]+)")
_MAX_DEPTH = 8
"""Sourced files and function calls within each other: deeper is a loop, not a configuration."""


class ParseError(ValueError):
    def __init__(self, line: int, message: str) -> None:
        super().__init__(message)
        self.line = line


# --- words and operators -------------------------------------------------------------------------


@dataclass(frozen=True)
class _Token:
    kind: Literal["word", "op", "end"]
    text: str
    """Operators: `;`, `&&`, `\\n` (a newline ends a command as `;` does)… Words: as written."""
    start: int
    end: int
    line: int
    io_number: bool = False
    """A word of digits written against a redirection (`2>`): the redirection's, not an argument."""


class _Tokens:
    """A script's words and operators, as bash splits them: quoted text, `$( )`, `${ }`, `$(( ))`
    and backquotes stay inside their word; comments, line continuations and the bodies of
    here-documents are left out."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.where: list[Context] = contexts(text)
        self.tokens: list[_Token] = []
        self._lines = _line_starts(text)
        self._read()

    def line(self, offset: int) -> int:
        return bisect.bisect_right(self._lines, offset)

    def _read(self) -> None:
        text, where, n = self.text, self.where, len(self.text)
        i = 0
        pending = 0  # here-documents whose bodies start after the next newline
        in_test = False  # inside `[[ … ]]`, where `&&`, `<`, `(` are the test's own
        while i < n:
            context = where[i]
            if context == "comment" or context.startswith("heredoc"):
                i += 1
                continue
            char = text[i]
            if context == "code":
                if text.startswith("\\\n", i):
                    i += 2
                    continue
                if char in " \t\r":
                    i += 1
                    continue
                if char == "\n":
                    self._add("op", i, i + 1)
                    i += 1
                    if pending:
                        i = self._skip_heredocs(i, pending)
                        pending = 0
                    continue
                if not in_test and self._command_position() and text.startswith("((", i):
                    end = self.matching(i)
                    self._add("word", i, end)
                    i = end
                    continue
                operator = next((op for op in _OPERATORS if text.startswith(op, i)), None)
                if operator is not None and not (in_test and operator not in (";", "\n")):
                    if operator in ("<<", "<<-") and _DELIMITER.match(text, i + len(operator)):
                        pending += 1  # as contexts() counts them: its bodies are skipped after the newline
                    previous = self.tokens[-1] if self.tokens else None
                    if (
                        operator in _REDIRECTIONS
                        and previous is not None
                        and previous.kind == "word"
                        and previous.end == i
                        and previous.text.isdigit()
                    ):
                        self.tokens[-1] = _Token(
                            "word", previous.text, previous.start, previous.end, previous.line, True
                        )
                    self._add("op", i, i + len(operator))
                    i += len(operator)
                    continue
            start, i = i, self._word_end(i, in_test)
            if i == start:  # never expected (every metacharacter is an operator): a step, not a loop
                i += 1
            token = self._add("word", start, i)
            if token.text == "[[" and self._command_position(before=len(self.tokens) - 1):
                in_test = True
            elif token.text == "]]" and in_test:
                in_test = False

    def _add(self, kind: Literal["word", "op"], start: int, end: int) -> _Token:
        token = _Token(kind, self.text[start:end], start, end, self.line(start))
        self.tokens.append(token)
        return token

    def _command_position(self, before: int | None = None) -> bool:
        """Whether the next word would start a command (after an operator, a newline or a reserved word)."""
        index = len(self.tokens) if before is None else before
        if index == 0:
            return True
        previous = self.tokens[index - 1]
        if previous.kind == "op":
            return previous.text not in _REDIRECTIONS
        return previous.text in _RESERVED and previous.text not in ("fi", "esac", "done", "}")

    def _word_end(self, i: int, in_test: bool) -> int:
        text, where, n = self.text, self.where, len(self.text)
        start = i
        while i < n:
            context = where[i]
            char = text[i]
            if context in ("single", "inner", "ansi"):
                i += 1
                continue
            if context.startswith("heredoc") or context == "comment":
                break
            if char == "\\":
                i += 2
                continue
            if text.startswith("$(", i):
                i = self.matching(i + 1)
                continue
            if text.startswith("${", i):
                i = self.braces(i + 1)
                continue
            if char == "`":
                close = text.find("`", i + 1)
                i = n if close < 0 else close + 1
                continue
            if context == "code" and char == "(" and _ASSIGNMENT.fullmatch(text, start, i):
                i = self.matching(i)  # `NAME=(a b)`: an array, one word
                continue
            if context == "code" and char in " \t\r\n;&|()<>":
                if in_test and char in "&|()<>":
                    # `[[ a && b ]]`: the test's operators are words of the test.
                    i += 1
                    continue
                break
            i += 1
        return min(i, n)

    def matching(self, i: int) -> int:
        """Just past the `)` that closes the `(` at `i` (`$(` inside double quotes opens one too),
        counting only the parentheses after it that bash reads as code."""
        depth = 1
        i += 1
        text, where, n = self.text, self.where, len(self.text)
        while i < n:
            if where[i] == "code":
                char = text[i]
                if char == "\\":
                    i += 2
                    continue
                if char == "(":
                    depth += 1
                elif char == ")":
                    depth -= 1
                    if depth == 0:
                        return i + 1
            i += 1
        return n

    def braces(self, i: int) -> int:
        """Just past the `}` that closes the `{` of a `${` at `i`."""
        depth = 1
        i += 1
        text, where, n = self.text, self.where, len(self.text)
        while i < n:
            if where[i] in ("code", "double"):
                char = text[i]
                if char == "\\":
                    i += 2
                    continue
                if char == "{":
                    depth += 1
                elif char == "}":
                    depth -= 1
                    if depth == 0:
                        return i + 1
            i += 1
        return n

    def _skip_heredocs(self, i: int, count: int) -> int:
        """Past the bodies and delimiter lines of `count` here-documents starting at `i`, up to the
        newline that ends the last delimiter (contexts() marks the bodies; a delimiter line is code,
        and the newline after it belongs to the next body)."""
        text, where, n = self.text, self.where, len(self.text)
        for _ in range(count):
            while i < n and where[i].startswith("heredoc"):
                i += 1
            end = text.find("\n", i)
            i = n if end < 0 else end
        return i


def _line_starts(text: str) -> list[int]:
    return [0, *(match.end() for match in re.finditer("\n", text))]


# --- what a word says -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Word:
    text: str
    """As written (quotes included, line continuations removed)."""
    value: str
    """Quotes removed as bash removes them; what expands (`$X`, `$(…)`) kept as written."""
    expression: bool
    """Whether it expands anything when the file runs: its value is then known only there."""
    literal: bool
    """Whether it is unquoted text bash reads as is (a reserved word, a command's name)."""
    line: int


_ANSI = {"a": "\a", "b": "\b", "e": "\x1b", "E": "\x1b", "f": "\f", "n": "\n", "r": "\r", "t": "\t", "v": "\v"}


def _word(tokens: _Tokens, token: _Token) -> Word:
    text, where = tokens.text, tokens.where
    out: list[str] = []
    expression = quoted = in_ansi = in_single = in_double = False
    i, end = token.start, token.end
    while i < end:
        context, char = where[i], text[i]
        if context in ("single", "inner"):
            quoted = True
            if char == "'":  # within single quotes every ' opens or closes them
                in_single = not in_single
            else:
                out.append(char)
            i += 1
        elif context == "ansi":
            quoted = True
            if not in_ansi:  # `$'` opens it
                in_ansi, i = True, i + 2
            elif char == "'":
                in_ansi, i = False, i + 1
            elif char == "\\" and i + 1 < end:
                decoded, i = _ansi_escape(text, i, end)
                out.append(decoded)
            else:
                out.append(char)
                i += 1
        elif text.startswith(("$(", "${"), i) or char == "`" or _is_parameter(text, i, end):
            expression = True
            stop = _expansion_end(tokens, i, end)
            out.append(text[i:stop])
            i = stop
        elif char == "\\" and i + 1 < end:
            following = text[i + 1]
            if following != "\n":  # a line continuation joins, and leaves nothing
                keeps = context == "double" and following not in '$`"\\'
                out.append("\\" + following if keeps else following)
            quoted = True
            i += 2
        elif context == "double" and char == '"':
            quoted, in_double = True, not in_double
            i += 1
        else:
            out.append(char)
            i += 1
    if in_single or in_double or in_ansi:
        raise ParseError(token.line, "a quote opened here is never closed")
    written = text[token.start : token.end].replace("\\\n", "")
    return Word(written, "".join(out), expression, not quoted and not expression, token.line)


def _is_parameter(text: str, i: int, end: int) -> bool:
    """`$NAME`, `$1`, `$@`, `$?`… (a `$` before anything else is a plain `$`)."""
    return text[i] == "$" and i + 1 < end and (text[i + 1].isalnum() or text[i + 1] in "_@*#?$!-")


def _expansion_end(tokens: _Tokens, i: int, end: int) -> int:
    text = tokens.text
    if text.startswith("$(", i):
        return min(tokens.matching(i + 1), end)
    if text.startswith("${", i):
        return min(tokens.braces(i + 1), end)
    if text[i] == "`":
        close = text.find("`", i + 1)
        return end if close < 0 or close >= end else close + 1
    if text[i + 1].isdigit() or text[i + 1] in "@*#?$!-":
        return i + 2
    found = _NAME.match(text, i + 1)
    return found.end() if found else i + 1


def _ansi_escape(text: str, i: int, end: int) -> tuple[str, int]:
    """One escape of a `$'…'` string, decoded as bash decodes it, and where the next character is."""
    code = text[i + 1]
    if code in _ANSI:
        return _ANSI[code], i + 2
    digits = {"x": r"[0-9A-Fa-f]{1,2}", "u": r"[0-9A-Fa-f]{1,4}", "U": r"[0-9A-Fa-f]{1,8}"}.get(code)
    if digits:
        found = re.match(digits, text[i + 2 : end])
        if found and int(found.group(), 16) <= 0x10FFFF:
            return chr(int(found.group(), 16)), i + 2 + len(found.group())
    if code in "01234567":
        found = re.match(r"[0-7]{1,3}", text[i + 1 : end])
        if found:
            return chr(int(found.group(), 8) & 0xFF), i + 1 + len(found.group())
    if code in "\\'\"?":
        return code, i + 2
    return "\\" + code, i + 2


# --- commands ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Simple:
    words: tuple[Word, ...]
    line: int

    @property
    def name(self) -> str:
        """The command it runs, where it is written plainly (`export`), else ''."""
        found = next((word for word in self.words if not _assignment(word)), None)
        return found.value if found is not None and found.literal else ""

    @property
    def assignments(self) -> tuple[Word, ...]:
        """Its words that assign (`NAME=value`): before the command (for the command alone, or for
        the shell when there is no command), or as arguments of `export`, `declare` and their kin."""
        leading = tuple(word for word in self.words[: self._first_argument()] if _assignment(word))
        if self.name in _DECLARATIONS:
            return (*leading, *(word for word in self.words[self._first_argument() :] if _assignment(word)))
        return leading

    @property
    def arguments(self) -> tuple[Word, ...]:
        """The words after the command's name (none when it runs no command)."""
        return self.words[self._first_argument() + 1 :]

    def _first_argument(self) -> int:
        return next((index for index, word in enumerate(self.words) if not _assignment(word)), len(self.words))


def assigned(word: Word) -> tuple[str, str] | None:
    """The name a word assigns and the value it gives (see `Word.value`), or None."""
    found = _ASSIGNMENT.match(word.text)
    return None if found is None else (found.group(1), word.value[len(found.group(0)) :])


_DECLARATIONS = frozenset({"export", "declare", "typeset", "readonly", "local"})


@dataclass(frozen=True)
class Branch:
    test: str
    """How the branch is said: `if [ "$A" = 1 ]`, `else of if [ "$A" = 1 ]`, `case "$X" in a|b)`."""
    body: tuple[Node, ...]
    line: int


@dataclass(frozen=True)
class Compound:
    """`if`, `case` and loops: bodies that run only when their test says."""

    branches: tuple[Branch, ...]


@dataclass(frozen=True)
class Group:
    body: tuple[Node, ...]
    subshell: bool


@dataclass(frozen=True)
class Function:
    name: str
    body: tuple[Node, ...]
    line: int


@dataclass(frozen=True)
class AndOr:
    """Pipelines joined by `&&` and `||`; each after the first runs as the one before it ends."""

    pipelines: tuple[tuple[Node, ...], ...]
    """Each pipeline's commands (more than one: each runs in a subshell)."""
    guards: tuple[str, ...]
    """Before each pipeline after the first: what it runs after, as written (`[ -z "$A" ] &&`)."""
    line: int
    background: bool = False


Node = Simple | Compound | Group | Function | AndOr


class _Parser:
    """Bash's grammar, as much of it as a file of settings uses. What it cannot read is a ParseError
    at its line: the file is read up to the command that holds it, as bash runs a sourced file up to
    its syntax error."""

    def __init__(self, tokens: _Tokens) -> None:
        self.source = tokens
        self.tokens = tokens.tokens
        self.index = 0

    def peek(self, ahead: int = 0) -> _Token:
        if self.index + ahead < len(self.tokens):
            return self.tokens[self.index + ahead]
        end = len(self.source.text)
        return _Token("end", "", end, end, self.source.line(end))

    def take(self) -> _Token:
        token = self.peek()
        self.index += 1
        return token

    def at_word(self, *words: str) -> bool:
        token = self.peek()
        return token.kind == "word" and token.text in words

    def at_op(self, *ops: str) -> bool:
        token = self.peek()
        return token.kind == "op" and token.text in ops

    def expect(self, kind: Literal["word", "op"], text: str) -> _Token:
        token = self.peek()
        if token.kind != kind or token.text != text:
            found = repr(token.text) if token.kind != "end" else "the end of the file"
            raise ParseError(token.line, f"expected {text!r}, found {found}")
        return self.take()

    def newlines(self) -> None:
        while self.at_op("\n"):
            self.take()

    def said(self, first: int, last: int) -> str:
        """Tokens `first` to `last` as written, on one line, the separators after them left out."""
        while last > first and self.tokens[last].kind == "op" and self.tokens[last].text in _LIST_END:
            last -= 1
        if last < first:
            return ""
        written = self.source.text[self.tokens[first].start : self.tokens[last].end].replace("\\\n", " ")
        return re.sub(r"[ \t]*\n\s*", "; ", written).strip()

    def at_end_of_list(self, stop: Sequence[str]) -> bool:
        token = self.peek()
        return token.kind == "end" or self.at_op(")", *_CASE_END) or (token.kind == "word" and token.text in stop)

    # The grammar.
    def program(self) -> tuple[list[Node], ParseError | None]:
        nodes: list[Node] = []
        try:
            while True:
                self.newlines()
                if self.peek().kind == "end":
                    return nodes, None
                nodes.append(self.and_or(()))
        except ParseError as error:
            return nodes, error

    def compound_list(self, stop: Sequence[str]) -> tuple[Node, ...]:
        nodes: list[Node] = []
        while True:
            self.newlines()
            if self.at_end_of_list(stop):
                return tuple(nodes)
            nodes.append(self.and_or(stop))

    def and_or(self, stop: Sequence[str]) -> AndOr:
        """One and-or list, and the separator after it."""
        first = self.index
        line = self.peek().line
        pipelines = [self.pipeline()]
        guards: list[str] = []
        while self.at_op("&&", "||"):
            guards.append(self.said(first, self.index))
            self.take()
            self.newlines()
            pipelines.append(self.pipeline())
        background = self.at_op("&")
        if self.at_op(";", "\n", "&"):
            self.take()
        elif not self.at_end_of_list(stop):
            token = self.peek()
            raise ParseError(token.line, f"unexpected {token.text!r}")
        return AndOr(tuple(pipelines), tuple(guard for guard in guards), line, background)

    def pipeline(self) -> tuple[Node, ...]:
        if self.at_word("!"):
            self.take()
        commands = [self.command()]
        while self.at_op("|", "|&"):
            self.take()
            self.newlines()
            commands.append(self.command())
        return tuple(commands)

    def command(self) -> Node:
        token = self.peek()
        if token.kind == "word":
            if token.text == "if":
                return self.if_clause()
            if token.text == "case":
                return self.case_clause()
            if token.text in ("for", "select", "while", "until"):
                return self.loop()
            if token.text == "{":
                self.take()
                body = self.compound_list(("}",))
                self.expect("word", "}")
                self.redirections()
                return Group(body, subshell=False)
            if token.text == "function":
                self.take()
                name = self.take()
                if self.at_op("("):
                    self.take()
                    self.expect("op", ")")
                return self.function(name)
            following, closing = self.peek(1), self.peek(2)
            if _NAME.fullmatch(token.text) and (following.kind, following.text, closing.text) == ("op", "(", ")"):
                self.index += 3
                return self.function(token)
        if self.at_op("("):
            self.take()
            body = self.compound_list(())
            self.expect("op", ")")
            self.redirections()
            return Group(body, subshell=True)
        return self.simple()

    def function(self, name: _Token) -> Function:
        self.newlines()
        return Function(name.text, (self.command(),), name.line)

    def redirections(self) -> None:
        while self.at_op(*_REDIRECTIONS) or self.peek().io_number:
            if self.take().kind == "op" and self.peek().kind == "word":
                self.take()  # where it redirects to (a here-document: its delimiter)

    def simple(self) -> Simple:
        words: list[Word] = []
        first = self.peek()
        while True:
            token = self.peek()
            if token.io_number or (token.kind == "op" and token.text in _REDIRECTIONS):
                self.redirections()
            elif token.kind == "word" and not (not words and token.text in _RESERVED):
                words.append(_word(self.source, self.take()))
            else:
                break
        if not words and self.peek() is first:
            found = repr(first.text) if first.kind != "end" else "the end of the file"
            raise ParseError(first.line, f"unexpected {found}")
        return Simple(tuple(words), first.line)

    def if_clause(self) -> Compound:
        branches: list[Branch] = []
        keyword = self.expect("word", "if")
        first_test = ""
        while True:
            start = self.index
            self.compound_list(("then",))
            test = self.said(start, self.index - 1)
            self.expect("word", "then")
            body = self.compound_list(("elif", "else", "fi"))
            if keyword.text == "if":
                first_test = f"if {test}"
                branches.append(Branch(first_test, body, keyword.line))
            else:
                branches.append(Branch(f"elif {test} of {first_test}", body, keyword.line))
            if not self.at_word("elif"):
                break
            keyword = self.take()
        if self.at_word("else"):
            keyword = self.take()
            branches.append(Branch(f"else of {first_test}", self.compound_list(("fi",)), keyword.line))
        self.expect("word", "fi")
        self.redirections()
        return Compound(tuple(branches))

    def case_clause(self) -> Compound:
        self.expect("word", "case")
        subject = self.take()
        self.newlines()
        self.expect("word", "in")
        branches: list[Branch] = []
        while True:
            self.newlines()
            if self.at_word("esac"):
                self.take()
                break
            if self.at_op("("):
                self.take()
            first = self.index
            while not self.at_op(")"):
                if self.peek().kind == "end":
                    raise ParseError(self.tokens[first - 1].line, "a case pattern without its ')'")
                self.take()
            self.take()
            patterns = self.source.text[self.tokens[first].start : self.tokens[self.index - 1].end]
            body = self.compound_list(("esac",))
            branches.append(Branch(f"case {subject.text} in {patterns}", body, self.tokens[first].line))
            if self.at_op(*_CASE_END):
                self.take()
        self.redirections()
        return Compound(tuple(branches))

    def loop(self) -> Compound:
        keyword = self.take()
        start = self.index
        if keyword.text in ("for", "select"):
            while not self.at_word("do"):
                if self.peek().kind == "end":
                    raise ParseError(keyword.line, f"a {keyword.text} loop without 'do'")
                self.take()
        else:
            self.compound_list(("do",))
        header = f"{keyword.text} {self.said(start, self.index - 1)}"
        self.expect("word", "do")
        body = self.compound_list(("done",))
        self.expect("word", "done")
        self.redirections()
        return Compound((Branch(header, body, keyword.line),))


def parse(text: str) -> tuple[list[Node], ParseError | None]:
    """A script's commands, and the error that ended the reading (None: it was read to the end)."""
    return _Parser(_Tokens(text)).program()


def commands(text: str) -> tuple[list[Simple], ParseError | None]:
    """Every simple command of a script, in order, whatever it runs under (functions' bodies too)."""
    nodes, error = parse(text)
    return list(_simple_commands(nodes)), error


def _simple_commands(nodes: Sequence[Node]) -> Iterator[Simple]:
    for node in nodes:
        if isinstance(node, Simple):
            yield node
        elif isinstance(node, AndOr):
            for pipeline in node.pipelines:
                yield from _simple_commands(pipeline)
        elif isinstance(node, Compound):
            for branch in node.branches:
                yield from _simple_commands(branch.body)
        else:
            yield from _simple_commands(node.body)


# --- walking the commands ------------------------------------------------------------------------


@dataclass(frozen=True)
class Condition:
    test: str
    """As written, with its branch (`if [[ "${NO_CKPT:-0}" -eq 1 ]]`, `else of if …`)."""
    path: str
    line: int


Kind = Literal["assign", "export", "unexport", "unset"]


@dataclass(frozen=True)
class Setting:
    """One command's effect on one variable."""

    name: str
    kind: Kind
    """`assign` (a value), `export` (of the value it has: `export NAME`), `unexport` (`export -n`), `unset`."""
    value: str
    """An assignment's value (see `Word.value`); empty for the other kinds."""
    expression: bool
    exported: bool
    """An assignment that exports the name too (`export NAME=…`, `declare -x`, under `set -a`)."""
    path: str
    line: int
    conditions: tuple[Condition, ...] = ()

    @property
    def condition(self) -> str:
        return said(self.conditions, self.path)


@dataclass(frozen=True)
class Missing:
    """A `source` of a file that is not there (or that cannot be known without running the file)."""

    path: str
    line: int
    written: str
    """The sourced path as written."""
    conditions: tuple[Condition, ...]

    @property
    def condition(self) -> str:
        return said(self.conditions, self.path)


def said(conditions: Sequence[Condition], path: str) -> str:
    """Conditions as a reader is told them: each test as written, outermost first, joined by ` / `;
    one in another file than `path` (a file sourced under a test) says where it is."""
    return " / ".join(
        item.test if item.path == path else f"{item.test} ({item.path.rsplit('/', 1)[-1]} line {item.line})"
        for item in conditions
    )


@dataclass(frozen=True)
class Sourced:
    """A file read with every file it sources, in the order bash would run them."""

    settings: tuple[Setting, ...]
    paths: tuple[str, ...]
    """The file first, then each file it sources that was read."""
    missing: tuple[Missing, ...] = ()
    unread: tuple[tuple[str, int, str], ...] = ()
    """(file, line, what) for each command whose effect on the environment is not read."""


Follow = Callable[[str, str], tuple[str, str] | None]
"""Given a sourced path as written and the file sourcing it: the path and text of the file it
names, or None where it names none that exists (or none that can be known without running)."""


class _Returned(Exception):  # noqa: N818 - not an error: a `return`, unwinding the walk to its frame
    """`return` (or `exit`): the file, or the function, ends here."""

    def __init__(self, path: str, line: int, conditions: tuple[Condition, ...]) -> None:
        super().__init__(path, line)
        self.path, self.line, self.conditions = path, line, conditions


@dataclass
class _Frame:
    """A file being read, or a function being run: what `return` returns from."""

    path: str
    base: tuple[Condition, ...]
    returned: list[_Returned] = field(default_factory=list)


class _Walker:
    def __init__(self, follow: Follow) -> None:
        self.follow = follow
        self.settings: list[Setting] = []
        self.paths: list[str] = []
        self.missing: list[Missing] = []
        self.unread: list[tuple[str, int, str]] = []
        self.functions: dict[str, tuple[str, Function]] = {}
        self.allexport = False
        self.frames: list[_Frame] = []

    @property
    def path(self) -> str:
        return self.frames[-1].path

    def file(self, path: str, text: str, conditions: tuple[Condition, ...]) -> None:
        if path in self.paths or len(self.frames) >= _MAX_DEPTH:
            return
        self.paths.append(path)
        nodes, error = parse(text)
        self.frame(path, nodes, conditions)
        if error is not None:
            self.unread.append((path, error.line, f"bash cannot read it ({error}), nor anything after it"))

    def frame(self, path: str, nodes: Sequence[Node], conditions: tuple[Condition, ...]) -> None:
        self.frames.append(_Frame(path, conditions))
        try:
            self.body(nodes, conditions)
        except _Returned:
            pass  # an unconditional return: nothing after it runs
        finally:
            self.frames.pop()

    def body(self, nodes: Sequence[Node], conditions: tuple[Condition, ...]) -> None:
        """Commands run one after the other; what follows a conditional `return` among them runs
        only when it did not return."""
        returned = self.frames[-1].returned
        seen = len(returned)
        for node in nodes:
            self.node(node, conditions)
            for item in returned[seen:]:
                test = item.conditions[-1].test if item.conditions else ""
                said = f"unless it returned at line {item.line} ({test})"
                conditions = (*conditions, Condition(said, item.path, item.line))
            seen = len(returned)

    def branch(self, body: Sequence[Node], conditions: tuple[Condition, ...]) -> None:
        """Commands run only under `conditions`: a `return` among them ends them, and is noted for
        what follows."""
        try:
            self.body(body, conditions)
        except _Returned as returned:
            self.frames[-1].returned.append(returned)

    def node(self, node: Node, conditions: tuple[Condition, ...]) -> None:
        if isinstance(node, AndOr):
            if node.background:
                return  # a background job runs in a subshell
            for index, pipeline in enumerate(node.pipelines):
                if len(pipeline) != 1:
                    continue  # each command of a pipeline runs in a subshell
                if index == 0 or (
                    node.guards[index - 1].endswith("&&") and all(map(_succeeds, node.pipelines[:index]))
                ):
                    self.node(pipeline[0], conditions)
                else:
                    guard = Condition(node.guards[index - 1], self.path, node.line)
                    self.branch(pipeline, (*conditions, guard))
        elif isinstance(node, Compound):
            for branch in node.branches:
                self.branch(branch.body, (*conditions, Condition(branch.test, self.path, branch.line)))
        elif isinstance(node, Group):
            if not node.subshell:
                self.body(node.body, conditions)
        elif isinstance(node, Function):
            self.functions[node.name] = (self.path, node)
        else:
            self.simple(node, conditions)

    def simple(self, node: Simple, conditions: tuple[Condition, ...]) -> None:
        for word in node.words:
            self.defaults(word, conditions)
        first = node._first_argument()
        if first == len(node.words):  # assignments alone set the shell's variables
            for word in node.words:
                self.assign(word, conditions, exported=self.allexport)
            return
        name, arguments = node.name, node.words[first + 1 :]
        if name in _DECLARATIONS:
            self.declaration(name, arguments, conditions)
        elif name == "unset":
            options = _options(arguments)
            if "f" not in options.flags:
                for word in options.rest:
                    if word.literal and _NAME.fullmatch(word.value):
                        self.record(word.value, "unset", "", False, False, word.line, conditions)
        elif name in ("source", ".") and arguments:
            self.source(arguments[0], conditions)
        elif name == "set":
            self.set_options(arguments, node.line, conditions)
        elif name in ("return", "exit"):
            raise _Returned(self.path, node.line, conditions[len(self.frames[-1].base) :])
        elif name == "eval":
            self.unread.append((self.path, node.line, "eval runs text made when the file runs"))
        elif name in self.functions and len(self.frames) < _MAX_DEPTH:
            # A function runs where it is called; what it sets is written where it is defined.
            path, function = self.functions[name]
            self.frame(path, function.body, conditions)

    def declaration(self, name: str, arguments: Sequence[Word], conditions: tuple[Condition, ...]) -> None:
        if name == "local":
            return  # the function's own
        options = _options(arguments)
        if options.flags & {"f", "F"} or ("p" in options.flags and not options.rest):
            return
        exports = name == "export" or "x" in options.flags or self.allexport
        unexports = (name == "export" and "n" in options.flags) or "x" in options.unset
        for word in options.rest:
            # Its arguments are assignments even quoted (`export "A=1"`), as bash reads them.
            if _assignment(word) or (_ASSIGNMENT.match(word.value) and not word.expression):
                name = self.assign(word, conditions, exported=exports and not unexports)
                if unexports:
                    self.record(name, "unexport", "", False, False, word.line, conditions)
            elif word.literal and _NAME.fullmatch(word.value) and (exports or unexports):
                kind: Kind = "unexport" if unexports else "export"
                self.record(word.value, kind, "", False, False, word.line, conditions)

    def assign(self, word: Word, conditions: tuple[Condition, ...], *, exported: bool) -> str:
        found = _ASSIGNMENT.match(word.text) or _ASSIGNMENT.match(word.value)
        assert found is not None
        name = found.group(1)
        # The name and `=` are never quoted, so the value is what follows them.
        value = word.value[len(found.group(0)) :]
        expression = word.expression or value.startswith("(")  # an array
        if found.group(2):  # NAME+=value appends
            value, expression = f"${{{name}}}{value}", True
        self.record(name, "assign", value, expression, exported, word.line, conditions)
        return name

    def defaults(self, word: Word, conditions: tuple[Condition, ...]) -> None:
        """`${NAME:=value}` (and `${NAME=value}`) sets NAME where it is unset or empty: a shell variable."""
        for found in re.finditer(r"\$\{([A-Za-z_][A-Za-z0-9_]*):?=", word.text):
            written = word.text[found.start() : _brace_end(word.text, found.start() + 1)]
            self.record(found.group(1), "assign", written, True, self.allexport, word.line, conditions)

    def record(
        self,
        name: str,
        kind: Kind,
        value: str,
        expression: bool,
        exported: bool,
        line: int,
        conditions: tuple[Condition, ...],
    ) -> None:
        self.settings.append(Setting(name, kind, value, expression, exported, self.path, line, conditions))

    def source(self, word: Word, conditions: tuple[Condition, ...]) -> None:
        found = self.follow(word.text, self.path)
        if found is None:
            self.missing.append(Missing(self.path, word.line, word.text, conditions))
        else:
            self.file(*found, conditions)

    def set_options(self, arguments: Sequence[Word], line: int, conditions: tuple[Condition, ...]) -> None:
        state: bool | None = None
        words = [word.value for word in arguments if word.literal]
        for index, text in enumerate(words):
            if text in ("-o", "+o") and words[index + 1 : index + 2] == ["allexport"]:
                state = text == "-o"
            elif re.fullmatch(r"[-+][A-Za-z]+", text) and "a" in text:
                state = text[0] == "-"
        if state is None:
            return
        if conditions:
            self.unread.append((self.path, line, "set -a under a condition: which later assignments it exports"))
        else:
            self.allexport = state


@dataclass(frozen=True)
class _Options:
    flags: frozenset[str]
    unset: frozenset[str]
    """Options given with `+` (`declare +x`)."""
    rest: tuple[Word, ...]


def _options(arguments: Sequence[Word]) -> _Options:
    flags: set[str] = set()
    unset: set[str] = set()
    index = 0
    while index < len(arguments):
        word = arguments[index]
        if not word.literal or not re.fullmatch(r"[-+][A-Za-z]+|--", word.value):
            break
        index += 1
        if word.value == "--":
            break
        (flags if word.value[0] == "-" else unset).update(word.value[1:])
    return _Options(frozenset(flags), frozenset(unset), tuple(arguments[index:]))


def _assignment(word: Word) -> str:
    """The name a word assigns (`NAME=…`, `NAME+=…`: the name unquoted), or ''."""
    found = _ASSIGNMENT.match(word.text)
    return found.group(1) if found else ""


def _brace_end(text: str, start: int) -> int:
    """Just past the `}` closing the `{` at `start` (quotes within are not looked into)."""
    depth = 0
    for index in range(start, len(text)):
        depth += {"{": 1, "}": -1}.get(text[index], 0)
        if depth == 0:
            return index + 1
    return len(text)


def _succeeds(pipeline: Sequence[Node]) -> bool:
    """Whether a pipeline always succeeds, so that what follows its `&&` always runs: `export` or
    `declare` of names and assignments, assignments that run no command (`$( )`), `:` and `true`."""
    if len(pipeline) != 1 or not isinstance(pipeline[0], Simple):
        return False
    command = pipeline[0]
    first = command._first_argument()
    if first == len(command.words):
        # Assignments alone end as their last command substitution does.
        return not any("$(" in word.text or "`" in word.text for word in command.words)
    if command.name in (":", "true"):
        return True
    if command.name not in ("export", "declare", "typeset"):
        return False
    return all(
        _assignment(word) or (word.literal and (_NAME.fullmatch(word.value) or word.value.startswith(("-", "+"))))
        for word in command.words[first + 1 :]
    )


def read(path: str, text: str, follow: Follow) -> Sourced:
    """What sourcing `text` (the file at `path`) does to variables, the files it sources followed."""
    walker = _Walker(follow)
    walker.file(path, text, ())
    return Sourced(tuple(walker.settings), tuple(walker.paths), tuple(walker.missing), tuple(walker.unread))


# --- the environment it leaves -------------------------------------------------------------------


@dataclass(frozen=True)
class Conditional:
    """A value the environment has only when a condition holds."""

    name: str
    value: str | None
    """None: the condition unsets it (or takes it out of the environment)."""
    setting: Setting


@dataclass(frozen=True)
class Environment:
    exported: dict[str, Setting]
    """What a program started after the file inherits whatever its tests find: each exported name's
    last unconditional assignment, in the order they entered the environment last."""
    conditional: tuple[Conditional, ...]
    """Exported values a condition sets, overrides or removes, in the order they are set."""
    variables: dict[str, Setting]
    """Every variable set unconditionally, exported or not."""


def environment(settings: Sequence[Setting]) -> Environment:
    """What a program started after the settings ran inherits (see `Environment`)."""
    value: dict[str, Setting] = {}
    exported: dict[str, bool] = {}
    pending: dict[str, list[tuple[int, Setting]]] = {}
    for index, setting in enumerate(settings):
        name = setting.name
        if setting.conditions:
            pending.setdefault(name, []).append((index, setting))
        elif setting.kind == "assign":
            value.pop(name, None)
            value[name] = setting
            pending.pop(name, None)  # whatever a condition set before, this value is the one
            exported[name] = exported.get(name, False) or setting.exported
        elif setting.kind == "export":
            exported[name] = True
            if name in value:
                value[name] = value.pop(name)
        elif setting.kind == "unexport":
            exported[name] = False
        else:
            value.pop(name, None)
            pending.pop(name, None)
            exported[name] = False
    conditional: list[Conditional] = []
    for _, setting in sorted(item for items in pending.values() for item in items):
        name, base = setting.name, value.get(setting.name)
        if setting.kind == "assign" and (setting.exported or exported.get(name)):
            conditional.append(Conditional(name, setting.value, setting))
        elif setting.kind == "export" and base is not None and not exported.get(name):
            conditional.append(Conditional(name, base.value, setting))
        elif setting.kind in ("unexport", "unset") and base is not None and exported.get(name):
            conditional.append(Conditional(name, None, setting))
    unconditional = {name: setting for name, setting in value.items() if exported.get(name)}
    return Environment(unconditional, tuple(conditional), value)
