"""What a launch script needs from whoever runs it: read as bash would, listed on the page, warned about."""

from __future__ import annotations

import re

import pytest
from conftest import SEED, SEED_ID, Project

from openrecipes.checking.scriptinputs import script_inputs
from openrecipes.cli import main


def _names(script: str, environment: tuple[str, ...] = ()) -> list[str]:
    return [item.written for item in script_inputs(script, environment)]


@pytest.mark.parametrize(
    ("script", "expected"),
    [
        ('python train.py --ckpt "$HF_CKPT" --data ${SFT_DATA}', ["$HF_CKPT", "$SFT_DATA"]),
        ("OUT=/tmp/run\npython train.py --out $OUT", []),
        ("export CUDA_DEVICE_MAX_CONNECTIONS=1\necho $CUDA_DEVICE_MAX_CONNECTIONS", []),
        ("for NODE in a b; do echo $NODE; done", []),
        ("read -r ANSWER\necho $ANSWER", []),
        ("read -p 'Node?' -t 5 NODE REST\necho $NODE $REST", []),
        ("ARGS=(--a 1)\npython t.py ${ARGS[@]} ${#MISSING[@]}", ["$MISSING"]),
        ("echo '$NOT_EXPANDED' \\$ALSO_NOT # $COMMENTED", []),
        ('echo "it\'s $INSIDE_DOUBLE"', ["$INSIDE_DOUBLE"]),
        ("echo $HOME $SLURM_PROCID $PATH", []),
        ("python -m <slime entry module> --rank $RANK", ["<slime entry module>", "$RANK"]),
        ("cat <<EOF\nhello\nEOF\ndiff <(sort a) <(sort b)", []),
        ("echo $A $A ${A}", ["$A"]),
    ],
)
def test_a_script_reads_what_bash_would_expand(script: str, expected: list[str]) -> None:
    assert _names(script) == expected


def test_the_environment_sets_names_and_lines_are_counted() -> None:
    inputs = script_inputs("# setup\n\necho $NUM_NODES\necho $MASTER_ADDR\n", ["NUM_NODES"])
    assert [(item.written, item.line) for item in inputs] == [("$MASTER_ADDR", 4)]


def _with_inputs(text: str, inputs: str) -> str:
    return text.replace("\nrun: |", f"\n{inputs}run: |", 1)


@pytest.mark.site
def test_the_page_lists_each_input_and_says_which_the_author_did_not_describe(project: Project) -> None:
    project.add(
        SEED_ID, _with_inputs(SEED, "inputs:\n  - name: HF_CKPT\n    description: Path to the <b>checkpoint</b>\n")
    )
    result = project.build()
    assert result.ok, result.log
    page = result.html(f"recipes/{SEED_ID}/")
    table = re.search(r'<table class="or-inputs">.*?</table>', page, re.S).group(0)
    rows = re.findall(r"<tr><td><code>(.*?)</code></td><td>(.*?)</td></tr>", table)
    assert ("$HF_CKPT", "Path to the &lt;b&gt;checkpoint&lt;/b&gt;") in rows
    undescribed = [name for name, text in rows if "not described by the author" in text]
    assert undescribed == [
        "$NVLINK_COUNT",
        "&lt;slime entry module&gt;",
        "$MODEL_ARGS",
        "$TORCH_DIST",
        "$SFT_DATA",
        "$PROFILE_DIR",
    ]


def test_validate_warns_about_undescribed_inputs_without_failing(
    project: Project, capsys: pytest.CaptureFixture[str]
) -> None:
    project.add_seed()
    assert main(["validate", "--root", str(project.root)]) == 0
    out, err = capsys.readouterr()
    assert re.search(
        r"^recipes/qwen3\.8-27b/h200/attune-tp4-pp2\.yaml:\d+:\d+: \$\.run: warning: the launch script reads "
        r"\$NVLINK_COUNT, <slime entry module>, \$MODEL_ARGS, \$HF_CKPT, ",
        out,
        re.M,
    )
    assert "1 recipe valid, 1 warning" in err


def test_describing_every_input_silences_the_warning(project: Project, capsys: pytest.CaptureFixture[str]) -> None:
    names = ["NVLINK_COUNT", "<slime entry module>", "MODEL_ARGS", "HF_CKPT", "TORCH_DIST", "SFT_DATA", "PROFILE_DIR"]
    described = "inputs:\n" + "".join(f"  - name: '{name}'\n    description: what to give\n" for name in names)
    project.add(SEED_ID, _with_inputs(SEED, described))
    assert main(["validate", "--root", str(project.root)]) == 0
    out, err = capsys.readouterr()
    assert "warning" not in out + err


def test_a_malformed_input_name_is_a_located_problem(project: Project, capsys: pytest.CaptureFixture[str]) -> None:
    project.add(SEED_ID, _with_inputs(SEED, "inputs:\n  - name: $HF_CKPT\n    description: x\n"))
    assert main(["validate", "--root", str(project.root)]) == 1
    out, _ = capsys.readouterr()
    assert "$.inputs[0].name" in out
