"""Launch text a reader sees whole, and a checkout of exactly the repository and commit it cites.

The page shows a launch as the text that runs (`run`, `launch.checkout`, `launch.command`, the
environment, the inputs the script asks for). That promise fails where the text runs other than it
reads: a command after 400 blanks or 300 blank lines, out of sight; a letter of another script in a
command word (Cyrillic `а` in `bаsh` names another program); a no-break space, which the shell reads
as part of a word. The reader (`yamlsource.py`) already refuses invisible, bidirectional-control,
private-use and unassigned code points everywhere; this refuses the rest, each with its line in
the file. It also refuses a checkout that clones another repository than `launch.source.repository`
(`mIcommons` is not `mlcommons`) or checks out another commit than `launch.source.commit`, a cited
link to anything but that repository at that commit, and a `<placeholder>` that `launch.sh` would
turn into a variable a recipe may not set (`envnames.py`).

Every problem is one value's, located at the line of the file the offending line of the value is
on (exactly for a literal block, `|`, which is how recipes write scripts; at the value's first line
for other styles), and its message names the line within the value too.
"""

from __future__ import annotations

import re
import unicodedata
import urllib.parse
from collections.abc import Callable, Collection, Iterator
from dataclasses import dataclass
from typing import Any

from ..problems import Problem, json_path
from . import envnames, shelltext
from .plaintext import prose_problem
from .yamlsource import SourceMap

MAX_LINE_COLUMNS = 1000
"""A launch line is at most this wide (a tab to the next multiple of 8, a wide character 2): ten
times the hundred or so columns a recipe page's code block shows before it scrolls, and nearly twice
the widest line of any real launch (550, a sed expression torchtitan's README edits a script with).
Past it, nobody reads a line to its end."""

MAX_BLANK_COLUMNS = 32
"""At most this many blank columns in a row before text on a line: a third of what the page shows,
so that blanks cannot push a command out of sight. Real launches indent by at most 4."""

MAX_BLANK_LINES = 2
"""At most this many blank lines in a row: more push what follows out of sight of a reader who takes
the script to have ended. Real launches have at most one."""

_NON_ASCII_SPACES = "".join(chr(code) for code in range(0x80, 0x3001) if unicodedata.category(chr(code)) == "Zs")
_ODD_SPACE = re.compile(f"[{_NON_ASCII_SPACES}]")
_SPACES = re.compile(" +")
_NOT_ASCII = re.compile("[^\x00-\x7f]")

FieldPath = tuple[str | int, ...]


@dataclass(frozen=True)
class _Text:
    path: FieldPath
    what: str
    """The value as messages name it: `the command`, `the value of NAME`."""
    text: str
    shell: bool
    """Shell code (its words run); else a value the launch passes quoted, or prose."""


def launch_problems(
    data: Any, locations: SourceMap, display: str, file_text: Callable[[], str], refused: Collection[Problem] = ()
) -> list[Problem]:
    """Every problem of the recipe's launch text and checkout. `file_text` gives the file's text (asked
    for only to place a problem on its line); values already `refused` (a character the reader
    refuses, a type the schema refuses) are not looked at again."""
    if not isinstance(data, dict):
        return []
    skip = {problem.where for problem in refused if problem.where}
    found: list[tuple[FieldPath, int, int, str]] = []  # (path, line within the value, column, message)
    values: dict[FieldPath, str] = {}
    for path, value, shell in _texts(data):
        # Nearly every value is a short line of ASCII: looked at closely only when it may hold a problem.
        if _ordinary(value) or _refused(path, skip):
            continue
        values[path] = value
        text = _Text(path, _what(path, data), value, shell)
        found += [(path, line, column, message) for line, column, message in _text_problems(text)]
    launch = data.get("launch")
    if isinstance(launch, dict):
        found += _launch_source_problems(launch, skip)
    if not found:
        return []
    place = _Placer(locations, file_text)
    return [
        Problem(display, *place(path, line, column, values.get(path)), json_path(path), message)
        for path, line, column, message in found
    ]


