"""Safe by construction (issue 28, item 6): the names a recipe may not set, launch text a reader sees
whole, and a checkout of exactly what a launch cites (reading/envnames.py, reading/launchsafety.py).

The hostile recipes themselves, each with its exact problem and line, are cases of the error corpus
(tests/corpus/cases.yaml); these are the rules' own edges, and what a recipe that passes them makes.
"""

from __future__ import annotations

import copy
import re
from typing import Any

import pytest
import yaml
from conftest import SEED_DATA, SEED_ID, Project

from openrecipes.checking import launchscript as launches
from openrecipes.loader import load_catalogue
from openrecipes.reading import envnames, launchsafety
from openrecipes.reading.envnames import HARMLESS, REFUSED, is_dangerous_name
from openrecipes.reading.launchsafety import checkout_problems, link_problem
from openrecipes.reading.shelltext import variable_for
from openrecipes.site.pages import withheld_environment
from openrecipes.site.plan import plan_site

DELL_ID = "llama-2-70b/h100/mlperf-4.1-dell-xe9640x4h100-sxm-80gb"
"""A frozen copy of a real recipe whose publisher's files set CUDA_HOME, PATH and LD_LIBRARY_PATH."""
REPOSITORY = "THUDM/slime"
COMMIT = "a897e1f1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e6f7"


# --- the names -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "name",
    [
        "BASH_ENV", "ENV", "PROMPT_COMMAND", "PS0", "PS1", "PS2", "PS3", "PS4", "IFS", "PATH", "CDPATH",
        "SHELLOPTS", "BASHOPTS", "GLOBIGNORE", "LD_PRELOAD", "LD_LIBRARY_PATH", "LD_AUDIT", "DYLD_INSERT_LIBRARIES",
        "PYTHONSTARTUP", "PYTHONPATH", "PYTHONWARNINGS", "PYTHONHOME", "PYTHON_PRESITE", "BROWSER", "EDITOR",
        "VISUAL", "PAGER", "GIT_CONFIG_COUNT", "GIT_CONFIG_KEY_0", "GIT_CONFIG_PARAMETERS", "GIT_SSH_COMMAND",
        "GIT_EXEC_PATH", "GIT_SSL_NO_VERIFY", "NODE_OPTIONS", "PERL5OPT", "PERL5LIB", "RUBYOPT", "HOME", "ZDOTDIR",
        "BASH_FUNC_ls%%", "GCONV_PATH", "GLIBC_TUNABLES", "PIP_INDEX_URL", "UV_PYTHON", "CUDA_INJECTION64_PATH",
        "NCCL_NET_PLUGIN", "NCCL_TUNER_PLUGIN", "ENROOT_CONFIG_PATH", "CUDA_HOME", "HTTPS_PROXY", "http_proxy",
        "SSL_CERT_FILE", "OPENSSL_CONF", "LESSOPEN", "SLURM_TASK_PROLOG", "OMPI_MCA_plm_rsh_agent", "LD",
    ],
)  # fmt: skip
def test_each_name_the_issue_and_the_tools_run_code_by_is_refused_with_why(name: str) -> None:
    reason = is_dangerous_name(name)
    assert reason is not None and reason.startswith(f"{name} ")
    assert len(reason) > len(name) + 20  # a reason, not just the name


@pytest.mark.parametrize(
    "name",
    [
        "CUDA_DEVICE_MAX_CONNECTIONS", "PYTORCH_CUDA_ALLOC_CONF", "NCCL_NET", "NCCL_SOCKET_IFNAME", "UCX_TLS",
        "OMPI_MCA_btl", "HF_HUB_OFFLINE", "TORCHINDUCTOR_COMPILE_THREADS", "CP", "PP", "SP", "LR", "MODEL",
        "DATADIR", "SLURM_MPI_TYPE", "SBATCH_NETWORK", "PYTHONUNBUFFERED", "NCCL_CFG_PATH", "BINDCMD",
    ],
)  # fmt: skip
def test_names_real_launches_set_are_not(name: str) -> None:
    assert is_dangerous_name(name) is None


