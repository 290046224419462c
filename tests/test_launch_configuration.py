"""Issue 28, item 3: a documented launch runs its row's configuration, or says which dimensions it does not.

`launch.sets` holds every dimension of the configuration a launch's command runs (GPUs, the parallel
degrees, the batch sizes, the sequence length, the precision), read from the publisher's files:
the configuration function, the library recipe it starts from and the defaults it inherits
(Megatron-Bridge, `importers/pyconfig.py`), an implementation's Hydra YAML with the environment its
`config_*.sh` exports (MLPerf, `importers/hydraconf.py`), the command's options over its train config
(torchtitan). `checking/launchvalues.py` compares them with the row. These tests read the committed
catalogue, the importers' own files and the publishers' files copied in tests/importer_fixtures.
"""

from __future__ import annotations

import datetime as dt
import os
import shutil
import subprocess
from typing import Any

import pytest
import yaml
from conftest import REPO
from test_importers import ReleaseRepo, _launch_import, release_repo  # noqa: F401 (a fixture)

from openrecipes.checking import launchscript, launchvalues, shellcheck
from openrecipes.importers import hydraconf, megatron_bridge_launch, pyconfig
from openrecipes.importers.common import Cited
from openrecipes.importers.megatron_bridge_overrides import Option, Overrides, read_options
from openrecipes.loader import Entry, load_catalogue
from openrecipes.reading import shellenv

TODAY = dt.date(2026, 12, 2)
GPT_OSS_GB300 = "gpt-oss-120b/gb300/mb-25.11-bf16-64gpu"
GPT_OSS_GB200 = "gpt-oss-120b/gb200/mb-25.11-bf16-64gpu"
DELL = "llama-2-70b/h200/mlperf-5.1-dell-1xxe9680lx8h200-sxm-141gb"
ORACLE = "llama-2-70b/gb200/mlperf-5.0-oracle-1xbm.gpu.gb200.4"


@pytest.fixture(scope="module")
def catalogue() -> dict[str, Entry]:
    loaded = load_catalogue(REPO, today=TODAY)
    assert loaded.problems == ()
    return {entry.recipe.id: entry for entry in loaded.entries}


# --- the comparison every part asks ----------------------------------------------------------------


def test_a_row_and_a_launch_are_compared_on_every_dimension_the_row_states() -> None:
    row = {"gpus": 64, "tp": 1, "pp": 1, "vp": 1, "cp": 1, "ep": 64, "gbs": 1280, "mbs": 2}
    row |= {"seq_length": 8192, "precision": "bf16"}
    # 25.11's GPT-OSS 120B GB300 configuration as Megatron-Bridge's launcher loads it, without options
    sets = {"gpus": 64, "tp": 1, "pp": 1, "vp": None, "cp": 1, "ep": 64, "etp": 1, "gbs": 512, "mbs": 4}
    gaps = launchvalues.compare(row, sets)
    assert gaps.differing == ("gbs", "mbs") and gaps.unstated == ("seq_length", "precision")
    assert not gaps.runs_row
    assert gaps.summary() == (
        "differs from the row: GBS 512 (the row: 1,280); MBS 4 (the row: 2); not stated: sequence length, precision"
    )
    # The row states no ETP: it is not compared. A null VP is no interleaving (1); a null ETP is TP.
    assert "etp" not in [item.key for item in gaps.comparisons]
    assert launchvalues.compare({"vp": 1, "etp": 2, "tp": 2}, {"vp": None, "etp": None, "tp": 2}).runs_row
    assert launchvalues.compare({"precision": "fp8"}, {"precision": "mxfp8"}).differing == ("precision",)
    assert launchvalues.compare({}, {"gbs": 8}).comparisons == ()


