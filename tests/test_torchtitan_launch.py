"""torchtitan's documented launch for a report that publishes no command (issue 21).

The input is torchtitan's own files copied byte for byte at 9dec370, the commit the 2024 report
ran (`importer_fixtures/torchtitan-releases/9dec370…/`), and the report itself at 820504e, the
commit that added it: a scratch repository holds them as two commits, the report naming the
first. The import's launches are compared with the catalogue's, exactly, after the scratch
commits are written back as upstream's.
"""

from __future__ import annotations

import re
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import yaml
from test_importers import FIXTURES, REPO, commit, fixture_files, new_repo, read

from openrecipes.importers import torchtitan as tt
from openrecipes.importers import torchtitan_launch, torchtitan_recipes
from openrecipes.importers.gitsource import GitSource

RAN = "9dec370ad26b5f8e9a7333a0e36165018262644b"
REPORTED = "820504e20d1149fbf0b98c567af24c4b0433b22d"
REPORT = "benchmarks/llama3_h100_202412_torchtitan.md"
COPIES = FIXTURES / "torchtitan-releases"
BLOB = f"https://github.com/pytorch/torchtitan/blob/{RAN}"


@dataclass(frozen=True)
class Scratch:
    repo: Path
    ran: str
    reported: str

    def as_upstream(self, text: str) -> str:
        for scratch, real in ((self.ran, RAN), (self.reported, REPORTED)):
            text = text.replace(scratch, real).replace(scratch[:7], real[:7])
        return text


@pytest.fixture(scope="module")
def scratch(tmp_path_factory: pytest.TempPathFactory) -> Scratch:
    repo = new_repo(tmp_path_factory.mktemp("torchtitan"), "torchtitan")
    ran = commit(repo, fixture_files(COPIES / RAN), "torchtitan at 9dec370", "2024-12-26T23:40:37Z")
    report = (COPIES / REPORTED / REPORT).read_text(encoding="utf-8")
    assert report.count(RAN) == 1 and report.count("[9dec370]") == 1
    report = report.replace(RAN, ran).replace("[9dec370]", f"[{ran[:7]}]")
    reported = commit(repo, {REPORT: report}, "add benchmarks folder", "2025-06-13T00:00:00Z")
    return Scratch(repo, ran, reported)


@pytest.fixture(scope="module")
def made(scratch: Scratch) -> dict[str, dict[str, Any]]:
    recipes = {p.id: p.data for p in torchtitan_recipes.build(GitSource.open(scratch.repo, None)).recipes}
    return yaml.safe_load(scratch.as_upstream(yaml.safe_dump(recipes, allow_unicode=True, sort_keys=False)))


EIGHT = "llama-3.1-8b/h100-96gb/tt-202412-torchtitan-fp8-8gpu-fsdp8-cp1"
FOUR_D = "llama-3.1-405b/h100-96gb/tt-202412-torchtitan-fp8-512gpu-fsdp4-cp2"
FLOAT8 = (
    "--float8.enable_float8_linear --float8.enable_fsdp_float8_all_gather "
    "--float8.precompute_float8_dynamic_scale_for_fsdp"
)
TOKENIZER = (
    "python torchtitan/datasets/download_tokenizer.py --repo_id meta-llama/Meta-Llama-3.1-8B "
    '--tokenizer_path "original" --hf_token="$HF_TOKEN"\n'
)


def test_the_catalogue_holds_what_the_import_makes_of_the_copies(made: dict[str, dict[str, Any]]) -> None:
    committed = {
        name.removesuffix(".yaml"): read(path)
        for path in sorted((REPO / "recipes").rglob("tt-202412-torchtitan-*.yaml"))
        for name in [path.relative_to(REPO / "recipes").as_posix()]
    }
    assert sorted(made) == sorted(committed) and len(made) == 8
    for recipe_id, data in made.items():
        assert data["launch"] == committed[recipe_id]["launch"], recipe_id
        assert data["launch"]["kind"] == "documented"