_GAP = " " * (MAX_BLANK_COLUMNS + 1)
_TWO_BLANK_LINES = re.compile(r"\n[ \t]*\n[ \t]*\n")


def _ordinary(value: str) -> bool:
    """Whether `value` surely holds no problem of launch text: ASCII, no tab, no long run of blanks,
    no two blank lines in a row, no line past the limit (each a search in C)."""
    return (
        value.isascii()
        and "\t" not in value
        and _GAP not in value
        and (len(value) <= MAX_LINE_COLUMNS or max(map(len, value.split("\n"))) <= MAX_LINE_COLUMNS)
        and (value.count("\n") < 3 or _TWO_BLANK_LINES.search(value) is None)
    )


def _refused(path: FieldPath, skip: Collection[str]) -> bool:
    if not skip:
        return False
    where = json_path(path)
    return any(where == other or where.startswith((other + ".", other + "[")) for other in skip)


def _texts(data: dict[str, Any]) -> Iterator[tuple[FieldPath, str, bool]]:
    """(path, value, whether it is shell code) of each text of the launch: code's words run; a value
    `launch.sh` quotes, or prose, does not."""
    if isinstance(data.get("run"), str):
        yield ("run",), data["run"], True
    yield from _environment(data.get("env"), ("env",), shell=True)  # env.sh writes an author's values unquoted
    yield from _inputs(data.get("inputs"), ("inputs",))
    launch = data.get("launch")
    if not isinstance(launch, dict):
        return
    for key in ("checkout", "command"):
        if isinstance(launch.get(key), str):
            yield ("launch", key), launch[key], True
    yield from _environment(launch.get("env"), ("launch", "env"), shell=False)  # quoted by launch.sh
    yield from _inputs(launch.get("inputs"), ("launch", "inputs"))
    steps = launch.get("preparation")
    for index, step in enumerate(steps if isinstance(steps, list) else ()):
        if not isinstance(step, dict):
            continue
        # prepare.sh runs a step's commands; it shows its session and says what it does in comments.
        for key, shell in (("commands", True), ("session", True), ("what", False)):
            if isinstance(step.get(key), str):
                yield ("launch", "preparation", index, key), step[key], shell
        yield from _inputs(step.get("inputs"), ("launch", "preparation", index, "inputs"))
    for key, texts in (("conditional", ("value", "condition")), ("withheld", ("value",))):
        items = launch.get(key)
        for index, item in enumerate(items if isinstance(items, list) else ()):
            for text in texts:
                if isinstance(item, dict) and isinstance(item.get(text), str):
                    yield ("launch", key, index, text), item[text], False


def _environment(env: Any, path: FieldPath, *, shell: bool) -> Iterator[tuple[FieldPath, str, bool]]:
    for name, value in env.items() if isinstance(env, dict) else ():
        if isinstance(value, str):
            yield (*path, name), value, shell


def _inputs(items: Any, path: FieldPath) -> Iterator[tuple[FieldPath, str, bool]]:
    for index, item in enumerate(items if isinstance(items, list) else ()):
        for key in ("description", "origin"):
            if isinstance(item, dict) and isinstance(item.get(key), str):
                yield (*path, index, key), item[key], False


def _what(path: FieldPath, data: dict[str, Any]) -> str:
    """The value at `path` as a message names it: `the command`, `the value of 'NCCL_DEBUG'`."""
    named = {("run",): "the script", ("launch", "checkout"): "the checkout", ("launch", "command"): "the command"}
    if path in named:
        return named[path]
    if path[:2] == ("launch", "preparation") and len(path) == 4:
        step = f"preparation step {path[2] + 1}"
        return {"commands": f"the commands of {step}", "session": f"the session of {step}"}.get(
            str(path[3]), f"what {step} does"
        )
    if path[-2] == "env":  # env.NAME or launch.env.NAME
        return f"the value of {_brief(path[-1])}"
    holder: Any = data
    for part in path[:-1]:
        holder = holder[part]
    name = _brief(holder.get("name"))
    if path[-1] == "value":
        return f"the {'withheld' if path[1] == 'withheld' else 'conditional'} value of {name}"
    return f"the {path[-1]} of {name}"