def test_the_committed_catalogue_labels_each_documented_launch(catalogue: dict[str, Entry]) -> None:
    gaps = {
        recipe_id: launchvalues.configuration_gaps(entry.recipe.fields)
        for recipe_id, entry in catalogue.items()
        if entry.recipe.fields.status != "deprecated"
    }
    documented = {recipe_id: found for recipe_id, found in gaps.items() if found is not None}
    runs = sorted(recipe_id for recipe_id, found in documented.items() if found.runs_row)
    differs = {recipe_id: found for recipe_id, found in documented.items() if not found.runs_row}
    # 193 current documented launches: 180 state their row; 13 MLPerf launches do not, and say why. Those
    # whose files are not all at the commit (12 of the 13) are incomplete, whatever they state.
    assert (len(documented), len(runs)) == (193, 180)
    incomplete = {recipe_id for recipe_id in documented if catalogue[recipe_id].recipe.fields.launch.missing}
    assert (len(incomplete), len(set(differs) - incomplete)) == (19, 1)
    assert all(recipe_id.split("/")[-1].startswith("mlperf-") for recipe_id in differs)
    assert GPT_OSS_GB300 in runs and GPT_OSS_GB200 in runs
    assert differs[DELL].summary() == "differs from the row: GBS 16 (the row: 8)"
    assert differs[ORACLE].summary() == "differs from the row: not stated: GBS, sequence length"
    # An as-run launch (the seed's `run`) is no documented launch: nothing to compare.
    assert gaps["qwen3.8-27b/h200/attune-tp4-pp2"] is None


def test_the_launch_values_check_names_what_differs_and_what_is_not_stated(catalogue: dict[str, Entry]) -> None:
    def check(recipe_id: str) -> Any:
        (found,) = [item for item in catalogue[recipe_id].derived.checks if item.name == "Launch values"]
        return found

    dell = check(DELL)
    assert dell.outcome == "disagrees" and "runs GBS 16 (the logs' global_batch_size: 8)" in dell.explained
    oracle = check(ORACLE)
    assert oracle.passed and oracle.recomputed.endswith("; not stated: GBS, sequence length")
    gpt_oss = check(GPT_OSS_GB300)
    assert gpt_oss.passed and gpt_oss.recomputed == (
        "GPUs 64, TP 1, PP 1, VP 1, CP 1, EP 64, GBS 1,280, MBS 2, sequence length 8,192, precision bf16"
    )


# --- Megatron-Bridge: the row's configuration run with the launcher's own options ----------------


@pytest.fixture(scope="module")
def imported(release_repo: ReleaseRepo) -> dict[str, dict[str, Any]]:  # noqa: F811 (the fixture imported above)
    index_commit, path = megatron_bridge_launch.VERSION_INDEX
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(megatron_bridge_launch, "VERSION_INDEX", (release_repo.scratch[index_commit], path))
        made = _launch_import(release_repo)
    return {
        recipe_id: yaml.safe_load(release_repo.as_upstream(yaml.safe_dump(data, allow_unicode=True, sort_keys=False)))
        for recipe_id, data in made.items()
        if recipe_id in (GPT_OSS_GB300, GPT_OSS_GB200)
    }


def test_gpt_oss_120b_gb300_25_11_runs_the_rows_batch_and_sequence(imported: dict[str, dict[str, Any]]) -> None:
    """The launcher loads GPT_OSS_120B_GB300_BF16_BASE_CONFIG (GBS 512, MBS 4) on the library recipe's
    default sequence length, 4,096; the row measured GBS 1,280, MBS 2 at 8,192."""
    launch = imported[GPT_OSS_GB300]["launch"]
    assert launch["command"].endswith(
        "  -ng 64 \\\n  -gn 4 \\\n  -gb 1280 \\\n  -mb 2 \\\n"
        "  model.seq_length=8192 \\\n  dataset.sequence_length=8192\n"
    )
    assert launch["sets"] == {
        "gpus": 64, "tp": 1, "pp": 1, "vp": None, "cp": 1, "ep": 64, "etp": 1, "gbs": 1280, "mbs": 2,
        "seq_length": 8192, "precision": "bf16",
    }  # fmt: skip
    notes = launch["notes"]
    assert "sequence length 4,096 (src/megatron/bridge/recipes/gpt_oss/gpt_oss.py line 191)" in notes
    assert (
        "The command adds the launcher's own options so that it runs the row's configuration: GBS 1,280 (the "
        "configuration runs 512) with `-gb 1280`; MBS 2 (the configuration runs 4) with `-mb 2`; sequence length "
        "8,192 (the configuration runs 4,096) with `model.seq_length=8192 dataset.sequence_length=8192`."
    ) in notes
    # Each option is cited where the launcher defines it, and where it applies what it does not know.
    cited = {(item["path"], item["what"]) for item in launch["source"]["files"]}
    assert ("scripts/performance/argument_parser.py", "-gb (--global_batch_size)") in cited
    assert ("scripts/performance/run_script.py", "and applied to the configuration as Hydra overrides") in cited
    assert ("src/megatron/bridge/recipes/gpt_oss/gpt_oss.py", "_gpt_oss_common") in cited
    # The launch runs the row, so nothing disagrees any more.
    assert [item["check"] for item in imported[GPT_OSS_GB300].get("disagreements", [])] == []