def test_a_single_host_row_is_run_llama_train_with_its_settings_as_options(made: dict[str, dict[str, Any]]) -> None:
    launch = made[EIGHT]["launch"]
    assert launch["source"]["commit"] == RAN
    assert launch["checkout"] == (
        "git clone https://github.com/pytorch/torchtitan.git\ncd torchtitan\n"
        f"git switch --detach {RAN}  # the torchtitan the report ran (9dec370, 2024/12/26)\n"
    )
    assert launch["command"] == (
        'NGPU=8 CONFIG_FILE="./train_configs/llama3_8b.toml" ./run_llama_train.sh \\\n'
        "  --training.batch_size 1 \\\n"
        "  --training.seq_len 32768 \\\n"
        "  --training.data_parallel_shard_degree 8 \\\n"
        "  --training.tensor_parallel_degree 1 \\\n"
        "  --experimental.pipeline_parallel_degree 1 \\\n"
        "  --experimental.context_parallel_degree 1 \\\n"
        "  --activation_checkpoint.mode full \\\n"
        "  --training.compile \\\n" + "".join(f"  {flag} \\\n" for flag in FLOAT8.split()).removesuffix(" \\\n") + "\n"
    )
    # the global batch as train.py computes it from the options it passes: local batch 1 × FSDP 8
    assert launch["sets"] == {
        "gpus": 8, "tp": 1, "pp": 1, "cp": 1, "gbs": 8, "mbs": 1, "seq_length": 32768, "precision": "fp8",
    }  # fmt: skip
    assert "env" not in launch
    assert [item["name"] for item in launch["inputs"]] == ["<GPU host>", "<torch and torchao>"]
    # The README's tokenizer download is the launch's preparation, with the token it reads.
    (step,) = launch["preparation"]
    assert (step["what"], step["file"], step["lines"], step["commands"]) == (
        "Downloading a tokenizer",
        "README.md",
        [78, 89],
        TOKENIZER,
    )
    assert [(item["name"], item["kind"]) for item in step["inputs"]] == [("HF_TOKEN", "access-token")]
    cited = [(item["path"], item.get("lines"), item["what"]) for item in launch["source"]["files"]]
    assert cited[:6] == [
        ("README.md", [91, 96], "the launch of a training run"),
        ("run_llama_train.sh", [13, 25], "NGPU, and the options after it passed to train.py"),
        ("README.md", [78, 89], "the tokenizer download"),
        ("train_configs/llama3_8b.toml", None, "the train config of the 8B flavour (line 20)"),
        ("torchtitan/config_manager.py", [33, 42], "options on the command line override the train config"),
        ("docs/float8.md", [1, 18], "Float8 training, as torchtitan launches it"),
    ]
    assert ("torchtitan/config_manager.py", [221, 223], "--training.seq_len: the row's sequence length 32768") in cited
    assert (
        "torchtitan/config_manager.py",
        [276, 281],
        "--training.tensor_parallel_degree: the row's TP 1 (derived, not printed)",
    ) in cited
    notes = launch["notes"]
    assert notes.startswith("The report publishes no command and names no config file. This is torchtitan's documented")
    assert "not a log of the command that produced the figures" in notes
    assert "the launch passes the 3 that docs/float8.md launches Float8 training with (line 10)" in notes
    assert '`dataset = "c4"` (line 38); `steps = 1000` (line 33); `lr = 3e-4` (line 26)' in notes


