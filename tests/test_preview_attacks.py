"""Issue 19's acceptance, end to end: a data-only pull request that tries every attack of the issue
goes through the preview pipeline as `.github/workflows/` run it, with real commands in scratch git
repositories, and nothing of it becomes live.

Main is a copy of the project (the seed and a few committed recipes, `site_url` at a local server),
validated, built by `python -m mkdocs build --strict` dated by its commit and published at the root
of the pages branch by `pages-publish.sh root` (deploy.yml). A pull request is pushed to a bare
origin as GitHub keeps it (`refs/pull/N/head`); a fresh clone of main runs `preview-prepare.sh`, is
built with main's code dated by the prepare step's `source-date-epoch`, and only if that build
succeeds is `pages-publish.sh pr-N SITE` run against the pages branch (pr-preview.yml).

- Pull request #19 holds every attack at once: reference keys, aliases and names carrying markup
  that ends the title and names the site's own `launch.sh`, `env.sh`, a recipe file and a `.txt` as
  scripts, and a meta refresh to another host; a GPU key with a Cyrillic letter (`Н200`) and a
  recipe on it; names in mathematical and fullwidth letters; one 20 kB text reused 3,000 times
  through YAML aliases; and, valid on their own, a recipe whose `run` is JavaScript, `orfrag1z` as a
  GPU alias and in notes, 20,000 `[` in notes. The build refuses it, reporting every refused attack
  in that one run with its file, line, column and field (and `openrecipes validate` the same), no
  traceback, and nothing is published.
- Pull request #23 holds the attacks that validate: a recipe whose `run` and environment are
  JavaScript and whose text fields carry that markup, the markup and `orfrag1z` in a GPU's notes,
  `orfrag1z` as a GPU alias, 20,000 `[` in notes. It is published under pr-23/, and in the
  published tree every page carries the live site's policy first in its head and no inline script,
  every script is a `.js` under assets/ allowed by its SHA-256, no other file of the preview hashes
  to a value the policy allows, no page refreshes, and the markup is text. Chromium opens its pages:
  no dialog, no navigation, no request off the server.
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
import subprocess
import sys
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urljoin, urlsplit

import pytest
from browser.conftest import IN_CI, Watch, watched_tab
from conftest import REPO, SAMPLE, copy_project, parse
from test_workflows import Repository, Sandbox

from openrecipes.reading.reference import Reference
from openrecipes_tools import chromium
from openrecipes_tools.synthetic import recipe_data, yaml_text

pytestmark = [pytest.mark.site, pytest.mark.workflow, pytest.mark.xdist_group("browser")]

BIN = Path(sys.executable).parent
SCRIPTS = REPO / ".github" / "scripts"
HANG_SECONDS = 300
"""A build or a validate of these few recipes takes seconds; one still running after five minutes
hangs (an attack that makes the work grow without bound), and the test fails saying so. How long
they take is `./dev bench`'s to measure, not a test's."""

RUN = 'alert("the launch script ran");\n'
TOKEN = "orfrag1z"  # the fragment token's old ASCII form
BRACKETS = "[" * 20_000
REFRESH = '<meta http-equiv="refresh" content="0;url=https://evil.example">'

# Pull request #19: every attack.
X9 = "llama-3.1-70b/x9/run"
X9_KEY = f'X9</title><script src="../../recipes/{X9}/launch.sh"></script><title>'
ENV_ALIAS = f'<script src="../../recipes/{X9}/env.sh"></script>'
YAML_ALIAS = f'<script src="../../recipes/{X9}.yaml"></script>'
TXT_PROVIDER = 'AWS <script src="../../notes.txt"></script>'
REFRESH_NAME = f"NVIDIA A100 {REFRESH}"
LOOKALIKE = "\u041d200"  # Н200, with a Cyrillic Н
MATHEMATICAL = "NVIDIA \U0001d407100 NVL"  # 𝐇100: MATHEMATICAL BOLD CAPITAL H
FULLWIDTH = "\uff2e\uff36\uff29\uff24\uff29\uff21"  # ＮＶＩＤＩＡ
TWENTY_KB = "Twenty kilobytes of text, written once and used again through aliases. " * 290
BOMB = "llama-3.1-70b/h100/bomb"
LOOKALIKE_RECIPE = "llama-3.1-70b/h200/lookalike"

# Pull request #23: what validates.
RECIPE = "llama-3.1-70b/h100-pcie/run"
MARKUP = (
    'X9</title><script src="launch.sh"></script><script src="env.sh"></script>'
    '<script src="../run.yaml"></script><script src="notes.txt"></script>'
    f'<script src="../../../../api/recipes.json"></script>{REFRESH}<title> {TOKEN}'
)
SHORT_MARKUP = 'X9</title><script src="launch.sh"></script><title>'  # for a field of at most 120 characters
MARKUP_FIELDS = (
    ("stack", "framework"),
    ("workload", "rows"),
    ("layout", "summary"),
    ("layout", "highlights"),
    ("correctness", "summary"),
    ("notes",),
    ("layout", "notes"),
    ("correctness", "reference"),
)
ENV = {"ALERT": 'alert("the environment ran")'}
BRACKETS_RECIPE = "llama-3.1-70b/h100/brackets"

LOCATED = re.compile(
    r"(?P<file>(?:recipes|reference)/[^:\s]+):(?P<line>\d+):(?P<column>\d+): (?P<where>\$.*?): (?P<message>.+)"
)
"""A problem as `openrecipes validate` prints it and the build logs it: file:line:col: $.field: message."""


def yaml_string(text: str) -> str:
    """`text` as a YAML double-quoted scalar (a JSON string is one)."""
    return json.dumps(text, ensure_ascii=False)


def edited(folder: Path, path: str, *edits: tuple[str, str]) -> str:
    text = (folder / path).read_text(encoding="utf-8")
    for old, new in edits:
        assert old in text, (path, old)
        text = text.replace(old, new, 1)
    return text


def sha256(data: bytes) -> str:
    return "sha256-" + base64.b64encode(hashlib.sha256(data).digest()).decode()


# The pipeline.


@dataclass
class Pipeline:
    sandbox: Sandbox
    main: Repository
    served: Path
    url: str
    reference: Reference

    def checkout(self, name: str) -> Path:
        """A fresh clone of main, as actions/checkout makes it (with the full history)."""
        clone = self.sandbox.root / name
        self.sandbox.git(self.sandbox.root, "clone", "-q", str(self.sandbox.remote), str(clone))
        return clone

    def command(self, cwd: Path, *args: str, timeout: float, **env: str) -> Command:
        try:
            done = subprocess.run(
                list(args),
                cwd=cwd,
                env={**self.sandbox.env, "NO_MKDOCS_2_WARNING": "1", **env},
                capture_output=True,
                text=True,
                check=False,
                timeout=timeout,
            )
        except subprocess.TimeoutExpired:
            pytest.fail(f"{' '.join(args[-3:])} still running after {timeout:.0f} s: it hangs", pytrace=False)
        return Command(done.returncode, done.stdout + done.stderr)

    def validate(self, checkout: Path) -> Command:
        return self.command(checkout, str(BIN / "openrecipes"), "validate", timeout=HANG_SECONDS)

    def build(self, checkout: Path, source_date_epoch: str) -> Command:
        """`mkdocs build --strict` as the workflows run it, with main's code (the hook imports the
        `openrecipes` installed here), dated as given."""
        return self.command(
            checkout,
            sys.executable,
            "-m",
            "mkdocs",
            "build",
            "--strict",
            timeout=HANG_SECONDS,
            SOURCE_DATE_EPOCH=source_date_epoch,
        )


@dataclass
class Command:
    returncode: int
    output: str

    def problems(self) -> list[re.Match[str]]:
        """Every located problem it printed (warnings left out), as the build logs them or not."""
        found = []
        for line in self.output.splitlines():
            match = LOCATED.fullmatch(re.sub(r"^ERROR\s+-\s+", "", line))
            if match and not match["message"].startswith("warning:"):
                found.append(match)
        return found


def no_traceback(command: Command) -> None:
    assert "Traceback (most recent call last)" not in command.output, command.output
    assert "This is a bug in OpenRecipes" not in command.output, command.output


@pytest.fixture(scope="module")
def pipeline(tmp_path_factory: pytest.TempPathFactory, reference: Reference) -> Iterator[Pipeline]:
    """Main, and its site live at the root of the pages branch, as deploy.yml puts it there."""
    root = tmp_path_factory.mktemp("preview-attacks")
    sandbox = Sandbox(root, root / "publications")
    served = root / "served"
    served.mkdir()
    with chromium.serving(served) as url:
        project = copy_project(root / "author", with_recipes=SAMPLE)
        config = project / "mkdocs.yml"
        text = config.read_text(encoding="utf-8")
        assert "\nsite_url: https://openrecipes.github.io/openrecipes/\n" in text
        config.write_text(text.replace("https://openrecipes.github.io/openrecipes/", url, 1), encoding="utf-8")
        main = Repository(sandbox, project)
        main.commit({}, "main")
        sandbox.git(project, "push", "-q", "origin", "main")
        pipeline = Pipeline(sandbox, main, served, url, reference)

        checkout = pipeline.checkout("main-checkout")
        validated = pipeline.validate(checkout)
        assert validated.returncode == 0, validated.output
        built = pipeline.build(checkout, sandbox.git(checkout, "log", "-1", "--format=%ct"))
        assert built.returncode == 0, built.output
        assert sandbox.script("pages-publish.sh", "root", checkout / "site").outputs == {"changed": "true"}
        yield pipeline


# Pull request #19: every attack at once.


def every_attack(pipeline: Pipeline) -> dict[str, bytes]:
    folder, reference = pipeline.main.folder, pipeline.reference
    original = (folder / "reference/gpus.yaml").read_text(encoding="utf-8")
    # The look-alike GPU: H200's entry again (to the next top-level key), under a key with a Cyrillic Н.
    start = original.index("\nH200:\n") + 1
    h200 = original[start : start + re.search(r"\n(?=\S)", original[start:]).end()]
    lookalike_gpu = h200.replace("H200:\n", f"{LOOKALIKE}:\n", 1)
    lookalike_gpu = lookalike_gpu.replace("  aliases: [H200-SXM, H200 SXM, H200-SXM5-141GB]\n", "  aliases: []\n")
    b200 = "\nB200:\n  name: NVIDIA B200 (HGX/DGX)\n  vendor: "
    h200_aliases = "  aliases: [H200-SXM, H200 SXM, H200-SXM5-141GB"
    gpus = edited(
        folder,
        "reference/gpus.yaml",
        ("\nH100-PCIe:\n", f"\n{yaml_string(X9_KEY)}:\n"),
        ("  aliases: [H100 PCIe]\n", f"  aliases: [X9, {yaml_string(ENV_ALIAS)}]\n"),
        ("  name: NVIDIA A100 SXM 80GB\n", f"  name: {yaml_string(REFRESH_NAME)}\n"),
        ("  name: NVIDIA H100 NVL 94GB (per GPU of the pair)\n", f"  name: {MATHEMATICAL}\n"),
        (f"{b200}NVIDIA\n", f"{b200}{FULLWIDTH}\n"),
        (f"{h200_aliases}]\n", f"{h200_aliases}, {TOKEN}]\n"),
    )
    gpus += lookalike_gpu
    models = edited(
        folder,
        "reference/models.yaml",
        ("meta-llama/Meta-Llama-3.1-70B]\n", f"meta-llama/Meta-Llama-3.1-70B, {yaml_string(YAML_ALIAS)}]\n"),
    )
    instances = edited(
        folder,
        "reference/instances.yaml",
        ("AWS p5.48xlarge:\n  provider: AWS\n", f"AWS p5.48xlarge:\n  provider: {yaml_string(TXT_PROVIDER)}\n"),
    )

    x9 = recipe_data(reference, name="run", gpu="H100-PCIe", instance=None)  # X9 is H100-PCIe renamed
    x9["gpu"]["type"] = "X9"
    x9["run"] = RUN
    x9["notes"] = f"{TOKEN} {MARKUP}"
    lookalike = recipe_data(reference, name="lookalike", gpu="H200", instance=None)
    lookalike["gpu"]["type"] = LOOKALIKE
    brackets = recipe_data(reference, name="brackets")
    brackets["notes"] = BRACKETS
    bomb = yaml_text(recipe_data(reference, name="bomb"), BOMB)
    patches = f"patches:\n- name: p0\n  description: &text {TWENTY_KB}\n"
    patches += "".join(f"- name: p{index}\n  description: *text\n" for index in range(1, 3_000))
    assert "patches: []\n" in bomb
    bomb = bomb.replace("patches: []\n", patches)
    assert len(TWENTY_KB) >= 20_000 and len(bomb.encode()) < 256 * 1024  # within what a file may hold
    return {
        "reference/gpus.yaml": gpus.encode(),
        "reference/models.yaml": models.encode(),
        "reference/instances.yaml": instances.encode(),
        f"recipes/{X9}.yaml": yaml_text(x9, X9).encode(),
        f"recipes/{LOOKALIKE_RECIPE}.yaml": yaml_text(lookalike, LOOKALIKE_RECIPE).encode(),
        f"recipes/{BRACKETS_RECIPE}.yaml": yaml_text(brackets, BRACKETS_RECIPE).encode(),
        f"recipes/{BOMB}.yaml": bomb.encode(),
    }


REFUSED = (
    # (file, field, what the message says, what is written where it points)
    (
        "reference/gpus.yaml",
        f"$['{X9_KEY}']",
        "does not have the expected form",
        yaml_string(X9_KEY),
    ),
    ("reference/gpus.yaml", f"$['{X9_KEY}']", "is too long", yaml_string(X9_KEY)),
    (
        "reference/gpus.yaml",
        f"$['{X9_KEY}'].aliases[1]",
        "does not have the expected form",
        yaml_string(ENV_ALIAS),
    ),
    ("reference/gpus.yaml", f"$['{X9_KEY}'].aliases[1]", "is too long", yaml_string(ENV_ALIAS)),
    ("reference/gpus.yaml", "$.A100.name", 'holds " < >: a name is plain text', yaml_string(REFRESH_NAME)),
    (
        "reference/gpus.yaml",
        "$['H100-NVL'].name",
        "holds U+1D407 (MATHEMATICAL BOLD CAPITAL H), a look-alike of 'H'",
        MATHEMATICAL,
    ),
    ("reference/gpus.yaml", "$.B200.vendor", "holds U+FF2E (FULLWIDTH LATIN CAPITAL LETTER N)", FULLWIDTH),
    ("reference/gpus.yaml", f"$.{LOOKALIKE}", "does not have the expected form", f"{LOOKALIKE}:"),
    (
        "reference/models.yaml",
        "$['Llama 3.1 70B'].aliases[4]",
        "does not have the expected form",
        yaml_string(YAML_ALIAS),
    ),
    (
        "reference/instances.yaml",
        "$['AWS p5.48xlarge'].provider",
        'holds " < >: a name is plain text',
        yaml_string(TXT_PROVIDER),
    ),
    (f"recipes/{LOOKALIKE_RECIPE}.yaml", "$.gpu.type", f"'{LOOKALIKE}' does not have the expected form", LOOKALIKE),
)


def where_written(files: dict[str, bytes], path: str, written: str) -> tuple[int, int]:
    """The line and column (from 1) where `written` first stands in the pull request's file."""
    for number, line in enumerate(files[path].decode().splitlines(), 1):
        if written in line:
            return number, line.index(written) + 1
    raise AssertionError(f"{written!r} is not in {path}")