def test_a_name_in_other_letters_is_the_name_it_spells() -> None:
    # zsh ties `path` to PATH, curl reads http_proxy, Windows tells no case apart
    for name, upper in (("path", "PATH"), ("Bash_Env", "BASH_ENV"), ("ld_preload", "LD_PRELOAD")):
        reason = is_dangerous_name(name)
        assert reason is not None and f"{name} is {upper} in other letters" in reason
    # a harmless name is harmless as written, not in another case
    assert is_dangerous_name("PYTHONUNBUFFERED") is None
    assert is_dangerous_name("pythonunbuffered") is not None


def test_every_entry_says_why_and_every_exception_is_of_a_refused_family() -> None:
    for entry in REFUSED:
        assert entry.patterns and entry.why.strip(), entry
        assert all(pattern == pattern.upper() for pattern in entry.patterns), entry
    for name, why in HARMLESS.items():
        assert why.strip() and any(entry.matches(name) for entry in REFUSED), name


def test_a_placeholder_becomes_the_variable_launch_sh_makes_of_it() -> None:
    """envnames names a placeholder's variable as launch.sh does (reading/shelltext.py)."""
    assert variable_for("bash env", ()) == "BASH_ENV"
    assert variable_for("1st node", ()) == "INPUT_1ST_NODE"
    assert envnames.placeholder_problem("bash env") is not None
    assert envnames.placeholder_problem("path/to/dataset") is None
    # LD is the linker; beside another input named GIT, <git> would be GIT_INPUT, one of git's own
    assert envnames.placeholder_problem("git") is not None


# --- the checkout -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "checkout",
    [
        f"git clone https://github.com/{REPOSITORY}.git\ncd slime\ngit switch --detach {COMMIT}  # the run's\n",
        f"git clone https://github.com/{REPOSITORY}\ncd slime\ngit checkout {COMMIT}\ncd scripts/\n",
        f"git clone https://github.com/{REPOSITORY}.git && git -C slime switch --detach {COMMIT}",
        f"git clone -q https://github.com/{REPOSITORY}.git src\ncd src && git checkout --detach -q {COMMIT}\n"
        "git submodule update --init --recursive 3rdparty/Megatron-LM\n",
        f"# the revision\n\ngit clone https://github.com/{REPOSITORY}.git\ncd slime/scripts\n"
        f"git switch --detach {COMMIT}\n",
    ],
)
def test_a_checkout_of_the_cited_repository_and_commit_passes(checkout: str) -> None:
    assert checkout_problems(checkout, REPOSITORY, COMMIT) == []


@pytest.mark.parametrize(
    ("checkout", "line", "says"),
    [
        (f"git clone https://github.com/THUDM/Slime.git\ncd Slime\ngit checkout {COMMIT}", 1, "clones 'THUDM/Slime'"),
        (f"git clone https://gitlab.com/{REPOSITORY}.git\ncd slime\ngit checkout {COMMIT}", 1, "clones 'https://"),
        (f"git clone git@github.com:{REPOSITORY}.git\ncd slime\ngit checkout {COMMIT}", 1, "clones 'git@github.com:"),
        (f"git clone https://github.com/{REPOSITORY}.git\ncd slime\ngit checkout {COMMIT[:12]}", 3, "checks out"),
        (f"git clone https://github.com/{REPOSITORY}.git\ncd slime\ngit checkout main", 3, "checks out 'main'"),
        (f"git clone https://github.com/{REPOSITORY}.git\ncd ..\ngit checkout {COMMIT}", 2, "enters '..'"),
        (f"git clone https://github.com/{REPOSITORY}.git\ncd /tmp\ngit checkout {COMMIT}", 2, "enters '/tmp'"),
        (f"git clone https://github.com/{REPOSITORY}.git\ncd other\ngit checkout {COMMIT}", 2, "not the clone (slime)"),
        (f"git clone https://github.com/{REPOSITORY}.git\ngit checkout {COMMIT}", 2, "outside the clone"),
        (f"git clone https://github.com/{REPOSITORY}.git\ncd slime\ngit checkout {COMMIT}; id", 3, "writes"),
        (f"git clone https://github.com/{REPOSITORY}.git\ncd slime\ngit checkout $(id)", 3, "writes '$(id)'"),
        (f"git clone https://github.com/{REPOSITORY}.git\ncd slime\ngit checkout {COMMIT}\nmake", 4, "runs 'make'"),
        (f"git clone https://github.com/{REPOSITORY}.git\ncd slime\ngit -c core.x=y checkout {COMMIT}", 3, "runs"),
        (f"git clone https://github.com/{REPOSITORY}.git\ncd slime", 2, "never checks out"),
        (f"cd slime\ngit checkout {COMMIT}", 1, "before it clones"),
    ],
)
def test_a_checkout_of_anything_else_is_refused_at_its_line(checkout: str, line: int, says: str) -> None:
    problems = checkout_problems(checkout, REPOSITORY, COMMIT)
    assert problems, checkout
    assert problems[0][0] == line and says in problems[0][1], problems