def test_a_multi_node_row_is_the_slurm_script_adjusted_as_the_readme_says(
    made: dict[str, dict[str, Any]], tmp_path: Path
) -> None:
    launch = made[FOUR_D]["launch"]
    options = (
        "--training.batch_size 8 --training.seq_len 65536 --training.data_parallel_shard_degree 4 "
        "--training.tensor_parallel_degree 8 --experimental.pipeline_parallel_degree 8 "
        "--experimental.context_parallel_degree 2 --experimental.pipeline_parallel_schedule 1F1B "
        "--activation_checkpoint.mode full --training.compile --experimental.enable_async_tensor_parallel " + FLOAT8
    )
    assert launch["command"] == (
        "# multinode_trainer.slurm adjusted as torchtitan's README says: 64 nodes, and the row's options "
        "after train.py\n"
        "sed -i \\\n"
        "  -e 's/^#SBATCH --ntasks=4$/#SBATCH --ntasks=64/' \\\n"
        "  -e 's/^#SBATCH --nodes=4$/#SBATCH --nodes=64/' \\\n"
        "  -e 's/--nnodes 4 /--nnodes 64 /' \\\n"
        f"  -e 's|--job.config_file ${{CONFIG_FILE}}$|--job.config_file ${{CONFIG_FILE}} {options}|' \\\n"
        "  multinode_trainer.slurm\n"
        'CONFIG_FILE="./train_configs/llama3_405b.toml" sbatch --partition "$SLURM_PARTITION" multinode_trainer.slurm\n'
    )
    # With pipeline stages the local batch is split into microbatches: no mbs.
    # --training.batch_size 8 × --training.data_parallel_shard_degree 4 (512 GPUs: TP 8 × PP 8 × CP 2 × FSDP 4)
    assert launch["sets"] == {
        "gpus": 512,
        "tp": 8,
        "pp": 8,
        "cp": 2,
        "gbs": 32,
        "seq_length": 65536,
        "precision": "fp8",
    }
    names = [item["name"] for item in launch["inputs"]]
    assert names == ["<Slurm cluster>", "<torch and torchao>", "SLURM_PARTITION"]
    assert launch["preparation"][0]["commands"] == TOKENIZER
    cited = [(item["path"], item.get("lines")) for item in launch["source"]["files"]]
    assert ("README.md", [98, 121]) in cited and ("multinode_trainer.slurm", [13, 63]) in cited
    assert ("run_llama_train.sh", [13, 25]) not in cited
    assert 'exports FI_PROVIDER="efa" (line 34) and NCCL_IB_DISABLE=1 (line 37)' in launch["notes"]
    assert "Pipeline microbatches are not stated" in launch["notes"]
    # The edit does to torchtitan's script what the README says, and nothing else.
    script = tmp_path / "multinode_trainer.slurm"
    original = (COPIES / RAN / "multinode_trainer.slurm").read_text(encoding="utf-8")
    script.write_text(original, encoding="utf-8")
    edit = launch["command"].split("sed -i", 1)[1].split("\nCONFIG_FILE=", 1)[0]
    subprocess.run(["bash", "-c", f"sed -i{edit}"], cwd=tmp_path, check=True)
    changed = [
        (old, new)
        for old, new in zip(original.splitlines(), script.read_text(encoding="utf-8").splitlines(), strict=True)
        if old != new
    ]
    assert [new for _, new in changed] == [
        "#SBATCH --ntasks=64",
        "#SBATCH --nodes=64",
        "srun torchrun --nnodes 64 --nproc_per_node 8 --rdzv_id 101 --rdzv_backend c10d --rdzv_endpoint "
        f'"$head_node_ip:29500" ./train.py --job.config_file ${{CONFIG_FILE}} {options}',
    ]


@pytest.mark.parametrize("recipe_id", [EIGHT, FOUR_D])
def test_every_cited_line_is_what_it_says_at_the_commit(made: dict[str, dict[str, Any]], recipe_id: str) -> None:
    for item in made[recipe_id]["launch"]["source"]["files"]:
        lines = (COPIES / RAN / item["path"]).read_text(encoding="utf-8").splitlines()
        if "lines" not in item:
            continue
        first, last = item["lines"]
        cited = "\n".join(lines[first - 1 : last])
        option = re.match(r"--(\S+):", item["what"])
        if option:  # an option is cited at its add_argument call
            assert lines[first - 1].strip() == "self.parser.add_argument(" and f'"--{option.group(1)}"' in cited
            assert lines[last - 1].strip() == ")"
        elif item["path"] == "README.md":  # a whole section: its heading to the line before the next one
            after = next((line for line in lines[last:] if line.strip()), "# end")
            assert lines[first - 1].startswith("### ") or lines[first - 1].startswith("## "), item
            assert after.startswith("#") and lines[last - 1].strip(), item
    eight = made[EIGHT]["launch"]["source"]["files"]
    readme = (COPIES / RAN / "README.md").read_text(encoding="utf-8").splitlines()
    assert 'CONFIG_FILE="./train_configs/llama3_8b.toml" ./run_llama_train.sh' in "\n".join(readme[90:96])
    assert eight[4]["lines"] == [33, 42]
    manager = (COPIES / RAN / "torchtitan/config_manager.py").read_text(encoding="utf-8").splitlines()
    assert manager[41].strip() == "precedence order: cmdline > toml > argparse default"


# --- what cannot be mapped is said, never guessed --------------------------------------------------

CAPTION_6 = (
    "**Table 6** 4D parallelism (FSDP + TP + PP + CP) + torch.compile + Float8 + AsyncTP + 1F1B. Llama 3.1 405B "
    "model. 512 GPUs (TP 8, PP8). Local batch size 8. Full activation checkpointing."
)