def test_a_pull_request_with_every_attack_is_refused_in_one_run_and_publishes_nothing(pipeline: Pipeline) -> None:
    sandbox = pipeline.sandbox
    tip = sandbox.tip()
    files = every_attack(pipeline)
    head = pipeline.main.open_pull_request(19, files)
    checkout = pipeline.checkout("checkout-19")

    # pr-preview.yml, build: the pull request's data over main, and nothing else of it.
    prepared = sandbox.script("preview-prepare.sh", "19", head, sandbox.root / "notes-19", cwd=checkout)
    assert prepared.outputs["kind"] == "data", prepared.stderr
    changed = sorted(line[3:] for line in sandbox.git(checkout, "status", "--porcelain").splitlines())
    assert changed == sorted(files)
    built = pipeline.build(checkout, prepared.outputs["source-date-epoch"])
    published = ""
    if built.returncode == 0:  # publish runs only after a build that succeeded
        published = pipeline.command(
            sandbox.root, str(SCRIPTS / "pages-publish.sh"), "pr-19", str(checkout / "site"), timeout=60
        ).output

    no_traceback(built)
    assert built.returncode == 1, built.output + published
    problems = built.problems()
    errors = [line for line in built.output.splitlines() if line.startswith("ERROR")]
    # Every error the build logged is a located problem, but the closing count.
    assert len(errors) == len(problems) + 1, "\n".join(errors)
    blamed = len({problem["file"] for problem in problems})
    assert errors[-1].endswith(f"{len(problems)} problems in {blamed} files; the site was not built"), errors[-1]

    # Each attack that validation refuses, reported where it is written.
    for path, where, message, written in REFUSED:
        matching = [p for p in problems if (p["file"], p["where"]) == (path, where) and message in p["message"]]
        assert len(matching) == 1, f"{path}: {where}: {message!r} is not reported once:\n" + "\n".join(errors)
        (problem,) = matching
        assert (int(problem["line"]), int(problem["column"])) == where_written(files, path, written), problem[0]

    # The alias bomb: refused at the alias whose text takes the document past the limit.
    (bomb,) = [problem for problem in problems if problem["file"] == f"recipes/{BOMB}.yaml"]
    patch = re.fullmatch(r"\$\.patches\[(\d+)\]\.description", bomb["where"])
    assert patch, bomb[0]
    assert "through YAML aliases the document expands to more than 262,144 characters of text" in bomb["message"]
    lines = files[f"recipes/{BOMB}.yaml"].decode().splitlines()
    line = lines.index(f"- name: p{patch[1]}") + 2
    assert (int(bomb["line"]), int(bomb["column"])) == (line, lines[line - 1].index("*text") + 1), bomb[0]

    # Nothing else is blamed: the recipe whose `run` is JavaScript, the brackets and `orfrag1z` are
    # valid on their own (the next test publishes them).
    assert len(problems) == len(REFUSED) + 1, "\n".join(errors)

    # `openrecipes validate` (the pull request's own run, and a contributor) refuses the same, located.
    validated = pipeline.validate(checkout)
    no_traceback(validated)
    assert validated.returncode == 1, validated.output
    assert [problem[0] for problem in validated.problems()] == [problem[0] for problem in problems]

    # Nothing was built to publish, and nothing is published: the pages branch is as it was.
    assert not (checkout / "site" / "index.html").exists()
    assert sandbox.tip() == tip
    assert not [path for path in sandbox.pages() if path.startswith("pr-19/")]