# --- what a reader sees of a text --------------------------------------------------------------


def _text_problems(text: _Text) -> Iterator[tuple[int, int, str]]:
    """(line within the value, 1-based; column, 1-based; message) of each problem, the first of each kind.
    Every search is linear in the text: a value may be a quarter of a megabyte of blanks."""
    value, what = text.text, text.what
    lines = value.split("\n")
    blank = _blank_lines(lines)
    if blank is not None:
        count, after = blank
        yield (
            after,
            1,
            f"{what} has {count:,} blank lines in a row before its line {after:,}: more than {MAX_BLANK_LINES} push "
            "what follows out of sight of a reader who takes the text to have ended; remove them",
        )
    wide = _first_wide_line(lines)
    if wide is not None:
        number, columns = wide
        yield (
            number,
            1,
            f"line {number:,} of {what} is {columns:,} columns wide: past {MAX_LINE_COLUMNS:,} a reader does not see "
            "a line whole (the page shows about 100 before it scrolls, and the widest line of a real launch is 550); "
            "break it with \\ continuations",
        )
    run = _blank_run(lines)
    if run is not None:
        number, column, width, following = run
        yield (
            number,
            column,
            f"line {number:,} of {what} has {width:,} blank columns in a row before {_brief(following)}: more than "
            f"{MAX_BLANK_COLUMNS} push what follows out of sight on the page; remove them",
        )
    if value.isascii():
        return
    odd = _ODD_SPACE.search(value)
    if odd is not None:
        number, column = _line_and_column(value, odd.start())
        yield (
            number,
            column,
            f"line {number:,} of {what} holds {_named(odd.group())}, which looks like a space but is part of a word "
            "to the shell and to the program it runs; write a plain space",
        )
    yield from _letters(text)


def _blank_lines(lines: list[str]) -> tuple[int, int] | None:
    """(how many, the line after them) of the first run of more than MAX_BLANK_LINES blank lines that
    text follows."""
    run = 0
    for number, line in enumerate(lines, start=1):
        if not line.strip(" \t"):
            run += 1
        elif run > MAX_BLANK_LINES:
            return run, number
        else:
            run = 0
    return None


def _blank_run(lines: list[str]) -> tuple[int, int, int, str] | None:
    """(line, column, width, the word after it) of the first run of more than MAX_BLANK_COLUMNS blank
    columns that text follows on its line."""
    for number, line in enumerate(lines, start=1):
        if "  " not in line and "\t" not in line:
            continue
        shown = line.expandtabs(8) if "\t" in line else line
        for run in _SPACES.finditer(shown):
            if len(run.group()) > MAX_BLANK_COLUMNS and run.end() < len(shown):
                return number, run.start() + 1, len(run.group()), shown[run.end() :].split()[0]
    return None


def _letters(text: _Text) -> Iterator[tuple[int, int, str]]:
    """A letter that is not ASCII in shell code (outside quotes and comments), and a word that mixes
    scripts anywhere: the look-alikes of `bash` or `сurl`."""
    value, what = text.text, text.what
    regions = _regions(value) if text.shell else "q" * len(value)
    for found in _NOT_ASCII.finditer(value):
        if regions[found.start()] == "c" and found.group() not in _NON_ASCII_SPACES:  # a space: said above
            number, column = _line_and_column(value, found.start())
            yield (
                number,
                column,
                f"line {number:,} of {what} holds {_named(found.group())} in a command, outside quotes and comments: "
                "a letter that looks like another makes a command read as one program and run another; write "
                "commands, options and names in ASCII (quoted text and comments may use any script)",
            )
            break
    for start, end in _spans(regions, "q#"):
        problem = prose_problem(value[start:end])
        if problem is not None:
            word = re.search(r"'([^']*)'", problem)
            index = value.find(word.group(1), start, end) if word else start
            number, column = _line_and_column(value, max(index, start))
            yield number, column, f"line {number:,} of {what} {problem}"
            break