def test_gpt_oss_120b_gb200_25_11_is_the_other_sequence_length_it_sets(imported: dict[str, dict[str, Any]]) -> None:
    launch = imported[GPT_OSS_GB200]["launch"]
    assert launch["command"].endswith(
        "  -gb 1280 \\\n  -mb 1 \\\n  model.seq_length=8192 \\\n  dataset.sequence_length=8192\n"
    )
    assert (launch["sets"]["gbs"], launch["sets"]["mbs"], launch["sets"]["seq_length"]) == (1280, 1, 8192)


@pytest.mark.skipif(shutil.which("bash") is None and not os.environ.get("CI"), reason="bash is not installed")
def test_the_launch_sh_with_the_options_parses_and_passes_them_as_words(catalogue: dict[str, Entry]) -> None:
    (launch,) = launchscript.launches(catalogue[GPT_OSS_GB300].recipe.fields)
    script = launch.launch_sh
    assert script is not None
    (found,) = shellcheck.findings([script.text])
    assert [item for item in found if item.level == "error"] == []
    bash = shutil.which("bash")
    assert bash is not None
    assert subprocess.run([bash, "-n"], input=script.text, text=True, check=False).returncode == 0
    # The launcher receives the options as its last words, in the order the page shows them.
    simple, error = shellenv.commands(script.text)
    assert error is None
    (launcher,) = [item for item in simple if any("setup_experiment.py" in word.value for word in item.words)]
    assert [word.value for word in launcher.words][-6:] == [
        "-gb", "1280", "-mb", "2", "model.seq_length=8192", "dataset.sequence_length=8192",
    ]  # fmt: skip


def test_each_releases_options_are_read_from_its_parser() -> None:
    parser = (
        'parser.add_argument("-gb", "--global_batch_size", type=int)\n'
        'parser.add_argument("--seq_length", type=int)\n'
        'group.add_argument("-vp", "--virtual_pipeline_model_parallel_size", type=int)\n'
    )
    options = read_options("argument_parser.py", parser)
    assert {key: option.flag for key, option in options.items()} == {
        "gbs": "-gb",
        "seq_length": "--seq_length",
        "vp": "-vp",
    }
    assert options["gbs"].cited == Cited("argument_parser.py", 1, 1, "-gb (--global_batch_size)")
    trailing = (Cited("run_script.py", 43, 43, "overrides"),)
    sequence = (Cited("overrides.py", 351, 351, "mock"),)
    flag = {"seq_length": Option("-sl", Cited("a.py", 1, 1, "")), "vp": Option("-vp", Cited("a.py", 2, 2, ""))}
    base, variants, flat = (Overrides(shape, flag, trailing, sequence) for shape in ("base", "variants", "flat"))
    assert base.words("seq_length", 8192) == ((), ("model.seq_length=8192", "dataset.sequence_length=8192"))
    assert variants.words("seq_length", 8192) == (("-sl", "8192"), ("model.seq_length=8192",))
    assert flat.words("seq_length", 8192) == (("-sl", "8192"), ())
    # No interleaving: the 0.3-0.5 parser's None, else a null override.
    assert variants.words("vp", 1) == (("-vp", "None"), ())
    assert flat.words("vp", None) == ((), ("model.virtual_pipeline_model_parallel_size=null",))
    assert base.cited("seq_length", 8192) == (*trailing, *sequence)


# --- reading a configuration function without running it -----------------------------------------