# Pull request #23: the attacks that validate, published.


def valid_attacks(pipeline: Pipeline) -> dict[str, bytes]:
    folder, reference = pipeline.main.folder, pipeline.reference
    gpus = edited(
        folder,
        "reference/gpus.yaml",
        (
            '  notes: "NVIDIA\'s with-sparsity figures are 1,513 / 3,026."\n',
            f"  notes: {yaml_string(f'NVIDIA with-sparsity figures are 1,513 / 3,026. {MARKUP}')}\n",
        ),
        ("  aliases: [H100 PCIe]\n", f"  aliases: [H100 PCIe, {TOKEN}]\n"),
    )
    data = recipe_data(reference, name="run", gpu="H100-PCIe", instance=None)
    data["run"] = RUN
    data["env"] = ENV
    for path in MARKUP_FIELDS:
        parent = data
        for key in path[:-1]:
            parent = parent[key]
        parent[path[-1]] = MARKUP
    data["author"]["name"] = SHORT_MARKUP
    brackets = recipe_data(reference, name="brackets")
    brackets["notes"] = BRACKETS
    return {
        "reference/gpus.yaml": gpus.encode(),
        f"recipes/{RECIPE}.yaml": yaml_text(data, RECIPE).encode(),
        f"recipes/{BRACKETS_RECIPE}.yaml": yaml_text(brackets, BRACKETS_RECIPE).encode(),
    }


