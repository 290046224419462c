"""`python -m openrecipes_tools.fonts`: refresh the site's own fonts from their Fontsource packages.

The site draws its text in fonts it serves itself, so a page is laid out the same on every machine
(with the reader's fonts a table that fits in Roboto or Liberation overflows in DejaVu Sans). The
WOFF2 files are copied byte for byte from the npm packages below, whose tarballs are checked
against the integrity recorded here; the stylesheet that declares them is written from each
package's own `unicode.json`, so a browser downloads a subset only for a page that draws one of
its characters. The subsets are the ones the pages' characters fall in (Latin text; the `math`
subset for the site's ≤, ≥ and →); anything else falls back to the reader's fonts.

Run from the repository root with npm on PATH (it needs the npm registry, nothing else):

    .venv/bin/python -m openrecipes_tools.fonts

It rewrites `docs/assets/vendor/fonts/`, `docs/assets/openrecipes-fonts.css` and the fonts' rows of
`docs/assets/vendor/README.md`; `tests/test_vendor.py` checks the three agree.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import shutil
import subprocess
import sys
import tarfile
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

FONTS_DIR = Path("docs/assets/vendor/fonts")
STYLESHEET = Path("docs/assets/openrecipes-fonts.css")
README = Path("docs/assets/vendor/README.md")
BEGIN = "<!-- fonts: rows written by `python -m openrecipes_tools.fonts` -->"
END = "<!-- fonts: end -->"


@dataclass(frozen=True)
class Package:
    """One Fontsource package and the faces of it the site uses."""

    name: str
    version: str
    integrity: str
    """The npm tarball's `dist.integrity`: a refresh refuses a tarball that does not match it."""
    family: str
    css_variable: str
    """Material's custom property that names the family (`font: false` leaves it to the site)."""
    faces: tuple[tuple[int, str], ...]
    """(weight, style) pairs: the weights and styles Material's and the site's stylesheets use."""
    subsets: tuple[str, ...]

    @property
    def stem(self) -> str:
        return self.name.removeprefix("@fontsource/")

    def file_name(self, subset: str, weight: int, style: str) -> str:
        return f"{self.stem}-{subset}-{weight}-{style}.woff2"


PACKAGES = (
    Package(
        name="@fontsource/roboto",
        version="5.3.0",
        integrity="sha512-BapRJOWYP+LZ21zp+wBQjfpPYKRoxc4LspJ/RLuI+HSMBD5u/X4O+ESDrSvEqDSy0rAl7GwBJ+09mdc16cVQ1Q==",
        family="Roboto",
        css_variable="--md-text-font",
        # 300: Material's h1 and h2; 700: headings, strong, table headers; italic: emphasis, captions.
        faces=((300, "normal"), (400, "normal"), (400, "italic"), (700, "normal"), (700, "italic")),
        subsets=("latin", "latin-ext", "math"),
    ),
    Package(
        name="@fontsource/roboto-mono",
        version="5.3.0",
        integrity="sha512-yhwplHMHW9dCk+1pZuERfcJe+K3rosGVZEoK0XktkxRSqQ9qsipSwwiuW2/8Qmtp9lzu3Ixa/ie4BMH3i8CkZQ==",
        family="Roboto Mono",
        css_variable="--md-code-font",
        faces=((400, "normal"), (700, "normal")),
        subsets=("latin", "latin-ext"),
    ),
)


class RefreshError(RuntimeError):
    pass


def _fetch(package: Package, work: Path) -> Path:
    """The package unpacked under `work`, after checking its tarball's integrity."""
    spec = f"{package.name}@{package.version}"
    packed = subprocess.run(
        ["npm", "pack", spec, "--json", "--pack-destination", str(work)],
        capture_output=True,
        text=True,
        check=False,
    )
    if packed.returncode != 0:
        raise RefreshError(f"npm pack {spec} failed:\n{packed.stderr.strip()}")
    (entry,) = json.loads(packed.stdout)
    if entry["integrity"] != package.integrity:
        raise RefreshError(
            f"{spec}: the tarball's integrity is {entry['integrity']}, not the recorded {package.integrity};"
            " if the new version is wanted, record its integrity (`npm view PACKAGE@VERSION dist.integrity`)"
        )
    unpacked = work / package.stem
    with tarfile.open(work / entry["filename"]) as tarball:
        tarball.extractall(unpacked, filter="data")
    return unpacked / "package"