def test_a_cited_link_is_the_file_in_the_repository_at_the_commit() -> None:
    path = "IBM+CoreWeave+NVIDIA/benchmarks/run.sub"
    base = f"https://github.com/{REPOSITORY}/blob/{COMMIT}/{path}"
    for url in (base, f"{base}#L3", f"{base}#L3-L9"):
        assert link_problem(url, path, REPOSITORY, COMMIT) is None
    assert "not of launch.source.repository" in str(
        link_problem(base.replace("THUDM", "thudm"), path, REPOSITORY, COMMIT)
    )
    assert "not at launch.source.commit" in str(link_problem(base.replace(COMMIT, "f" * 40), path, REPOSITORY, COMMIT))
    assert "not the file it cites" in str(link_problem(base.replace("run.sub", "x.sh"), path, REPOSITORY, COMMIT))
    assert "no line anchor" in str(link_problem(f"{base}#L3-evil", path, REPOSITORY, COMMIT))
    assert "is not a link" in str(link_problem(f"https://example.com/{path}", path, REPOSITORY, COMMIT))


# --- launch text ------------------------------------------------------------------------------------


def _problems_of(script: str) -> list[str]:
    return [message for _, _, message in launchsafety._text_problems(launchsafety._Text(("run",), "x", script, True))]


def test_text_in_quotes_and_comments_may_be_in_any_script_but_commands_are_ascii() -> None:
    assert _problems_of('echo "Привет, мир"  # по-русски\nbash run.sh\n') == []
    assert _problems_of("echo 'naïve café'\n") == []
    assert any("U+0430" in message for message in _problems_of("b\u0430sh run.sh\n"))
    # code inside double quotes is code: a command substitution's words
    assert any("U+0455" in message for message in _problems_of('echo "$(\u0455h -c id)"\n'))
    # a word that mixes scripts is a look-alike even in a comment
    assert any("mixes scripts" in message for message in _problems_of("# run c\u0443rl first\n"))