@dataclass
class Published:
    pipeline: Pipeline
    before: dict[str, bytes]
    pages: dict[str, bytes]
    built: Command


@pytest.fixture(scope="module")
def published(pipeline: Pipeline) -> Published:
    """Pull request #23 taken through the pipeline: prepared, built, and published."""
    sandbox = pipeline.sandbox
    files = valid_attacks(pipeline)
    head = pipeline.main.open_pull_request(23, files)
    checkout = pipeline.checkout("checkout-23")
    before = sandbox.pages()

    notes = sandbox.root / "notes-23"
    prepared = sandbox.script("preview-prepare.sh", "23", head, notes, cwd=checkout)
    assert prepared.outputs["kind"] == "data", prepared.stderr
    built = pipeline.build(checkout, prepared.outputs["source-date-epoch"])
    assert built.returncode == 0, built.output
    diff = pipeline.command(checkout, str(BIN / "openrecipes"), "diff", "HEAD", "--json", timeout=HANG_SECONDS)
    assert diff.returncode == 0, diff.output
    assert sorted(json.loads(diff.output)["added"]) == sorted([RECIPE, BRACKETS_RECIPE])
    outcome = sandbox.script("pages-publish.sh", "pr-23", checkout / "site")
    assert outcome.outputs == {"changed": "true"}, outcome.stderr
    return Published(pipeline, before, sandbox.pages(), built)