def _first_wide_line(lines: list[str]) -> tuple[int, int] | None:
    for number, line in enumerate(lines, start=1):
        if len(line) > MAX_LINE_COLUMNS // 2 or "\t" in line or not line.isascii():
            columns = _columns(line)
            if columns > MAX_LINE_COLUMNS:
                return number, columns
    return None


def _columns(line: str) -> int:
    """How many columns `line` takes in a monospaced code block."""
    shown = line.expandtabs(8) if "\t" in line else line
    if shown.isascii():
        return len(shown)
    return sum(2 if unicodedata.east_asian_width(char) in "WF" else 1 for char in shown)


def _regions(script: str) -> str:
    """For each character of a shell script, whether bash reads it as code (`c`), quoted text (`q`)
    or a comment (`#`). Enough of bash for that only: quotes, `$'...'`, escapes, comments, and the
    code of `$(...)` and backquotes inside double quotes. A here-document's text counts as code."""
    out = []
    stack: list[list[Any]] = [["code", 0]]  # each frame: its kind, and for `$(`, the parentheses open in it
    index = 0
    while index < len(script):
        char = script[index]
        frame = stack[-1]
        kind = frame[0]
        step = 1
        if kind == "comment":
            mark = "#"
            if char == "\n":
                stack.pop()
                mark = "c"
        elif kind == "single":
            mark = "q"
            if char == "'":
                stack.pop()
        elif kind == "ansi":
            mark = "q"
            if char == "\\":
                step = 2
            elif char == "'":
                stack.pop()
        elif kind == "double":
            mark = "q"
            if char == "\\":
                step = 2
            elif char == '"':
                stack.pop()
            elif script.startswith("$(", index):
                stack.append(["sub", 0])
                mark, step = "c", 2
            elif char == "`":
                stack.append(["backquote", 0])
                mark = "c"
        else:  # code: the script's own, a `$(...)` or a backquoted command
            mark = "c"
            if char == "\\":
                step = 2
            elif char == "'":
                stack.append(["single", 0])
            elif script.startswith("$'", index):
                stack.append(["ansi", 0])
                step = 2
            elif char == '"':
                stack.append(["double", 0])
            elif char == "#" and (index == 0 or script[index - 1] in " \t\n;&|()"):
                stack.append(["comment", 0])
                mark = "#"
            elif script.startswith("$(", index):
                stack.append(["sub", 0])
                step = 2
            elif char == "(" and kind == "sub":
                frame[1] += 1
            elif char == ")" and kind == "sub":
                if frame[1]:
                    frame[1] -= 1
                else:
                    stack.pop()
            elif char == "`" and kind == "backquote":
                stack.pop()
            elif char == "`":
                stack.append(["backquote", 0])
        out.append(mark * min(step, len(script) - index))
        index += step
    return "".join(out)


def _spans(regions: str, kinds: str) -> Iterator[tuple[int, int]]:
    for match in re.finditer(f"[{re.escape(kinds)}]+", regions):
        yield match.start(), match.end()


def _line_and_column(value: str, index: int) -> tuple[int, int]:
    line = value.count("\n", 0, index) + 1
    return line, index - (value.rfind("\n", 0, index) + 1) + 1


def _named(char: str) -> str:
    name = unicodedata.name(char, "")
    return f"U+{ord(char):04X}" + (f" ({name})" if name else "")


def _brief(word: Any) -> str:
    """A word as messages quote it: its repr (a newline in it stays on one line), shortened."""
    text = str(word)
    return repr(text if len(text) <= 80 else text[:77] + "...")


