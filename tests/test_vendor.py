"""The vendored browser libraries and fonts are exactly the files their README records, licence
included, and the site's font stylesheet declares every font file and no other."""

from __future__ import annotations

import hashlib
import re

import yaml
from conftest import REPO

from openrecipes_tools import fonts

VENDOR = REPO / "docs/assets/vendor"
FONT_FACE = re.compile(r"@font-face \{(?P<body>[^}]*)\}")


def _recorded() -> dict[str, str]:
    """File path under the vendor folder -> sha256, from the README's table (first column the file,
    last its sha256)."""
    rows = re.findall(r"^\| `([^`]+)` \|.*\| `([0-9a-f]{64})` \|$", (VENDOR / "README.md").read_text("utf-8"), re.M)
    return dict(rows)


def test_every_vendored_file_is_the_one_its_readme_records() -> None:
    recorded = _recorded()
    present = {path.relative_to(VENDOR).as_posix() for path in VENDOR.rglob("*") if path.is_file()} - {"README.md"}
    assert recorded.keys() == present
    for name, sha256 in recorded.items():
        assert hashlib.sha256((VENDOR / name).read_bytes()).hexdigest() == sha256, name


def test_each_library_has_its_licence_and_exact_version_recorded() -> None:
    readme = (VENDOR / "README.md").read_text("utf-8")
    assert "diff.LICENSE" in _recorded()
    assert (VENDOR / "diff.LICENSE").read_text("utf-8").startswith("BSD 3-Clause License")
    row = next(line for line in readme.splitlines() if line.startswith("| `diff.min.js` |"))
    version = row.split(" | ")[2]
    assert re.fullmatch(r"\d+\.\d+\.\d+", version), version
    assert re.search(r"`sha512-[A-Za-z0-9+/]{86}==`", row)


def test_the_fonts_rows_are_the_ones_the_refresh_writes() -> None:
    """The rows between the markers are what `python -m openrecipes_tools.fonts` writes for the files
    present: a file changed by hand, or a pin changed without a refresh, shows here."""
    readme = (VENDOR / "README.md").read_text("utf-8")
    rows = readme.split(fonts.BEGIN + "\n", 1)[1].split(fonts.END, 1)[0].splitlines()
    assert rows == fonts.readme_rows(REPO / fonts.FONTS_DIR)


def test_every_font_is_woff2_under_the_open_font_licence_shipped_beside_it() -> None:
    for package in fonts.PACKAGES:
        licence = (REPO / fonts.FONTS_DIR / f"{package.stem}.LICENSE").read_text("utf-8")
        assert "This Font Software is licensed under the SIL Open Font License, Version 1.1." in licence
    for path in (REPO / fonts.FONTS_DIR).glob("*.woff2"):
        assert path.read_bytes()[:4] == b"wOF2", path.name


def test_the_stylesheet_declares_each_font_file_once_and_never_hides_text() -> None:
    css = (REPO / fonts.STYLESHEET).read_text("utf-8")
    faces = [match["body"] for match in FONT_FACE.finditer(css)]
    declared = [re.search(r"src: url\(vendor/fonts/([^)]+)\) format\('woff2'\);", face)[1] for face in faces]
    on_disk = sorted(path.name for path in (REPO / fonts.FONTS_DIR).glob("*.woff2"))
    assert sorted(declared) == on_disk
    for face in faces:
        # `swap`: drawn at once in a fallback, never invisible while the file loads.
        assert "font-display: swap;" in face
        assert re.search(r"unicode-range: U\+[0-9A-F]{4}", face)
    families = {re.search(r"font-family: '([^']+)';", face)[1] for face in faces}
    assert families == {package.family for package in fonts.PACKAGES}
    for package in fonts.PACKAGES:
        assert f'{package.css_variable}: "{package.family}";' in css


def test_the_site_loads_its_own_fonts_and_none_from_google() -> None:
    config = yaml.safe_load((REPO / "mkdocs.yml").read_text("utf-8"))
    assert config["theme"]["font"] is False
    assert config["extra_css"][0] == fonts.STYLESHEET.relative_to("docs").as_posix()
    main_html = (REPO / "overrides/main.html").read_text("utf-8")
    preload = re.search(r'href="\{\{ \'assets/vendor/fonts/([^\']+)\' \| url \}\}" as="font"', main_html)
    assert preload and (REPO / fonts.FONTS_DIR / preload[1]).is_file()
