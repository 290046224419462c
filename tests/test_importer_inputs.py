"""What the importers declare a launch needs (issue 28, item 4), class by class, on files made for
each case (the publishers' own are read by test_mlperf.py, test_importers.py and
test_torchtitan_launch.py, whose committed launches are what the importers make of them):

- an MLPerf README's preparation: steps by heading, a container's session, listings and a shown
  script left out, an alternative said, a step by hand where the README links the download, a
  build without a context, and the Dockerfile's build where nothing builds the launch's image;
- Megatron-Bridge's launcher environment (uv.lock's NeMo-Run, the submodule and extra of `uv run`)
  and its Hugging Face token (a gated repository, the launcher's own assertion);
- torchtitan's tokenizer download and a W&B login.
"""

from __future__ import annotations

from pathlib import Path

from test_importers import git, new_repo

from openrecipes.importers import mlperf_launch, mlperf_preparation, torchtitan_inputs
from openrecipes.importers.common import Cited
from openrecipes.importers.gitsource import GitSource

IMPL = "Acme/benchmarks/llama2_70b_lora/implementations/acme"

README = """# 1. Set up

## 1.1 Build the container

Replace `<docker/registry>` with your registry and build:

```bash
docker build -t <docker/registry>/mlperf:lora
```

## 1.2 Download the data

Start the container:

```bash
docker run -it --rm --volume </path/to/dataset>:/data <docker/registry>/mlperf:lora
```

Then download and convert:

```bash
python scripts/download.py --data_dir /data
```

You should see:

```
train.npy  validation.npy
```

or simply run the download script on Slurm:

```bash
sbatch scripts/download.sub
```

## 1.3 The checkpoint

Please follow the [instructions](https://example.com/checkpoint) to download the checkpoint.

## 1.4 Tuning

Once per node:

```bash
bash tune.sh
```

What tune.sh runs:

```bash
echo 3 | sudo tee /proc/sys/vm/drop_caches
sudo modprobe amdgpu
rocm_agent_enumerator
```

# 2. Launch

```bash
export DATADIR=</path/to/dataset>
source config_X.sh
sbatch -N 1 run.sub
```
"""

TUNE = "#!/bin/bash\necho 3 | sudo tee /proc/sys/vm/drop_caches\nsudo modprobe amdgpu\nrocm_agent_enumerator\n"


def _repo(tmp_path: Path, files: dict[str, str]) -> GitSource:
    repo = new_repo(tmp_path, "results")
    for path, text in files.items():
        (repo / path).parent.mkdir(parents=True, exist_ok=True)
        (repo / path).write_text(text, encoding="utf-8")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "files")
    return GitSource.open(repo, "HEAD")


def _found(command: str, first: int, last: int) -> mlperf_launch.Documented:
    return mlperf_launch.Documented(
        IMPL, command, (Cited(f"{IMPL}/README.md", first, last, "the launch steps"),), (), None
    )


def test_an_mlperf_readme_gives_its_steps_as_written(tmp_path: Path) -> None:
    source = _repo(tmp_path, {f"{IMPL}/README.md": README, f"{IMPL}/tune.sh": TUNE})
    launch = README.splitlines().index("export DATADIR=</path/to/dataset>") + 1
    steps = mlperf_preparation.read_steps(source, _found("source config_X.sh\n", launch, launch + 2))
    assert [(step.what, step.first, step.last) for step in steps] == [
        ("1.1 Build the container", 3, 8),
        ("1.2 Download the data", 11, 22),
        ("1.3 The checkpoint", 37, 39),
        ("1.4 Tuning", 41, 46),
    ]
    build, data, checkpoint, tuning = steps
    # docker refuses a build without a context: the step adds `.` and says so.
    assert build.commands == ["docker build -t <docker/registry>/mlperf:lora ."]
    assert "names no build context" in " ".join(build.notes)
    # The container's session: the block after it typed nothing more, so the next block is typed in it;
    # the listing is no step, and the alternative is said, not run.
    assert data.commands == ["docker run -it --rm --volume </path/to/dataset>:/data <docker/registry>/mlperf:lora"]
    assert data.session == ["python scripts/download.py --data_dir /data"]
    assert 'another way to do this (line 34): "or simply run the download script on Slurm"' in " ".join(data.notes)
    # A section that only links where to download from is a step by hand, with its link.
    assert checkpoint.commands == [] and checkpoint.session == []
    assert checkpoint.notes == [
        "By hand, as the README says.",
        "The README's text for this step links https://example.com/checkpoint.",
    ]
    # The block that shows tune.sh line by line is the script, not a step of its own.
    assert tuning.commands == ["bash tune.sh"]