# --- the checkout and the cited links --------------------------------------------------------------

_SAFE_STEP = re.compile(r"[A-Za-z0-9_./:@%+=,-]+")
_COMMENT = re.compile(r"(?:^|[ \t])#")
_CLONE_OPTIONS = frozenset({"-q", "--quiet", "--recursive", "--recurse-submodules", "--no-checkout"})
_SWITCH_OPTIONS = frozenset({"-q", "--quiet", "--detach"})
_SUBMODULE_OPTIONS = frozenset({"--init", "--recursive", "-q", "--quiet", "--"})
_GITHUB_REPOSITORY = re.compile(r"https://github\.com/([^/\s]+)/([^/\s]+?)(?:\.git)?/?")
_BLOB = re.compile(r"https://github\.com/([^/]+)/([^/]+)/blob/([^/]+)/([^#]*)(#.*)?")
_LINES_ANCHOR = re.compile(r"#L[1-9][0-9]*(?:-L[1-9][0-9]*)?")


def _launch_source_problems(launch: dict[str, Any], skip: Collection[str]) -> list[tuple[FieldPath, int, int, str]]:
    source = launch.get("source")
    if not isinstance(source, dict):
        return []
    repository, commit = source.get("repository"), source.get("commit")
    if not (isinstance(repository, str) and isinstance(commit, str)) or any(
        _refused(("launch", "source", key), skip) for key in ("repository", "commit")
    ):
        return []  # what the schema refuses of the source is said there
    found: list[tuple[FieldPath, int, int, str]] = []
    checkout = launch.get("checkout")
    if isinstance(checkout, str) and not _refused(("launch", "checkout"), skip):
        for line, message in checkout_problems(checkout, repository, commit):
            found.append((("launch", "checkout"), line, 1, message))
    files = source.get("files")
    paths = set()
    for index, item in enumerate(files if isinstance(files, list) else ()):
        where: FieldPath = ("launch", "source", "files", index, "url")
        if not isinstance(item, dict) or not isinstance(item.get("path"), str):
            continue
        paths.add(item["path"])
        if isinstance(item.get("url"), str) and not _refused(where, skip):
            message = link_problem(item["url"], item["path"], repository, commit)
            if message is not None:
                found.append((where, 1, 1, message))
    for key, what, why in (
        ("withheld", "a withheld variable", "names the publisher's file (and line) that sets it"),
        ("conditional", "a conditional value", "names the publisher's file (and line) that sets it"),
        ("preparation", "a preparation step", "names the publisher's file (and lines) it is read from"),
    ):
        items = launch.get(key)
        for index, item in enumerate(items if isinstance(items, list) else ()):
            where = ("launch", key, index, "file")
            file = item.get("file") if isinstance(item, dict) else None
            if isinstance(file, str) and file not in paths and not _refused(where, skip):
                found.append(
                    (
                        where,
                        1,
                        1,
                        f"{item['file']!r} is not a file launch.source.files cites: {what} {why}, cited with the "
                        "launch",
                    )
                )
    for index, step in enumerate(steps if isinstance(steps := launch.get("preparation"), list) else ()):
        folder, file = (step.get("folder"), step.get("file")) if isinstance(step, dict) else (None, None)
        where = ("launch", "preparation", index, "folder")
        if not isinstance(folder, str) or not isinstance(file, str) or _refused(where, skip):
            continue
        if not file.startswith(folder.rstrip("/") + "/"):
            message = f"{folder!r} does not hold {file!r}: a step runs in the folder of the file it is read from"
            message += " (or one above it)"
            found.append((where, 1, 1, message))
    scripts = [
        (text, ("launch", key), what)
        for key, what in (("checkout", "the checkout"), ("command", "the command"))
        if isinstance(text := launch.get(key), str) and not _refused(("launch", key), skip)
    ]
    found += _placeholder_problems(scripts, "launch.sh")
    # prepare.sh makes its variables of the checkout's and the steps' placeholders together.
    steps = launch.get("preparation")
    prepared = [
        (
            step["commands"],
            ("launch", "preparation", index, "commands"),
            f"the commands of preparation step {index + 1}",
        )
        for index, step in enumerate(steps if isinstance(steps, list) else ())
        if isinstance(step, dict)
        and isinstance(step.get("commands"), str)
        and not _refused(("launch", "preparation", index, "commands"), skip)
    ]
    found += _placeholder_problems(prepared, "prepare.sh")
    return found