PREVIEW = "pr-23/"


def policy_of(html: str) -> str:
    """The page's Content-Security-Policy, which must be the first element of its head."""
    elements = parse(html).elements
    assert [tag for tag, _ in elements[:3]] == ["html", "head", "meta"]
    meta = elements[2][1]
    assert (meta.get("http-equiv") or "").lower() == "content-security-policy", meta
    return meta["content"] or ""


def allowed_scripts(policy: str) -> set[str]:
    directives = {part.split()[0]: part.split()[1:] for part in policy.split(";") if part.split()}
    assert set(directives) & {"script-src-elem", "script-src-attr"} == set()
    sources = directives["script-src"]
    assert all(re.fullmatch(r"'sha256-[A-Za-z0-9+/]+={0,2}'", source) for source in sources), sources
    assert directives["object-src"] == ["'none'"] and directives["base-uri"] == ["'none'"]
    return {source.strip("'") for source in sources}


SCRIPT_ADDRESS = re.compile(r"(?:java|vb)script:")


def script_address(value: str) -> bool:
    """Whether an attribute's value is a `javascript:` address, as a browser reads it."""
    return SCRIPT_ADDRESS.match(re.sub(r"[\t\n\r\x00-\x20]", "", value).lower()) is not None


def test_the_attacks_that_validate_are_published_and_nothing_of_them_can_run(published: Published) -> None:
    pages, before = published.pages, published.before
    no_traceback(published.built)
    # Published under pr-23/, and nothing else of the branch changed.
    assert {path: data for path, data in pages.items() if not path.startswith(PREVIEW)} == before
    preview = {path: data for path, data in pages.items() if path.startswith(PREVIEW)}
    assert f"{PREVIEW}recipes/{RECIPE}/index.html" in preview
    assert f"{PREVIEW}recipes/{BRACKETS_RECIPE}/index.html" in preview

    live_policy = policy_of(pages["index.html"].decode())
    allowed = allowed_scripts(live_policy)
    loaded: set[str] = set()  # every script a page of the preview loads, by its path on the branch
    html_pages = sorted(path for path in preview if path.endswith(".html"))
    assert len(html_pages) > 10
    for path in html_pages:
        html = preview[path].decode()
        # The live site's exact policy, first in the head.
        assert policy_of(html) == live_policy, path
        elements = parse(html).elements
        assert [tag for tag, _ in elements].count("title") == 1, path
        for tag, attributes in elements:
            assert not [name for name in attributes if name.startswith("on")], (path, tag, attributes)
            assert not [name for name, value in attributes.items() if script_address(value or "")], (path, tag)
            assert tag not in ("base", "iframe", "frame", "object", "embed"), (path, tag)
            assert not (tag == "meta" and (attributes.get("http-equiv") or "").lower() == "refresh"), path
            if tag != "script":
                continue
            src = attributes.get("src")
            if src is None:  # no inline script: the theme's configuration is JSON, not a script
                assert attributes == {"id": "__config", "type": "application/json"}, (path, attributes)
                continue
            # One of the site's own scripts under assets/ (the preview's, or the live site's for the
            # 404 page, whose addresses are absolute), allowed by the hash of its bytes.
            parts = urlsplit(urljoin(f"https://pages.invalid/{path}", src))
            assert parts.netloc == "pages.invalid" and not parts.query and not parts.fragment, (path, src)
            script = parts.path[1:]
            assert script.startswith((f"{PREVIEW}assets/", "assets/")) and script.endswith(".js"), (path, src)
            assert script in pages, (path, src)
            assert sha256(pages[script]) in allowed, (path, src)
            assert attributes.get("integrity") == sha256(pages[script]), (path, src)
            loaded.add(script)
    assert f"{PREVIEW}assets/core.js" in loaded

    # No file of the preview but the site's own scripts hashes to a value the policy allows: its
    # downloads, recipe files, JSON and text can never run, wherever they are named.
    runnable = {path for path, data in preview.items() if sha256(data) in allowed}
    assert {path for path in loaded if path.startswith(PREVIEW)} <= runnable
    assert all(path.startswith(f"{PREVIEW}assets/") and path.endswith(".js") for path in runnable), sorted(runnable)
    downloads = [f"recipes/{RECIPE}/launch.sh", f"recipes/{RECIPE}/env.sh", f"recipes/{RECIPE}.yaml"]
    downloads += [f"api/recipes/{RECIPE}.json", "api/recipes.json", "search/search_index.json"]
    for download in downloads:
        assert PREVIEW + download in preview and PREVIEW + download not in runnable, download
    assert preview[f"{PREVIEW}recipes/{RECIPE}/launch.sh"].decode() == RUN  # the recipe's, byte for byte
    assert not [path for path in preview if path.endswith(".txt")]
    # The scripts, styles and images are the live site's, byte for byte.
    for path, data in preview.items():
        live = path[len(PREVIEW) :]
        if live.startswith("assets/") and live not in ("assets/prices.json", "assets/catalogue-rows.json"):
            assert pages.get(live) == data, path

    # The markup is text where it is shown: the recipe's fields, the GPU's notes; `orfrag1z` too.
    recipe = preview[f"{PREVIEW}recipes/{RECIPE}/index.html"].decode()
    text = "".join(parse(recipe).text)
    assert text.count(MARKUP) >= len(MARKUP_FIELDS), text.count(MARKUP)
    assert SHORT_MARKUP in text and TOKEN in text
    assert '<script src="launch.sh"' not in recipe and "<title> " not in recipe and REFRESH not in recipe
    methodology = preview[f"{PREVIEW}methodology/index.html"].decode()
    assert MARKUP in "".join(parse(methodology).text) and REFRESH not in methodology
    brackets = preview[f"{PREVIEW}recipes/{BRACKETS_RECIPE}/index.html"].decode()
    assert BRACKETS in "".join(parse(brackets).text)
    for entry in json.loads(preview[f"{PREVIEW}search/search_index.json"])["docs"]:
        assert "<script" not in entry["title"] and "<meta" not in entry["title"], entry["title"]