def test_an_mlperf_step_declares_what_it_reads_and_the_launchs_image_is_built_where_nothing_builds_it(
    tmp_path: Path,
) -> None:
    readme = (
        "# Set up\n\n```bash\ndocker login nvcr.io\ndocker run -it --volume </path/to/dataset>:/data image:tag\n"
        "export HF_TOKEN=<>\npython scripts/download.py\n```\n\n# Launch\n\n```bash\n"
        "CONT=<docker/registry:benchmark-tag> sbatch run.sub\n```\n"
    )
    source = _repo(tmp_path, {f"{IMPL}/README.md": readme, f"{IMPL}/Dockerfile": "FROM base\nRUN true\n"})
    prepared = mlperf_preparation.steps(
        source,
        _found("CONT=<docker/registry:benchmark-tag> sbatch run.sub\n", 12, 12),
        "<docker/registry:benchmark-tag>",
    )
    assert [step.data["what"] for step in prepared] == [
        "Set up",
        "Build the container from the implementation's Dockerfile",
    ]
    setup, build = (step.data for step in prepared)
    assert [(item["name"], item.get("kind")) for item in setup["inputs"]] == [
        ("</path/to/dataset>", "data"),
        ("<account on nvcr.io>", "account"),
        ("<Hugging Face token>", "access-token"),
    ]
    assert setup["session"] == "export HF_TOKEN=<>\npython scripts/download.py\n"
    assert build["commands"] == "docker build -t <docker/registry:benchmark-tag> .\n"
    assert (build["file"], build["lines"]) == (f"{IMPL}/Dockerfile", [1, 2])
    assert build["inputs"][0]["name"] == "<docker/registry:benchmark-tag>"
    assert "give no command to build the image" in build["notes"]
    # A launch whose image is the publisher's own (a file on their cluster) builds nothing.
    assert len(mlperf_preparation.steps(source, _found("sbatch run.sub\n", 12, 12), None)) == 1


ACCESS = (
    "Follow the instructions on the official [meta-llama](https://huggingface.co/meta-llama/Llama-3.1-8B) "
    "repository to ensure you have access to the Llama model weights."
)
TORCHTITAN_README = f"""# torchtitan

## Installation

```bash
pip install -r requirements.txt
```

### Downloading a tokenizer

{ACCESS}

```bash
# Get your HF token from https://huggingface.co/settings/tokens

# Llama 3.1 tokenizer.model
python scripts/download_tokenizer.py --repo_id meta-llama/Meta-Llama-3.1-8B --tokenizer_path "original" --hf_token=...
```

### Start a training run
"""


def test_torchtitans_tokenizer_download_is_a_step_with_its_token(tmp_path: Path) -> None:
    source = _repo(tmp_path, {"README.md": TORCHTITAN_README})
    found = torchtitan_inputs.tokenizer_step(source, source.resolve("HEAD") or "")
    assert found is not None
    step, cited = found
    assert (step["what"], step["lines"], cited.first, cited.last) == ("Downloading a tokenizer", [9, 18], 9, 18)
    assert step["commands"] == (
        'python scripts/download_tokenizer.py --repo_id meta-llama/Meta-Llama-3.1-8B --tokenizer_path "original" '
        '--hf_token="$HF_TOKEN"\n'
    )
    (token,) = step["inputs"]
    assert token["name"] == "HF_TOKEN" and token["kind"] == "access-token"
    assert "(https://huggingface.co/meta-llama/Llama-3.1-8B, line 11)" in token["description"]
    assert torchtitan_inputs.wandb_input("torchrun train.py --metrics.enable_wandb")["kind"] == "access-token"
    assert torchtitan_inputs.wandb_input("torchrun train.py --metrics.enable_tensorboard") is None