def _placeholder_problems(
    scripts: list[tuple[str, FieldPath, str]], script: str
) -> Iterator[tuple[FieldPath, int, int, str]]:
    """A `<placeholder>` written in the launch that `script` would make a variable a recipe may not
    set: the variable it is the whole value of, or the one named after it (shelltext.py)."""
    every = shelltext.placeholder_variables([text for text, _, _ in scripts], ())
    for (text, path, what), uses in zip(scripts, every, strict=True):
        for variable, use in uses:
            if variable == use.assigned_to:
                reason = envnames.is_dangerous_name(variable)
                problem = None if reason is None else f"stands for {variable}, a name a recipe may not set: {reason}"
            else:
                problem = envnames.placeholder_problem(use.text, script)
            if problem is not None:
                number, column = _line_and_column(text, use.start)
                yield path, number, column, f"line {number} of {what} writes {use.written}, which {problem}"


def link_problem(url: str, path: str, repository: str, commit: str) -> str | None:
    """Why `url` is not the file `path` of `repository` at `commit` on GitHub (lines anchored or not)."""
    expected = f"https://github.com/{repository}/blob/{commit}/{urllib.parse.quote(path, safe='/+')}"
    if url == expected or (url.startswith(expected + "#") and _LINES_ANCHOR.fullmatch(url, len(expected))):
        return None  # as every importer writes it
    found = _BLOB.fullmatch(url)
    if found is None:
        return f"is not a link to a file of launch.source.repository at launch.source.commit: write {expected}"
    owner, name, at, linked, anchor = found.groups()
    if f"{owner}/{name}" != repository:
        return (
            f"links a file of {owner}/{name}, not of launch.source.repository ({repository}): every file a launch "
            "cites is in the repository its checkout clones, letter case included"
        )
    if at != commit:
        return (
            f"links the file at {at[:12]}, not at launch.source.commit ({commit[:12]}): every file a launch cites "
            "is linked at the commit its checkout checks out"
        )
    if urllib.parse.unquote(linked) != path:
        return f"links {urllib.parse.unquote(linked)!r}, not the file it cites ({path!r}): write {expected}"
    if anchor is not None and not _LINES_ANCHOR.fullmatch(anchor):
        return f"ends in {_brief(anchor)}, which is no line anchor: write #L12 or #L12-L20, or nothing"
    return None


_EXPLAINED = "letter for letter"
"""How a message that says what the step should have been ends (it is not told the steps too)."""

_STEPS = (
    "a checkout clones launch.source.repository (git clone https://github.com/{repository}.git), enters it "
    "(cd {name}), checks out launch.source.commit (git switch --detach {commit}, or git checkout {commit}), and "
    "may then update its submodules or cd into a folder of it"
)