LIBRARY = """
from megatron.bridge.recipes.utils import defaults
from megatron.bridge.models import make_provider
from megatron.bridge.training.config import GPTDatasetConfig, ConfigContainer

def model_pretrain_config(**user_kwargs):
    recommended = {"tensor_model_parallel_size": 4, "seq_length": defaults.SEQ}
    return _common(**{**recommended, **user_kwargs})

def _common(tensor_model_parallel_size=1, seq_length=4096, global_batch_size=512, vocab=None):
    model = make_provider()
    model.tensor_model_parallel_size = tensor_model_parallel_size
    model.seq_length = seq_length
    model.vocab_size = defaults.VOCAB  # a field no one asks for: its module is not read for it
    return ConfigContainer(model=model, dataset=GPTDatasetConfig(sequence_length=seq_length))
"""
PERF = """
from megatron.bridge.recipes.lib import model_pretrain_config

def perf_config(precision="bf16"):
    cfg = model_pretrain_config(global_batch_size=1024)
    if precision == "bf16":
        cfg.model.pipeline_model_parallel_size = 2
    else:
        cfg.model.pipeline_model_parallel_size = 8
    if cfg.model.vocab_size > 100:
        cfg.model.context_parallel_size = 2
    cfg.dataset.seq_length = 8192
    return cfg
"""


def _evaluator(files: dict[str, str], read: list[str]) -> pyconfig.Evaluator:
    def text(path: str) -> str | None:
        read.append(path)
        return files.get(path)

    def locate(dotted: str) -> tuple[str, ...]:
        base = "src/" + dotted.replace(".", "/")
        return (f"{base}.py", f"{base}/__init__.py") if dotted.startswith("megatron.bridge.recipes") else ()

    return pyconfig.Evaluator(
        read=text,
        locate=locate,
        aliases={"seq_length": "sequence_length", "sequence_length": "seq_length"},
        tracked=frozenset({"tensor_model_parallel_size", "pipeline_model_parallel_size", "context_parallel_size"})
        | {"seq_length", "sequence_length", "model", "dataset"},
    )


def test_a_configuration_function_is_followed_into_its_library_recipe_and_defaults() -> None:
    files = {
        "src/megatron/bridge/recipes/lib.py": LIBRARY,
        "src/megatron/bridge/recipes/perf.py": PERF,
        "src/megatron/bridge/recipes/utils/defaults.py": "SEQ = 2048\nVOCAB = 128256\n",
    }
    read: list[str] = []
    ev = _evaluator(files, read)
    function = ev.function("megatron.bridge.recipes.perf", "perf_config")
    assert function is not None
    cfg = ev.call(pyconfig.Val(function), [], {"precision": pyconfig.Val("bf16")})
    tp = pyconfig.field_at(cfg, "model", "tensor_model_parallel_size")
    pp = pyconfig.field_at(cfg, "model", "pipeline_model_parallel_size")
    # The recommended TP over the default, the decided branch's PP, each with where it is written.
    assert (tp.value, tp.where) == (4, pyconfig.Where("src/megatron/bridge/recipes/lib.py", 7))
    assert (pp.value, pp.where) == (2, pyconfig.Where("src/megatron/bridge/recipes/perf.py", 7))
    # The recommended sequence length, read from another module, on the model; the dataset's was set after.
    assert pyconfig.field_at(cfg, "model", "seq_length").value == 2048
    assert pyconfig.field_at(cfg, "dataset", "sequence_length").value == 8192  # seq_length is its other name
    # A test on a value not read (the vocabulary size is not tracked) leaves what it guards not known, and why.
    cp = pyconfig.field_at(cfg, "model", "context_parallel_size")
    assert not cp.known and cp.why == "assigned under a condition at src/megatron/bridge/recipes/perf.py line 10"
    # The untracked field's module constant was never looked up; the tracked one's was.
    assert read.count("src/megatron/bridge/recipes/utils/defaults.py") == 1
    assert pyconfig.field_at(cfg, "model", "vocab_size").known is False
    # Nothing outside the readable packages (make_provider, ConfigContainer) is run: objects of their keywords.
    assert [item.node.name for item in ev.run] == ["perf_config", "model_pretrain_config", "_common"]


def test_an_intercepted_function_gives_what_the_launcher_would() -> None:
    files = {
        "src/megatron/bridge/recipes/perf.py": (
            "from utils.utils import get_workload_base_config\nfrom megatron.bridge.training.config import make\n\n"
            "def f():\n    base = get_workload_base_config()\n    cfg = make(model=make())\n"
            "    cfg.model.tensor_model_parallel_size = base.tensor_model_parallel_size\n    return cfg\n"
        )
    }
    ev = _evaluator(files, [])
    ev.intercepts["get_workload_base_config"] = lambda *_: pyconfig.Val(
        pyconfig.Obj("WorkloadBaseConfig", {"tensor_model_parallel_size": pyconfig.Val(8)}, built=True)
    )
    function = ev.function("megatron.bridge.recipes.perf", "f")
    assert function is not None
    cfg = ev.call(pyconfig.Val(function), [], {})
    assert pyconfig.field_at(cfg, "model", "tensor_model_parallel_size").value == 8