@pytest.mark.browser
def test_chromium_opens_the_published_preview_and_nothing_runs(published: Published) -> None:
    problem = chromium.unavailable()
    if problem:
        if IN_CI:
            pytest.fail(f"CI must run the browser tests, but {problem}", pytrace=False)
        pytest.skip(problem)
    served, url = published.pipeline.served, published.pipeline.url
    for path, data in published.pages.items():
        (served / path).parent.mkdir(parents=True, exist_ok=True)
        (served / path).write_bytes(data)
    pages = [
        f"{PREVIEW}recipes/{RECIPE}/",
        PREVIEW,
        f"{PREVIEW}gpus/h100-pcie/",
        f"{PREVIEW}methodology/",
        f"{PREVIEW}recipes/{BRACKETS_RECIPE}/",
    ]
    for page in pages:
        assert (served / page / "index.html").is_file(), page
    # In a thread of its own: the browser tests' session may hold Playwright in this one.
    with ThreadPoolExecutor(1) as thread:
        scripts = thread.submit(open_in_chromium, url, pages).result()
    # The only scripts Chromium was asked for are the site's own, under assets/.
    assert f"{url}{PREVIEW}assets/core.js" in scripts
    assert not [
        script
        for script in scripts
        if not (script.startswith((f"{url}{PREVIEW}assets/", f"{url}assets/")) and script.endswith(".js"))
    ], scripts