def checkout_problems(checkout: str, repository: str, commit: str) -> list[tuple[int, str]]:
    """(line within the checkout, message) of each step that is not one of cloning `repository`,
    entering it and checking out `commit` (then updating its submodules or entering a folder of it),
    and of each of those it never takes. Steps are lines, or commands joined by `&&`."""
    name = repository.rsplit("/", 1)[-1]
    steps = _STEPS.format(repository=repository, name=name, commit=commit)
    problems: list[tuple[int, str]] = []
    state = _Checkout()
    lines = checkout.split("\n")
    for number, line in enumerate(lines, start=1):
        comment = _COMMENT.search(line)
        code = line[: comment.start()] if comment else line
        for step in (part.strip() for part in code.split("&&")):
            if not step and code.strip():
                problems.append((number, f"line {number} of the checkout has an empty step; {steps}"))
            if not step:
                continue
            message = state.step(step.split(), repository, commit, name)
            if message is not None:
                # Another repository or commit says what it should be; any other step is told the steps.
                explained = message.endswith(_EXPLAINED)
                problems.append(
                    (number, f"line {number} of the checkout {message}" + ("" if explained else f"; {steps}"))
                )
    last = len(lines) - (1 if checkout.endswith("\n") else 0)
    if not state.tried_clone:
        problems.append((1, f"the checkout never clones launch.source.repository; {steps}"))
    if not state.tried_switch:
        problems.append((max(last, 1), f"the checkout never checks out launch.source.commit; {steps}"))
    return problems


def checkout_folder(checkout: str, repository: str, commit: str) -> str | None:
    """The folder of the clone a checkout leaves the shell in (`` for its root); None for a checkout
    with problems (`checkout_problems`), which is refused before anything is made of it."""
    if checkout_problems(checkout, repository, commit):
        return None
    state = _Checkout()
    for line in checkout.split("\n"):
        comment = _COMMENT.search(line)
        code = line[: comment.start()] if comment else line
        for step in (part.strip() for part in code.split("&&")):
            if step:
                state.step(step.split(), repository, commit, repository.rsplit("/", 1)[-1])
    return "/".join(state.folder)