# --- an MLPerf implementation's Hydra YAML, with the configuration's environment --------------------


def test_a_hydra_configuration_computes_the_global_batch_from_the_environment() -> None:
    primary = (
        "defaults:\n  - _self_\n  - custom\n\ntrainer:\n  devices: ${oc.decode:${oc.env:DGXNGPU,8}}\n"
        "  num_nodes: ${oc.decode:${oc.env:DGXNNODES,1}}\n"
    )
    custom = (
        "model:\n  tensor_model_parallel_size: ${oc.decode:${oc.env:TP,1}}\n"
        "  global_batch_size: ${floor_div:${multiply:${oc.decode:${oc.env:MINIBS,1}},${floor_div:${multiply:"
        "${trainer.devices},${trainer.num_nodes}},${model.tensor_model_parallel_size}}},${oc.decode:${oc.env:CP,1}}}\n"
        "  encoder_seq_length: ${oc.decode:${oc.env:MAX_SEQLEN,8192}}\n"
        "  mixed: seq-${oc.env:MAX_SEQLEN,8192}\n"
    )
    files = {"conf/main.yaml": primary, "conf/custom.yaml": custom}
    script = 'OmegaConf.register_new_resolver("floor_div", lambda x, y: x // y)\n'
    resolvers = {name: found[0] for name, found in hydraconf.registered_resolvers("train.py", script).items()}
    env = {"DGXNGPU": "4", "DGXNNODES": "36", "MINIBS": "1", "CP": "8"}

    def environment(name: str) -> hydraconf.Resolved | None:
        return hydraconf.Resolved(env[name]) if name in env else None

    composed = hydraconf.compose(files.get, "conf", "main", resolvers, environment)
    assert composed is not None and composed.defaults_lines == (1, 3)
    value, written = composed.resolve("model.global_batch_size")
    assert value == hydraconf.Resolved(18)  # 1 × (4 × 36 ÷ TP 1) ÷ CP 8
    assert written is not None and (written.path, written.line) == ("conf/custom.yaml", 3)
    assert composed.resolve("model.encoder_seq_length")[0] == hydraconf.Resolved(8192)  # MAX_SEQLEN unset
    assert composed.resolve("model.mixed")[0].why == "'seq-${oc.env:MAX_SEQLEN,8192}' mixes text and interpolations"
    # A resolver neither the script nor NeMo registers is not guessed.
    missing = hydraconf.compose(files.get, "conf", "main", {}, environment)
    assert missing is not None
    assert missing.resolve("model.global_batch_size")[0].why == (
        "the resolver floor_div is registered by neither the training script nor NeMo"
    )


def test_a_value_the_environment_cannot_tell_is_not_known() -> None:
    files = {"conf/main.yaml": "model:\n  global_batch_size: ${oc.decode:${oc.env:MINIBS}}\n"}
    composed = hydraconf.compose(
        files.get, "conf", "main", {}, lambda name: hydraconf.not_known(f"{name} is set under a condition")
    )
    assert composed is not None
    assert composed.resolve("model.global_batch_size")[0].why == "MINIBS is set under a condition"


def test_the_mlperf_notes_say_where_each_value_comes_from(catalogue: dict[str, Entry]) -> None:
    text = (REPO / "recipes" / f"{DELL}.yaml").read_text(encoding="utf-8")
    data = yaml.safe_load(text)
    assert data["launch"]["sets"] == {
        "gpus": 8, "tp": 1, "pp": 1, "cp": 1, "gbs": 16, "mbs": 1, "seq_length": 8192, "precision": "fp8",
    }  # fmt: skip
    assert "MINIBS=2 (config_XE9680Lx8H200-SXM-141G_1x8x1xtp1pp1cp1.sh line 8)" in data["launch"]["notes"]
    oracle = yaml.safe_load((REPO / "recipes" / f"{ORACLE}.yaml").read_text(encoding="utf-8"))
    assert (
        "Not in sets: the global batch and the sequence length, since no one training script of"
        in oracle["launch"]["notes"]
    )