def open_in_chromium(url: str, pages: list[str]) -> list[str]:
    """Opens each page in a fresh tab that fails on any dialog, page error, console error or request
    off the server (`watched_tab`); every page stays where it is and shows the markup as text.
    Returns the address of every script requested."""
    from playwright.sync_api import sync_playwright

    scripts: list[str] = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium.CHROMIUM, headless=True, args=chromium.ARGS)
        try:
            context = browser.new_context(viewport={"width": 1280, "height": 900}, service_workers="block")
            context.set_default_timeout(15_000)
            for page in pages:
                watch = Watch()
                with watched_tab(context, url, watch) as tab:
                    tab.on("request", lambda request: request.resource_type == "script" and scripts.append(request.url))
                    tab.goto(url + page)
                    tab.wait_for_load_state("networkidle")
                    tab.wait_for_timeout(300)  # a refresh of 0 s would have gone by now
                    assert tab.url == url + page
                    assert tab.locator("meta[http-equiv='refresh' i]").count() == 0
                    assert tab.evaluate("() => typeof window.alert") == "function"
                    if page.endswith(f"{RECIPE}/") or page.endswith("methodology/"):
                        assert tab.evaluate("(markup) => document.body.textContent.includes(markup)", MARKUP), page
        finally:
            browser.close()
    return scripts