def _row(caption: str, header: tuple[str, ...], cells: str, layout: dict[str, Any], scratch: Scratch) -> Any:
    values = tt.parse_values(caption, header, cells)
    version = tt.Version("torchtitan", scratch.ran[:7], scratch.ran, "2024/12/26", 77)
    return torchtitan_launch.Row(values, layout, 512, 8, "405B", version, "https://example.org/report#L77", "torch x")


def test_an_interleaved_schedule_needs_stages_per_rank_the_report_does_not_state(scratch: Scratch) -> None:
    caption = CAPTION_6.replace(" + 1F1B", "")
    row = _row(caption, ("Schedule", "Sequence Length", "TPS/GPU"), "| Interleaved 1F1B | 8192 | 128 |",
               {"tp": 8, "pp": 8, "dp": 8}, scratch)  # fmt: skip
    launch = torchtitan_launch.documented(row, GitSource.open(scratch.repo, None))
    assert launch == {
        "kind": "not-published",
        "reason": "The report publishes no command and names no config file, and torchtitan's documented launcher at "
        "the commit it ran cannot carry this row's settings without guessing: the Interleaved 1F1B schedule needs its "
        "stages per rank (--experimental.pipeline_parallel_split_points), which the report does not state.",
    }


def test_a_technique_the_config_turns_on_but_the_row_does_not_list_is_not_guessed_off(scratch: Scratch) -> None:
    caption = CAPTION_6.replace("torch.compile + ", "")
    row = _row(caption, ("Parallelism", "Sequence Length", "TPS/GPU"), "| FSDP 8, CP 1 | 32768 | 76 |",
               {"tp": 8, "pp": 8, "cp": 1, "dp": 8}, scratch)  # fmt: skip
    launch = torchtitan_launch.documented(row, GitSource.open(scratch.repo, None))
    assert launch["kind"] == "not-published"
    assert launch["reason"].endswith(
        "the row does not list torch.compile, which train_configs/llama3_405b.toml turns on (training.compile, line "
        "37), and the report does not say it was off."
    )


def test_a_scaling_the_commit_has_no_option_for_and_a_model_with_two_configs(scratch: Scratch, tmp_path: Path) -> None:
    header = ("Parallelism", "Quantization", "Sequence Length", "TPS/GPU")
    cells = "| FSDP 8, CP 1 | float8 rowwise | 32768 | 76 |"
    row = _row(CAPTION_6, header, cells, {"tp": 8, "pp": 8, "cp": 1, "dp": 8}, scratch)
    launch = torchtitan_launch.documented(row, GitSource.open(scratch.repo, None))
    assert launch["reason"].endswith("torchtitan at this commit has no option for float8 rowwise scaling.")
    # A second 405B config: which one the report started from is not known.
    repo = new_repo(tmp_path, "two")
    files = fixture_files(COPIES / RAN)
    files["train_configs/llama3_405b_long.toml"] = files["train_configs/llama3_405b.toml"]
    two = commit(repo, files, "two 405B configs", "2024-12-26T23:40:37Z")
    row = _row(CAPTION_6, ("Parallelism", "Sequence Length", "TPS/GPU"), "| FSDP 8, CP 1 | 32768 | 76 |",
               {"tp": 8, "pp": 8, "cp": 1, "dp": 8}, Scratch(repo, two, two))  # fmt: skip
    launch = torchtitan_launch.documented(row, GitSource.open(repo, None))
    assert launch["reason"].endswith(
        "torchtitan at " + two[:7] + " has 2 train configs of the llama3 405B flavour in train_configs/ "
        "(train_configs/llama3_405b.toml, train_configs/llama3_405b_long.toml), so which one the report started "
        "from is not known."
    )


def test_options_are_read_with_their_lines_and_flags() -> None:
    text = (COPIES / RAN / "torchtitan/config_manager.py").read_text(encoding="utf-8")
    found = torchtitan_launch.options(text)
    assert found["training.compile"] == torchtitan_launch.Option("training.compile", 398, 402, True)
    assert found["training.seq_len"] == torchtitan_launch.Option("training.seq_len", 221, 223, False)
    assert "float8.recipe_name" not in found  # rowwise scaling came later