def test_limits_are_at_their_bounds() -> None:
    assert _problems_of("x" * launchsafety.MAX_LINE_COLUMNS) == []
    assert _problems_of("x" * (launchsafety.MAX_LINE_COLUMNS + 1))
    assert _problems_of("\t" * (launchsafety.MAX_LINE_COLUMNS // 8 + 1) + "x")  # a tab is 8 columns
    assert _problems_of("a" + " " * launchsafety.MAX_BLANK_COLUMNS + "b") == []
    assert _problems_of("a" + " " * (launchsafety.MAX_BLANK_COLUMNS + 1) + "b")
    assert _problems_of("a" + " " * 400) == []  # blanks that nothing follows hide nothing
    assert _problems_of("a" + "\n" * (launchsafety.MAX_BLANK_LINES + 1) + "b") == []
    assert _problems_of("a" + "\n" * (launchsafety.MAX_BLANK_LINES + 2) + "b")
    assert _problems_of("a" + "\n" * 400) == []


def test_text_as_large_as_a_file_is_read_once() -> None:
    """Every rule reads a text in one pass: a quarter of a megabyte of blanks or blank lines is
    refused in one problem (a regular expression that backtracks took minutes on it)."""
    for text in (" " * 250_000 + "x", "\n" * 250_000 + "x", "\t" * 30_000 + "x" + " " * 200_000):
        assert len(_problems_of(text)) in (1, 2)


# --- what a recipe with withheld variables makes -------------------------------------------------------


def test_withheld_variables_are_never_exported_and_the_page_warns_of_each(project: Project) -> None:
    project.add_fixture(DELL_ID)
    catalogue = load_catalogue(project.root)
    assert catalogue.ok, catalogue.problems
    (entry,) = catalogue.entries
    fields = entry.recipe.fields
    withheld = withheld_environment(fields)
    assert [(item.name, item.line) for item in withheld] == [("CUDA_HOME", 52), ("PATH", 53), ("LD_LIBRARY_PATH", 54)]
    config = "Dell/benchmarks/llama2_70b_lora/implementations/nemo/configs/config_XE9640_common.sh"
    assert withheld[0].url == (
        f"https://github.com/mlcommons/training_results_v4.1/blob/{fields.launch.source.commit}/{config}#L52"
    )
    (documented,) = launches.launches(fields)
    for script in (documented.launch_sh, documented.env_sh):
        assert script is not None
        assert not re.search(r"\b(CUDA_HOME|LD_LIBRARY_PATH)\b|export PATH=", script.text), script.name
    page = next(output for output in plan_site(project.root).outputs if output.src_uri == f"recipes/{DELL_ID}.md")
    html = page.text()
    warning = html[html.index('class="admonition warning or-withheld"') :]
    warning = warning[: warning.index("</div>")]
    assert "The publisher's files set variables this launch does not export" in warning
    for item in withheld:
        assert (
            f'<a href="{item.url}" rel="nofollow noopener"><code>config_XE9640_common.sh</code> line {item.line}'
            in (warning)
        )
        assert f"{item.why}." in warning.replace("&#x27;", "'")
    assert "<code>LD_LIBRARY_PATH=${CUDA_HOME}/lib64:$LD_LIBRARY_PATH</code>" in warning


def test_a_recipe_whose_data_would_run_code_is_refused_whole(project: Project) -> None:
    """Every hostile value of a recipe at once: each is its own located problem, and none is a traceback."""
    data: dict[str, Any] = copy.deepcopy(SEED_DATA)
    data["env"] = {**data["env"], "BASH_ENV": "/tmp/x", "PS1": "$(id)"}
    data["inputs"] = [{"name": "LD_PRELOAD", "description": "x"}, {"name": "<bash env>", "description": "y"}]
    data["run"] = data["run"] + " " * 100 + "; id\n"
    project.add(SEED_ID, yaml.safe_dump(data, sort_keys=False, allow_unicode=True))
    problems = load_catalogue(project.root).problems
    assert {problem.where for problem in problems} == {
        "$.env.BASH_ENV",
        "$.env.PS1",
        "$.inputs[0].name",
        "$.inputs[1].name",
        "$.run",
    }
    assert all(problem.line > 0 and "internal error" not in problem.message for problem in problems)


def test_no_importer_asks_the_reader_to_set_a_name_a_recipe_may_not() -> None:
    """The importers' own tables of inputs: each a name a recipe may ask for."""
    from openrecipes.importers import megatron_bridge_recipes, mlperf_inputs, torchtitan_recipes

    for table in (megatron_bridge_recipes.LAUNCH_INPUTS, torchtitan_recipes.LAUNCH_INPUTS, mlperf_inputs.INPUTS):
        for name in table:
            assert envnames.input_name_problem(name) is None, name
