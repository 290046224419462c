"""A configuration's environment read as bash reads it (reading/shellenv.py), never by running it:
each construct a publisher's `config_*.sh` uses, what it leaves exported whatever its tests find,
and each value only a condition sets, with the condition as written.

Where bash is installed, each case (our own scripts, never a publisher's file) is also sourced by
bash itself, and what bash exports is held to the reading: every variable bash exports is either
read as exported with the same value or listed as set under a condition, and every value read as
unconditional is what bash exports, unless a condition the reading lists may change it.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from openrecipes.reading import shellenv

BASH = shutil.which("bash")
requires_bash = pytest.mark.skipif(BASH is None and not os.environ.get("CI"), reason="bash is not installed")

NO_CKPT = 'if [ "${NO_CKPT:-0}" = 1 ]'

# (name, script, {exported name: value}, [(conditional name, value or None, condition)])
CASES: list[tuple[str, str, dict[str, str], list[tuple[str, str | None, str]]]] = [
    (
        "and-chain",
        "export ACG=full && export ACM=block && export ACL=21\n",
        {"ACG": "full", "ACM": "block", "ACL": "21"},
        [],
    ),
    ("semicolons", "export A=1; export B=2;export C=3;\n", {"A": "1", "B": "2", "C": "3"}, []),
    (
        "if-elif-else",
        "export A=1\n"
        f"{NO_CKPT}; then\n"
        '    export LOAD_CHECKPOINT=""\n'
        "    export A=0\n"
        'elif [ -n "$OTHER" ]; then\n'
        "    export B=elif\n"
        "else\n"
        "    export C=else\n"
        "fi\n",
        {"A": "1"},
        [
            ("LOAD_CHECKPOINT", "", NO_CKPT),
            ("A", "0", NO_CKPT),
            ("B", "elif", f'elif [ -n "$OTHER" ] of {NO_CKPT}'),
            ("C", "else", f"else of {NO_CKPT}"),
        ],
    ),
    (
        "case",
        'case "${MODE:-full}" in\n  full|half) export M=1 ;;\n  (*) export M=2;;\nesac\nexport AFTER=1\n',
        {"AFTER": "1"},
        [("M", "1", 'case "${MODE:-full}" in full|half)'), ("M", "2", 'case "${MODE:-full}" in *)')],
    ),
    (
        "nested",
        'if [ -n "$X" ]\nthen\n  if [ -n "$Y" ]; then export N=1; else export N=2; fi\nfi\n',
        {},
        [("N", "1", 'if [ -n "$X" ] / if [ -n "$Y" ]'), ("N", "2", 'if [ -n "$X" ] / else of if [ -n "$Y" ]')],
    ),
    (
        "quotes-holding-operators-and-hashes",
        "export Q=\"a && b; c\" R='d # e || f' S=$'g\\th' T=i\\ j  # export U=comment\n",
        {"Q": "a && b; c", "R": "d # e || f", "S": "g\th", "T": "i j"},
        [],
    ),
    (
        "line-continuations",
        "export PMIX_MCA_gds=\"^ds12\" \\\n      NCCL_DEBUG=WARN \\\n      NCCL_IB_HCA='=mlx5_0,mlx5_3'\n"
        'export JOINED="one \\\ntwo"\n',
        {"PMIX_MCA_gds": "^ds12", "NCCL_DEBUG": "WARN", "NCCL_IB_HCA": "=mlx5_0,mlx5_3", "JOINED": "one two"},
        [],
    ),
    (
        "comments",
        "# export NO=1\nexport YES=1 # export ALSO_NO=1\n  #export INDENTED_NO=1\n",
        {"YES": "1"},
        [],
    ),
    (
        "export-n-and-unset",
        "export K=1\nexport -n K\nL=2\nexport L\nexport M=3\nunset M\ndeclare -x D=4\n",
        {"L": "2", "D": "4"},
        [],
    ),
    (
        "here-documents-skipped",
        "cat >/dev/null <<EOF\nexport IN_DOC=1\nEOF\nexport AFTER=1\n"
        "cat >/dev/null <<-'X'\n\texport IN_DOC2=1\n\tX\nexport LAST=1\n",
        {"AFTER": "1", "LAST": "1"},
        [],
    ),
    (
        "plain-assignments-stay-in-the-shell",
        "P=1\nexport Q=plain\nR=2 true\nset -a\nAUTO=1\nset +a\nMANUAL=2\n",
        {"Q": "plain", "AUTO": "1"},
        [],
    ),
    (
        "a-test-and-its-default",
        '[ -z "$DEFAULTED" ] && export DEFAULTED=yes\ntrue || export NEVER=1\n',
        {},
        [("DEFAULTED", "yes", '[ -z "$DEFAULTED" ] &&'), ("NEVER", "1", "true ||")],
    ),
    (
        "subshells-pipelines-and-background-jobs-set-nothing",
        "( export SUB=1 )\nexport PIPE=1 | cat\nexport BACK=1 &\nwait\n",
        {},
        [],
    ),
    ("functions-run-where-called", "f() { export F=1; }\nexport BEFORE=1\nf\n", {"BEFORE": "1", "F": "1"}, []),
    (
        "overridden-under-a-condition-then-set-again",
        'if [ -n "$X" ]; then export V=cond; fi\nexport V=final\n',
        {"V": "final"},
        [],
    ),
    (
        "a-conditional-return",
        'export A=1\nif [ -z "$GO" ]; then return; fi\nexport B=2\n',
        {"A": "1"},
        [("B", "2", 'unless it returned at line 2 (if [ -z "$GO" ])')],
    ),
    (
        "a-return-inside-nested-tests",
        'if [ -z "$X" ]; then\n  if [ -z "$Y" ]; then return; fi\n  export INNER=1\nfi\nexport AFTER=1\n',
        {},
        [
            ("INNER", "1", 'if [ -z "$X" ] / unless it returned at line 2 (if [ -z "$Y" ])'),
            ("AFTER", "1", 'unless it returned at line 2 (if [ -z "$Y" ])'),
        ],
    ),
    (
        "a-loop",
        "for i in 1 2; do export LOOPED=done; done\n",
        {},
        [("LOOPED", "done", "for i in 1 2")],
    ),
    (
        "test-operators-inside-double-brackets",
        '[[ -n "$Z" && ( -z "$W" || 1 -lt 2 ) ]] && export T=1\nexport AFTER=1\n',
        {"AFTER": "1"},
        [("T", "1", '[[ -n "$Z" && ( -z "$W" || 1 -lt 2 ) ]] &&')],
    ),
]


def _read(script: str, files: dict[str, str] | None = None) -> tuple[shellenv.Sourced, shellenv.Environment]:
    files = files or {}

    def follow(written: str, sourcing: str) -> tuple[str, str] | None:
        name = written.strip("\"'").removeprefix("./")
        return (name, files[name]) if name in files else None

    sourced = shellenv.read("config.sh", script, follow)
    return sourced, shellenv.environment(sourced.settings)


@pytest.mark.parametrize(("script", "exported", "conditional"), [case[1:] for case in CASES], ids=[c[0] for c in CASES])
def test_each_construct_is_read_as_bash_reads_it(
    script: str, exported: dict[str, str], conditional: list[tuple[str, str | None, str]]
) -> None:
    sourced, environment = _read(script)
    assert sourced.unread == () and sourced.missing == ()
    assert {name: item.value for name, item in environment.exported.items()} == exported
    assert [(item.name, item.value, item.setting.condition) for item in environment.conditional] == conditional


def _bash_exports(folder: Path, script: str) -> dict[str, str]:
    path = folder / "config.sh"
    path.write_text(script, encoding="utf-8")
    # Our own scripts only: the importer never runs a publisher's file.
    done = subprocess.run(
        [BASH or "bash", "--noprofile", "--norc", "-c", "source ./config.sh >/dev/null; env -0"],
        cwd=folder,
        env={"PATH": os.environ.get("PATH", "/usr/bin:/bin")},
        capture_output=True,
        check=True,
    )
    return dict(item.split("=", 1) for item in done.stdout.decode().split("\0") if item)


@requires_bash
@pytest.mark.parametrize("script", [case[1] for case in CASES], ids=[case[0] for case in CASES])
def test_what_bash_exports_agrees_with_the_reading(tmp_path: Path, script: str) -> None:
    baseline = _bash_exports(tmp_path, "")
    exports = {name: value for name, value in _bash_exports(tmp_path, script).items() if baseline.get(name) != value}
    _, environment = _read(script)
    conditional = {item.name for item in environment.conditional}
    for name, value in exports.items():
        read = environment.exported.get(name)
        assert name in conditional or (read is not None and read.value == value), (name, value, read)
    for name, read in environment.exported.items():
        if name not in conditional:
            assert exports.get(name) == read.value, (name, read.value)


def test_each_value_carries_its_file_and_line_through_the_files_it_sources() -> None:
    common = f'export COMMON=1\n{NO_CKPT}; then\n    export LOAD_CHECKPOINT=""\nfi\n'
    script = (
        "source ./config_common.sh\n"
        "export TP=8\n"
        'if [ -n "$EXTRA" ]; then\n  source ./config_extra.sh\n  source ./config_absent.sh\nfi\n'
        "source $(dirname ${BASH_SOURCE[0]})/config_missing.sh\n"
    )
    sourced, environment = _read(script, {"config_common.sh": common, "config_extra.sh": "export EXTRA_SET=1\n"})
    assert sourced.paths == ("config.sh", "config_common.sh", "config_extra.sh")
    assert [(name, item.path, item.line) for name, item in environment.exported.items()] == [
        ("COMMON", "config_common.sh", 1),
        ("TP", "config.sh", 2),
    ]
    checkpoint, extra = environment.conditional
    assert (checkpoint.name, checkpoint.setting.path, checkpoint.setting.line) == (
        "LOAD_CHECKPOINT",
        "config_common.sh",
        3,
    )
    assert checkpoint.setting.condition == NO_CKPT
    # A condition in another file than the value's says where it is.
    assert (extra.name, extra.setting.path, extra.setting.line) == ("EXTRA_SET", "config_extra.sh", 1)
    assert extra.setting.condition == 'if [ -n "$EXTRA" ] (config.sh line 3)'
    assert [(item.line, item.written, item.condition) for item in sourced.missing] == [
        (5, "./config_absent.sh", 'if [ -n "$EXTRA" ]'),
        (7, "$(dirname ${BASH_SOURCE[0]})/config_missing.sh", ""),
    ]


def test_values_that_expand_when_sourced_are_expressions_kept_as_written() -> None:
    script = (
        "export WALLTIME_RUNANDTIME=150\n"
        "export WALLTIME=$((5 + ${NEXP:-1} * ($WALLTIME_RUNANDTIME + 5)))\n"
        "export DGXSYSTEM=$(basename $(readlink -f ${BASH_SOURCE[0]}) | sed 's/^config_//' | sed 's/\\.sh$//' )\n"
        'export CONT="$(hostname):5000#local/image:latest"\n'
        "export LITERAL='$NOT_EXPANDED'\n"
        'export SHARP=${SBATCH_NETWORK:-sharp}\n: "${LOAD_MINIMAL_NUM_SAMPLES:=0}"\n'
    )
    _, environment = _read(script)
    exported = environment.exported
    assert not exported["WALLTIME_RUNANDTIME"].expression
    assert (
        exported["WALLTIME"].expression
        and exported["WALLTIME"].value == "$((5 + ${NEXP:-1} * ($WALLTIME_RUNANDTIME + 5)))"
    )
    assert (
        exported["DGXSYSTEM"].value
        == "$(basename $(readlink -f ${BASH_SOURCE[0]}) | sed 's/^config_//' | sed 's/\\.sh$//' )"
    )
    assert exported["CONT"].expression and exported["CONT"].value == "$(hostname):5000#local/image:latest"
    assert not exported["LITERAL"].expression and exported["LITERAL"].value == "$NOT_EXPANDED"
    assert exported["SHARP"].expression
    # `${NAME:=value}` sets a shell variable, which is not exported
    assert "LOAD_MINIMAL_NUM_SAMPLES" not in exported
    assert environment.variables["LOAD_MINIMAL_NUM_SAMPLES"].value == "${LOAD_MINIMAL_NUM_SAMPLES:=0}"


def test_what_cannot_be_read_is_said_with_its_line_and_what_came_before_stands() -> None:
    sourced, environment = _read('export A=1\neval "export B=2"\nif [ -n "$X" ]; then\nexport C=3\n')
    assert {name: item.value for name, item in environment.exported.items()} == {"A": "1"}
    assert sourced.unread == (
        ("config.sh", 2, "eval runs text made when the file runs"),
        ("config.sh", 5, "bash cannot read it (expected 'fi', found the end of the file), nor anything after it"),
    )
    sourced, environment = _read("export A=1\nexport B='never closed\n")
    assert list(environment.exported) == ["A"]
    assert sourced.unread == (
        ("config.sh", 2, "bash cannot read it (a quote opened here is never closed), nor anything after it"),
    )


def test_a_file_sourcing_itself_is_read_once() -> None:
    sourced, environment = _read("export A=1\nsource ./config.sh\n", {"config.sh": "export A=1\nsource ./config.sh\n"})
    assert sourced.paths == ("config.sh",) and list(environment.exported) == ["A"]


def test_commands_and_their_assignments_are_read_as_words() -> None:
    commands, error = shellenv.commands(
        "export DATADIR=</path/to/dataset> && CONT=registry/image:tag sbatch -N 2 run.sub  # CONT=commented:out\n"
        "docker pull nvcr.io/nvidia/pytorch:25.01-py3\n"
    )
    assert error is None
    assert [command.name for command in commands] == ["export", "sbatch", "docker"]
    assert [shellenv.assigned(word) for word in commands[1].assignments] == [("CONT", "registry/image:tag")]
    assert [word.value for word in commands[2].arguments] == ["pull", "nvcr.io/nvidia/pytorch:25.01-py3"]