def _face_rule(package: Package, subset: str, weight: int, style: str, unicode_range: str) -> str:
    return "\n".join(
        (
            f"/* {package.file_name(subset, weight, style).removesuffix('.woff2')} */",
            "@font-face {",
            f"  font-family: '{package.family}';",
            f"  font-style: {style};",
            # Text is drawn at once in a fallback and redrawn in the site's font when it arrives.
            "  font-display: swap;",
            f"  font-weight: {weight};",
            f"  src: url(vendor/fonts/{package.file_name(subset, weight, style)}) format('woff2');",
            f"  unicode-range: {unicode_range};",
            "}",
        )
    )


def stylesheet(ranges: dict[str, dict[str, str]]) -> str:
    """The site's @font-face rules; `ranges[package name][subset]` is the package's unicode range."""
    header = (
        "/* The site's own fonts (docs/assets/vendor/fonts/, SIL Open Font License 1.1).\n"
        "   Written by `python -m openrecipes_tools.fonts` from the Fontsource packages: do not edit. */"
    )
    variables = "\n".join(f'  {package.css_variable}: "{package.family}";' for package in PACKAGES)
    rules = [
        _face_rule(package, subset, weight, style, ranges[package.name][subset])
        for package in PACKAGES
        for weight, style in package.faces
        for subset in package.subsets
    ]
    return "\n\n".join([header, ":root {\n" + variables + "\n}", *rules]) + "\n"


def readme_rows(fonts_dir: Path) -> list[str]:
    """The vendor README's table rows for the font files in `fonts_dir`."""
    rows = []
    for package in PACKAGES:
        link = f"[`{package.name}`](https://www.npmjs.com/package/{package.name})"
        licence = f"{package.stem}.LICENSE"
        names = [
            package.file_name(subset, weight, style) for weight, style in package.faces for subset in package.subsets
        ]
        for index, name in enumerate([*names, licence]):
            digest = hashlib.sha256((fonts_dir / name).read_bytes()).hexdigest()
            source = "`LICENSE`" if name == licence else f"`files/{name}`"
            shown_licence = f"OFL-1.1, `fonts/{licence}`" if name != licence else ""
            who = link if index == 0 else "the same"
            rows.append(
                f"| `fonts/{name}` | {who} | {package.version} | {shown_licence} | {source}"
                f" | `{package.integrity}` | `{digest}` |"
            )
    return rows


def _replace_rows(readme: str, rows: list[str]) -> str:
    before, found, rest = readme.partition(BEGIN + "\n")
    _, ended, after = rest.partition(END)
    if not found or not ended:
        raise RefreshError(f"{README}: the lines {BEGIN!r} and {END!r} around the fonts' rows are missing")
    return before + BEGIN + "\n" + "\n".join(rows) + "\n" + END + after


def refresh(root: Path) -> list[str]:
    """Copy the fonts and licences, write the stylesheet and the README rows; the files written."""
    fonts_dir = root / FONTS_DIR
    with tempfile.TemporaryDirectory() as temporary:
        work = Path(temporary)
        unpacked = {package.name: _fetch(package, work) for package in PACKAGES}
        if fonts_dir.exists():
            shutil.rmtree(fonts_dir)
        fonts_dir.mkdir(parents=True)
        ranges: dict[str, dict[str, str]] = {}
        for package in PACKAGES:
            source = unpacked[package.name]
            ranges[package.name] = json.loads((source / "unicode.json").read_text("utf-8"))
            shutil.copyfile(source / "LICENSE", fonts_dir / f"{package.stem}.LICENSE")
            for weight, style in package.faces:
                for subset in package.subsets:
                    name = package.file_name(subset, weight, style)
                    shutil.copyfile(source / "files" / name, fonts_dir / name)
    (root / STYLESHEET).write_text(stylesheet(ranges), "utf-8")
    readme = root / README
    readme.write_text(_replace_rows(readme.read_text("utf-8"), readme_rows(fonts_dir)), "utf-8")
    return [*sorted(str(path.relative_to(root)) for path in fonts_dir.iterdir()), str(STYLESHEET), str(README)]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m openrecipes_tools.fonts", description=__doc__.split("\n\n")[0])
    parser.add_argument("--root", type=Path, default=Path.cwd(), help="the repository (default: here)")
    arguments = parser.parse_args(argv)
    try:
        written = refresh(arguments.root)
    except RefreshError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    print("\n".join(f"wrote {path}" for path in written))
    return 0


if __name__ == "__main__":
    sys.exit(main())
