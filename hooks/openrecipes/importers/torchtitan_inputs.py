"""What a torchtitan launch needs before it runs and beside its command: the tokenizer its README
downloads from a gated Hugging Face repository (a preparation step, with the token it takes), and a
Weights & Biases login where the command logs to W&B. Read from torchtitan's README at the launch's
commit; `torchtitan_launch` and `torchtitan_recipes` write what this finds into the launch.
"""

from __future__ import annotations

import re
from typing import Any

from ..reading.gitrev import GitError
from .common import Cited
from .gitsource import GitSource

README = "README.md"
_DOWNLOAD = re.compile(r"^python\S*\s+\S*download_tokenizer\.py\s.*--hf_token=\.\.\.\s*$")
_ACCESS = re.compile(
    r"\baccess\b.*\]\((https://huggingface\.co/[^)\s]+)\)|\]\((https://huggingface\.co/[^)\s]+)\).*\baccess\b"
)
_WANDB = re.compile(r"(?<![\w-])--(?:metrics\.enable_wandb|wandb\b[\w.-]*|report_to[ =]wandb)")


def tokenizer_step(source: GitSource, commit: str) -> tuple[dict[str, Any], Cited] | None:
    """The README's tokenizer download at `commit` as a preparation step, and the lines it is read
    from; None where the README documents none."""
    try:
        lines = source.show(README, commit).splitlines()
    except GitError:
        return None
    line = next((number for number, text in enumerate(lines, start=1) if _DOWNLOAD.match(text.strip())), 0)
    if not line:
        return None
    headings = _headings(lines)
    heading = next((number for number in range(line, 0, -1) if number in headings), line)
    title = lines[heading - 1].lstrip("#").strip() if heading != line else "Download the tokenizer"
    gate = next(
        (
            (number, match.group(1) or match.group(2))
            for number in range(heading, line)
            if (match := _ACCESS.search(lines[number - 1]))
        ),
        None,
    )
    written = lines[line - 1].strip()
    command = written.replace("--hf_token=...", '--hf_token="$HF_TOKEN"')
    whose = (
        f"granted access to the repository the README says to ask access to ({gate[1]}, line {gate[0]})"
        if gate
        else "that may read the tokenizer's repository"
    )
    end = _section_end(lines, headings, heading) if heading != line else line
    step = {
        "what": title,
        "file": README,
        "lines": [heading, end],
        "commands": command + "\n",
        "inputs": [
            {
                "name": "HF_TOKEN",
                "description": f"A Hugging Face access token of an account {whose}; the tokenizer download reads it",
                "origin": "https://huggingface.co/settings/tokens, as torchtitan's README says",
                "kind": "access-token",
            }
        ],
        "notes": (
            f"The README writes `--hf_token=...` for the reader's token (line {line}); the step passes HF_TOKEN. "
            "The tokenizer is written into the checkout, where launch.sh, run in the same folder, finds it."
        ),
    }
    return step, Cited(README, heading, end, "the tokenizer download")


def _headings(lines: list[str]) -> dict[int, int]:
    """Line -> level of each Markdown heading, outside code fences (a `# comment` in a block is none)."""
    found = {}
    fenced = False
    for number, line in enumerate(lines, start=1):
        if line.startswith("```"):
            fenced = not fenced
        elif not fenced and (match := re.match(r"(#{1,6}) ", line)):
            found[number] = len(match.group(1))
    return found


def _section_end(lines: list[str], headings: dict[int, int], heading: int) -> int:
    """The last line of the section a heading opens (before the next heading of its level or higher)."""
    level = headings.get(heading, 6)
    end = next((number - 1 for number, depth in headings.items() if number > heading and depth <= level), len(lines))
    while end > heading and not lines[end - 1].strip():
        end -= 1
    return end


def wandb_input(command: str) -> dict[str, str] | None:
    """A W&B login, where the command logs to Weights & Biases (`--metrics.enable_wandb`)."""
    found = _WANDB.search(command)
    if found is None:
        return None
    return {
        "name": "<Weights and Biases login>",
        "description": (
            f"A Weights & Biases account the run logs to (the command passes {found.group(0)}): log in with "
            "`wandb login`, or export WANDB_API_KEY, where the training processes start"
        ),
        "origin": "https://wandb.ai/authorize",
        "kind": "access-token",
    }
