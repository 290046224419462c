"""A documented command's placeholders become variables wherever bash reads them, and the script made
of it runs what the publisher wrote with the reader's values: checked by running it in bash, with
stand-ins for the programs it calls that record their arguments."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path
from types import SimpleNamespace

import pytest

from openrecipes.checking import launchscript, shellcheck
from openrecipes.checking.launchinputs import UNDESCRIBED, documented_inputs
from openrecipes.reading.shelltext import contexts, placeholder_variables, placeholders, substituted

BASH = shutil.which("bash")
requires_bash = pytest.mark.skipif(BASH is None and not os.environ.get("CI"), reason="bash is not installed")


def _context_of(script: str, marker: str) -> str:
    return contexts(script)[script.index(marker)]


@pytest.mark.parametrize(
    ("script", "marker", "context"),
    [
        ("echo a # note X", "X", "comment"),
        ("echo 'a X b'", "X", "single"),
        ('echo "a X b"', "X", "double"),
        ("echo $'a \\' X'", "X", "ansi"),
        ('echo "$(echo X)"', "X", "code"),
        ("echo \"$(echo 'X')\"", "X", "single"),
        ("echo ${#X}", "X", "code"),
        ("cat <<EOF\nX\nEOF\necho Y", "X", "heredoc"),
        ("cat <<'EOF'\nX\nEOF\necho Y", "X", "heredoc-literal"),
        ("cat <<-EOF\n\tX\n\tEOF\necho Y", "Y", "code"),
        ("echo a\\ 'X'", "X", "single"),
        ("echo \\'X", "X", "code"),
    ],
)
def test_each_character_is_read_as_bash_reads_it(script: str, marker: str, context: str) -> None:
    assert _context_of(script, marker) == context


@pytest.mark.parametrize(
    "script",
    [
        "cat <<EOF\nbody\nEOF",  # a here-document
        "cat <<< word",  # a here-string
        "diff <(ls a) <(ls b)",  # process substitutions
        "exec 3<&0",  # a descriptor
        "sort <in.txt >out.txt",  # redirections with spaces around
        "echo 2<x>",  # a numbered redirection
        "echo '<>' '< a>' '<a >' '<1.2>'",  # not a description: empty, padded, no letter
        "echo hi # <a comment placeholder>",
    ],
)
def test_what_bash_reads_as_redirections_and_comments_is_no_placeholder(script: str) -> None:
    assert placeholders(script) == []


def test_a_placeholder_is_named_after_what_it_is_assigned_to_else_after_its_text() -> None:
    script = (
        "export DATADIR=</path/to/dataset>/gov_report\n"
        "export MODEL=</path/to/dataset>/model\n"
        'export LOGDIR="</path/to/output/dir>"\n'
        "export CONT=<as/set/above>\n"
        "DATA=<as/set/above> run --image <docker/registry>/img:tag --path=<path>\n"
    )
    (uses,) = placeholder_variables([script], taken={"PATH"})
    assert [(use.written, variable) for variable, use in uses] == [
        ("</path/to/dataset>", "PATH_TO_DATASET"),
        ("</path/to/dataset>", "PATH_TO_DATASET"),  # one text, one input
        ("</path/to/output/dir>", "LOGDIR"),
        ("<as/set/above>", "CONT"),  # one text, two variables: what each is assigned to
        ("<as/set/above>", "DATA"),
        ("<docker/registry>", "DOCKER_REGISTRY"),
        ("<path>", "PATH_INPUT"),  # never a name the shell has
    ]


# Every place a placeholder can stand, with what the program then receives when the reader's
# value is VALUE: each is run for real below.
VALUE = '/data/my set\'s "dir"'
PLACES = [
    ("unquoted", "record <data dir>", [VALUE]),
    ("in a word", "record --data=<data dir>/train", [f"--data={VALUE}/train"]),
    ("double quotes", 'record "path: <data dir>!"', [f"path: {VALUE}!"]),
    ("single quotes", "record 'path: <data dir>!'", [f"path: {VALUE}!"]),
    ("ansi quotes", "record $'path:\\t<data dir>'", [f"path:\t{VALUE}"]),
    ("bash -c", "bash -c 'record \"$1\" <data dir>' _ first", ["first", VALUE]),
    ("an assignment", "DATADIR=<data dir> record2", [VALUE]),
    ("an export", 'export DATADIR="<data dir>"\nrecord2', [VALUE]),
    ("a here-document", "cat <<EOF | record3\nfrom <data dir>\nEOF", [f"from {VALUE}"]),
    ("a substitution", 'record "$(echo <data dir>)"', [VALUE]),
]


@requires_bash
@pytest.mark.parametrize(("command", "expected"), [(c, e) for _, c, e in PLACES], ids=[name for name, _, _ in PLACES])
def test_the_script_passes_the_readers_value_wherever_the_placeholder_stood(
    tmp_path: Path, command: str, expected: list[str]
) -> None:
    launch = _launch(command, inputs=[("<data dir>", "the data set's folder")])
    variables, _ = documented_inputs(launch)
    (variable,) = [item for item in variables if item.written == "<data dir>"]
    script = launchscript.launches(_fields(launch))[0].launch_sh
    assert script is not None
    assert all(finding.level not in ("error",) for finding in shellcheck.findings([script.text])[0])
    assert _run(tmp_path, script.text, {variable.name: VALUE}) == expected


@requires_bash
def test_a_placeholder_in_a_redirection_names_the_file_read(tmp_path: Path) -> None:
    launch = _launch("record < <data file>.txt", inputs=[("<data file>", "what to read")])
    script = launchscript.launches(_fields(launch))[0].launch_sh
    assert script is not None
    (tmp_path / "work").mkdir()
    (tmp_path / "work" / "my input.txt").write_text("one line\n", encoding="utf-8")
    assert _run(tmp_path, script.text, {"DATA_FILE": "my input"}) == ["stdin"]


@requires_bash
def test_an_unset_input_stops_the_script_before_anything_runs(tmp_path: Path) -> None:
    launch = _launch("record <data dir>", inputs=[("<data dir>", "the data set's folder")])
    script = launchscript.launches(_fields(launch))[0].launch_sh
    assert script is not None
    done = _execute(tmp_path, script.text, {})
    assert done.returncode == 1
    assert done.stderr == "launch.sh: DATA_DIR is not set: the data set's folder\n"
    assert not (tmp_path / "calls").exists()


def test_a_placeholder_the_recipe_does_not_describe_is_still_a_variable_never_text() -> None:
    launch = _launch("run --in <input file> --out </path/to/out>", inputs=[("<input file>", "what to read")])
    variables, (_, command) = documented_inputs(launch)
    assert [(item.name, item.written, item.description) for item in variables] == [
        ("INPUT_FILE", "<input file>", "what to read"),
        ("PATH_TO_OUT", "</path/to/out>", UNDESCRIBED),
    ]
    assert substituted(launch.command, command) == 'run --in "${INPUT_FILE}" --out "${PATH_TO_OUT}"\n'


def _launch(command: str, inputs: list[tuple[str, str]]) -> SimpleNamespace:
    return SimpleNamespace(
        kind="documented",
        source=SimpleNamespace(repository="example/repo", commit="0" * 40),
        checkout="",
        container=None,
        command=command + "\n",
        env=None,
        sets=None,
        inputs=[
            SimpleNamespace(name=name, description=text, origin=None, optional=None, kind=None) for name, text in inputs
        ],
        preparation=None,
        missing=None,
    )


def _fields(launch: SimpleNamespace) -> SimpleNamespace:
    return SimpleNamespace(
        run=None, env=None, launch=launch, model="Example 1B", gpu=SimpleNamespace(count=8, type="H100")
    )


STAND_INS = {
    # Each records what it was given, one item a line, as the launcher would receive it.
    "record": (
        'for word in "$@"; do printf "%s\\n" "$word"; done >> "$CALLS"\nif read -r _; then echo stdin >> "$CALLS"; fi'
    ),
    "record2": 'printf "%s\\n" "$DATADIR" >> "$CALLS"',
    "record3": 'cat >> "$CALLS"',
}


def _execute(folder: Path, text: str, values: dict[str, str]) -> subprocess.CompletedProcess[str]:
    bin_dir = folder / "bin"
    bin_dir.mkdir(exist_ok=True)
    for name, body in STAND_INS.items():
        (bin_dir / name).write_text(f"#!/usr/bin/env bash\n{body}\n", encoding="utf-8")
        (bin_dir / name).chmod(0o755)
    work = folder / "work"
    work.mkdir(exist_ok=True)
    script = folder / "launch.sh"
    script.write_text(text, encoding="utf-8")
    env = {"PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}", "CALLS": str(folder / "calls"), **values}
    return subprocess.run(
        ["bash", str(script)], cwd=work, env=env, capture_output=True, text=True, check=False, stdin=subprocess.DEVNULL
    )


def _run(folder: Path, text: str, values: dict[str, str]) -> list[str]:
    done = _execute(folder, text, values)
    assert done.returncode == 0, done.stderr
    calls = folder / "calls"
    return calls.read_text(encoding="utf-8").splitlines() if calls.exists() else []