class _Checkout:
    """Where a checkout is as its steps run: cloned (into which folder), in the clone, switched."""

    def __init__(self) -> None:
        self.clone_dir = ""
        self.inside = False
        self.switched = False
        self.tried_clone = False
        """A step clones, right or wrong: a wrong one is its own problem, not a missing clone."""
        self.tried_switch = False
        self.folder: list[str] = []
        """The folder of the clone the steps leave the shell in, as path parts below its root."""

    def step(self, words: list[str], repository: str, commit: str, name: str) -> str | None:
        """Why these words are not the checkout's next step, or None (and the state moves on)."""
        odd = next((word for word in words if not _SAFE_STEP.fullmatch(word)), None)
        if odd is not None:
            return f"writes {_brief(odd)}: a step of a checkout has no quotes, expansions, redirections or ;"
        command = " ".join(words)
        if words[0] == "cd" and len(words) == 2:
            return self._enter(words[1])
        if words[0] != "git" or len(words) < 2:
            return f"runs {_brief(command)}, which is not a step of a checkout"
        rest = words[1:]
        folder = None
        if rest[0] == "-C" and len(rest) > 2:
            folder, rest = rest[1], rest[2:]
        if rest[0] == "clone" and folder is None:
            self.tried_clone = True
            return self._clone(rest[1:], repository, name)
        if rest[0] in ("switch", "checkout"):
            self.tried_switch = True
            return self._switch(rest[1:], folder, commit)
        if rest[0] == "submodule" and len(rest) > 1 and rest[1] == "update":
            if not self.switched:
                return "updates submodules before it checks out launch.source.commit"
            if not self._in_clone(folder):
                return "updates submodules outside the clone"
            paths = [word for word in rest[2:] if word not in _SUBMODULE_OPTIONS]
            bad = next((path for path in paths if not _relative(path)), None)
            return None if bad is None else f"names {_brief(bad)}, which is not a folder of the clone"
        return f"runs {_brief(command)}, which is not a step of a checkout"

    def _clone(self, words: list[str], repository: str, name: str) -> str | None:
        if self.clone_dir:
            return "clones a second time"
        arguments = [word for word in words if word not in _CLONE_OPTIONS]
        if not arguments or len(arguments) > 2 or arguments[0].startswith("-"):
            return "clones with options a checkout does not use"
        url = arguments[0]
        if url not in (f"https://github.com/{repository}.git", f"https://github.com/{repository}"):
            found = _GITHUB_REPOSITORY.fullmatch(url)
            other = f"{found.group(1)}/{found.group(2)}" if found else url
            if found:  # judged as the clone it is, so that the steps after it are not wrong as well
                self.clone_dir = arguments[1] if len(arguments) == 2 else found.group(2)
            return (
                f"clones {_brief(other)}, not launch.source.repository ({repository}): the checkout clones exactly the "
                f"repository whose files the launch cites, {_EXPLAINED}"
            )
        folder = arguments[1] if len(arguments) == 2 else name
        if "/" in folder or not _relative(folder):
            return f"clones into {_brief(folder)}, which is not a folder name"
        self.clone_dir = folder
        return None

    def _enter(self, folder: str) -> str | None:
        if not _relative(folder):
            return f"enters {_brief(folder)}, which is not a folder of the clone (a relative path without ..)"
        if not self.clone_dir:
            return f"enters {_brief(folder)} before it clones launch.source.repository"
        parts = folder.rstrip("/").split("/")
        if not self.inside:
            if folder.rstrip("/") != self.clone_dir and not folder.startswith(self.clone_dir + "/"):
                return f"enters {_brief(folder)}, not the clone ({self.clone_dir})"
            self.inside = True
            parts = parts[1:]
        self.folder += [part for part in parts if part != "."]
        return None

    def _in_clone(self, folder: str | None) -> bool:
        if folder is None:
            return self.inside
        if not _relative(folder):
            return False
        return self.inside or folder.rstrip("/") == self.clone_dir or folder.startswith(self.clone_dir + "/")

    def _switch(self, words: list[str], folder: str | None, commit: str) -> str | None:
        arguments = [word for word in words if word not in _SWITCH_OPTIONS]
        if len(arguments) != 1 or arguments[0].startswith("-"):
            return "checks out with options a checkout does not use"
        if not self.clone_dir:
            return "checks out a revision before it clones launch.source.repository"
        if not self._in_clone(folder):
            return "checks out a revision outside the clone"
        if arguments[0] != commit:
            self.switched = True
            return (
                f"checks out {_brief(arguments[0])}, not launch.source.commit ({commit}): the checkout checks out "
                f"exactly the commit whose files the launch cites, {_EXPLAINED}"
            )
        self.switched = True
        return None


def _relative(path: str) -> bool:
    """A path inside the current folder: relative, without `..`, not an option."""
    parts = path.rstrip("/").split("/")
    return not path.startswith(("/", "-", "~")) and all(part not in ("", "..") for part in parts)


# --- placing a problem on its line of the file -------------------------------------------------------


class _Placer:
    """The line and column in the file of a line and column within a value: exact in a literal block
    (`|`), where each line of the value is a line of the file; the value's own position otherwise."""

    def __init__(self, locations: SourceMap, file_text: Callable[[], str]) -> None:
        self.locations = locations
        self.file_text = file_text
        self._lines: list[str] | None = None

    def __call__(self, path: FieldPath, line: int, column: int, value: str | None) -> tuple[int, int]:
        start = self.locations.value_at(path)
        if self._lines is None:
            self._lines = self.file_text().split("\n")
        lines = self._lines
        header = lines[start.line - 1][start.column - 1 :] if 0 < start.line <= len(lines) else ""
        if not header.startswith("|"):
            return start.line, start.column
        at = start.line + line  # the value's first line is the one after the `|`
        if at > len(lines):
            return start.line, start.column
        written = lines[at - 1]
        own = value.split("\n")[line - 1] if value is not None and line <= value.count("\n") + 1 else ""
        # The block's indentation: what the file writes before the value's own line.
        indent = len(written) - len(own) if own and written.endswith(own) else len(written) - len(written.lstrip(" "))
        return at, indent + column
