#!/usr/bin/env python3
"""Checks a built site before pages-publish.sh puts it on the pages branch: the whole tree.

Usage: pages-check.py root SITE          the main site, about to replace the branch's root
       pages-check.py pr-NUMBER SITE LIVE a preview, about to be published at pr-NUMBER/; LIVE
                                         is a checkout of the branch (the live site at its root)

Every file of SITE must be one the build makes (SHAPES below, an extension of EXTENSIONS, a plain
file with no hidden name). Every page (.html) carries, as the first element of its <head> (only
the doctype, whitespace and comments come before `<html><head>`), a Content-Security-Policy
<meta>: the same one as the live site's index.html for a preview (same scripts, same policy), as
the site's own index.html for the main site; that policy has a script-src of 'self', 'none' and
hashes only and `object-src 'none'`. No page holds an inline script of any kind: no <script>
without src but the theme's JSON configuration (whose addresses are checked like a src), no
event-handler attribute, no javascript: address, no <base>, frame, object, embed, SVG animation,
refresh or other http-equiv, and every <script src> (every stylesheet) is a .js (.css) file
under assets/ of the same site. The XML files hold elements of their own namespace only, so no
browser runs anything in them. In a preview, every script, style, image and other file under
assets/ but the generated data is byte for byte the live site's: a preview brings no code.

Pages are read with html.parser; markup it could read otherwise than a browser (a comment a
browser may end elsewhere, `<![`, `<?`, a `<` and a letter it did not take for a tag) is refused
rather than guessed at. Standard library only: the publishing job has a checkout of
.github/scripts and the runner's python3, nothing else.

Prints each problem (the file and why, the first MAX_SHOWN) and exits 1 if there is any.
"""

from __future__ import annotations

import json
import os
import re
import stat
import sys
import xml.etree.ElementTree as ElementTree
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urljoin, urlsplit

MAX_SHOWN = 25

# What a path is made of. SEGMENT is a recipe id's model, GPU and name (loader._SEGMENT); SLUG a
# model's or GPU type's folder (loader.slug); NAME any other file or folder name of the site.
SEGMENT = r"[A-Za-z0-9][A-Za-z0-9._-]*"
SLUG = r"[a-z0-9_][a-z0-9._-]*"
NAME = r"[A-Za-z0-9_][A-Za-z0-9._-]*"
RECIPE_ID = rf"{SEGMENT}/{SEGMENT}/{SEGMENT}"

PAGE = "page"  # HTML: checked as a page below; its text is the data's
XML = "xml"  # served as XML, which a browser would run XHTML or SVG scripts in: checked below
DATA = "data"  # made from recipes and reference data, served as data (JSON, CSV, YAML, a shell script)
CODE = "code"  # main's: in a preview, byte for byte what the live site serves

# Every file the build makes, and where it comes from (hooks/openrecipes/ unless said otherwise).
# A file the build starts to make needs its line here: test_workflows.py publishes a real build.
SHAPES: tuple[tuple[str, str, str], ...] = (
    (r"index\.html", PAGE, "outputs.HOME_PAGE"),
    (r"(?:methodology|compare|schema|models|gpus)/index\.html", PAGE, "outputs.GENERATED_NAV_PAGES"),
    (r"(?:about|contributing|data)/index\.html", PAGE, "the hand-written pages, docs/*.md"),
    (r"404\.html", PAGE, "the theme's 404 page"),
    (rf"(?:models|gpus)/{SLUG}/index\.html", PAGE, "pages.group_outputs: a page per model and GPU type"),
    (rf"recipes/{RECIPE_ID}/index\.html", PAGE, "pages.recipe_outputs: a recipe's page"),
    (rf"recipes/{RECIPE_ID}\.yaml", DATA, "pages.recipe_outputs: the recipe's file"),
    (
        rf"recipes/{RECIPE_ID}/(?:publisher-)?(?:launch|env|prepare)\.sh",
        DATA,
        "pages.recipe_outputs: its launch script, environment, preparation",
    ),
    (rf"charts/(?:home|model-{SLUG}|gpu-{SLUG})-(?:cost|mfu)\.json", DATA, "pages._charts, charts.charts_for"),
    (r"api/(?:recipes\.json|recipes\.csv|index\.json)", DATA, "outputs.API_JSON, API_CSV, API_INDEX"),
    (rf"api/recipes/{RECIPE_ID}\.json", DATA, "export.py: outputs.API_RECIPES_DIR/<id>.json"),
    (r"schema/recipe\.schema\.json", DATA, "outputs.SCHEMA_JSON"),
    (r"assets/(?:prices|catalogue-rows)\.json", DATA, "outputs.PRICES_JSON, CATALOGUE_ROWS_JSON"),
    (r"search/search_index\.json", DATA, "MkDocs' search plugin"),
    (r"sitemap\.xml\.gz", DATA, "MkDocs"),
    (r"sitemap\.xml", XML, "MkDocs"),
    (r"feed\.xml", XML, "outputs.FEED, feed.py"),
    (rf"assets/{NAME}\.(?:js|css)", CODE, "docs/assets/, outputs.FACETS_JS, csp.INTEGRITY_JS"),
    (rf"assets/javascripts/(?:{NAME}/)*{NAME}\.js(?:\.map)?", CODE, "the theme's scripts, outputs.PLOTLY_JS"),
    (rf"assets/stylesheets/{NAME}\.css(?:\.map)?", CODE, "the theme's styles"),
    (rf"assets/images/{NAME}\.(?:png|svg|ico)", CODE, "the theme's favicon"),
    (rf"assets/fonts/{NAME}\.(?:woff2?)", CODE, "fonts (none yet: the theme's font is off)"),
    (rf"assets/vendor/{NAME}\.(?:js|LICENSE)", CODE, "docs/assets/vendor/"),
    (rf"assets/vendor/fonts/{NAME}\.(?:woff2|LICENSE)", CODE, "docs/assets/vendor/fonts/ (openrecipes_tools.fonts)"),
)
_SHAPES = [(re.compile(pattern), kind) for pattern, kind, _ in SHAPES]

EXTENSIONS = (
    *(".html", ".json", ".csv", ".yaml", ".sh", ".xml", ".xml.gz"),
    *(".js", ".js.map", ".css", ".css.map", ".png", ".svg", ".ico", ".woff", ".woff2", ".LICENSE"),
)

# Elements no page of the site has: each would load or run something the policy is not about.
FORBIDDEN = {
    "base": "a <base> changes where every address of the page points",
    **dict.fromkeys(
        ("iframe", "frame", "frameset", "object", "embed", "applet", "portal", "fencedframe"),
        "pages of the site embed no other document or plugin",
    ),
    **dict.fromkeys(
        ("animate", "set", "animatetransform", "animatemotion"),
        "an SVG animation can set an address to a script",
    ),
}
SCRIPT_ATTRIBUTES = {"src", "integrity", "crossorigin", "defer", "async", "referrerpolicy", "type"}
SCRIPT_TYPES = {"text/javascript", "application/javascript"}
WHITESPACE = " \t\n\r\f"  # HTML's, not str.isspace's
SCRIPT_DIRECTIVES = ("script-src", "script-src-elem", "script-src-attr")
SCRIPT_SOURCE = re.compile(r"'(?:self|none|report-sample|sha(?:256|384|512)-[A-Za-z0-9+/_-]+={0,2})'")
ADDRESS = re.compile(r"[A-Za-z0-9._~/:-]+")  # what the site's own script and style addresses are made of
SCRIPT_URL = re.compile(r"(?:java|vb)script:")
TAG_OPEN = re.compile(r"<[A-Za-z]")
CONFIG_ID = "__config"  # the theme's configuration, a JSON data block
NAMESPACES = {"feed.xml": "http://www.w3.org/2005/Atom", "sitemap.xml": "http://www.sitemaps.org/schemas/sitemap/0.9"}
XML_NAMESPACE = "http://www.w3.org/XML/1998/namespace"  # xml:base, xml:lang
PLACEHOLDER_ROOT = "https://pages.invalid/"  # where the site is when its pages name no canonical address


def shown(text: str, limit: int = 80) -> str:
    """`text` (a path or a value a stranger chose) safe to print in a log line: plain ones as they
    are, others quoted with every unusual character escaped, so no name can look like a workflow
    command or another line."""
    if re.fullmatch(r"[A-Za-z0-9._/' -]+", text) and len(text) <= limit:
        return text
    quoted = ascii(text)
    return quoted if len(quoted) <= limit else quoted[: limit - 1] + "…"


def kind_of(path: str) -> str | None:
    for pattern, kind in _SHAPES:
        if pattern.fullmatch(path):
            return kind
    return None


def policy_problems(policy: str) -> list[str]:
    """Why `policy` is not one the site can publish: scripts by 'self' or hash only, no plugins."""
    directives: dict[str, list[str]] = {}
    problems = []
    for directive in policy.split(";"):
        words = directive.split()
        if not words:
            continue
        name = words[0].lower()
        if name in directives:
            problems.append(f"it names {name} twice")
        directives.setdefault(name, [word.lower() for word in words[1:]])
    if "script-src" not in directives:
        problems.append("it has no script-src")
    for name in SCRIPT_DIRECTIVES:
        odd = [source for source in directives.get(name, []) if not SCRIPT_SOURCE.fullmatch(source)]
        if odd:
            problems.append(f"its {name} allows {shown(' '.join(odd))} (only 'self', 'none' and hashes)")
    if directives.get("object-src") != ["'none'"]:
        problems.append("its object-src is not 'none'")
    return problems


@dataclass
class Page:
    """What the checks need of a page, and what is wrong with it on its own."""

    problems: list[str] = field(default_factory=list)
    policy: str | None = None
    scripts: list[str] = field(default_factory=list)
    stylesheets: list[str] = field(default_factory=list)
    config: str | None = None
    canonical: str | None = None


class _Reader(HTMLParser):
    """Reads a page into a Page. The policy must come before anything but whitespace, the doctype
    and comments, in this order: <html>, <head>, the policy's <meta>."""

    BEFORE_POLICY = ("html", "head")

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.page = Page()
        self.tags = 0
        self.stage = 0  # how many of html, head, the policy were seen in their place; 3: after
        self.misplaced = ""  # why the policy is not in its place
        self.policies = 0  # policy <meta>s anywhere
        self.script: str | None = None  # inside a <script>: "src" or "config"
        self.config_text: list[str] = []
        self.doctype = False

    def problem(self, reason: str) -> None:
        self.page.problems.append(reason)

    def not_first(self, what: str) -> None:
        self.misplaced = f"the Content-Security-Policy is not the first element of <head>: {what} comes before it"
        self.stage = 3

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "style"):
            # A browser ignores the `/`: the element stays open over what follows.
            self.problem(f"<{tag} … />: a browser reads what follows as its text")
        self.handle_starttag(tag, attrs)
        self.script = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags += 1
        names = [name for name, _ in attrs]
        if len(set(names)) != len(names):
            self.problem(f"<{tag}> has an attribute twice (a browser reads the first, a checker may read the last)")
        attributes = dict(reversed(attrs))  # the first of each name, as a browser reads it
        for name, value in attrs:
            if name.startswith("on"):
                self.problem(f"<{tag} {shown(name)}=…>: an event-handler attribute, which is inline script")
            elif name == "srcdoc":
                self.problem(f"<{tag} srcdoc>: a document inside an attribute")
            if value and SCRIPT_URL.search(re.sub(r"[\x00-\x20]+", "", value).lower()):
                self.problem(f"<{tag} {shown(name)}={shown(value, 40)}>: a script address")
        # Compared as browsers compare it: a value with spaces around it is not the policy.
        is_policy = tag == "meta" and (attributes.get("http-equiv") or "").lower() == "content-security-policy"
        self.policies += is_policy
        if self.stage < 2:
            if tag != self.BEFORE_POLICY[self.stage]:
                self.not_first(f"<{tag}>")
            else:
                self.stage += 1
        elif self.stage == 2:
            if is_policy:
                self.page.policy = attributes.get("content") or ""
                self.stage = 3
            else:
                self.not_first(f"<{tag}>")
        elif is_policy and self.page.policy is not None:
            self.problem("a second Content-Security-Policy")
        if tag in FORBIDDEN:
            self.problem(f"<{tag}>: {FORBIDDEN[tag]}")
        elif tag == "meta":
            self.meta(attributes)
        elif tag == "script":
            self.start_script(attributes)
        elif tag == "link":
            rel = (attributes.get("rel") or "").lower().split()
            href = attributes.get("href")
            if "stylesheet" in rel:
                self.page.stylesheets.append(href or "")
            if "canonical" in rel and href and self.page.canonical is None:
                self.page.canonical = href

    def meta(self, attributes: dict[str, str | None]) -> None:
        equiv = attributes.get("http-equiv")
        if equiv is not None:
            equiv = equiv.lower()
            content = re.sub(r"\s+", "", attributes.get("content") or "").lower()
            if equiv == "content-type":
                if content != "text/html;charset=utf-8":
                    self.problem(f"<meta http-equiv=content-type> says {shown(content, 40)}, not UTF-8 HTML")
            elif equiv != "content-security-policy":
                self.problem(
                    f"<meta http-equiv={shown(equiv, 40)}>: no http-equiv but the policy and the content type"
                    + (" (a refresh sends the reader elsewhere)" if equiv == "refresh" else "")
                )
        charset = attributes.get("charset")
        if charset is not None and charset.strip().lower() not in ("utf-8", "utf8"):
            self.problem(f"<meta charset={shown(charset, 40)}>: not UTF-8")

    def start_script(self, attributes: dict[str, str | None]) -> None:
        if "src" not in attributes:
            data_block = (attributes.get("type") or "").strip().lower() == "application/json"
            if data_block and attributes.get("id") == CONFIG_ID and set(attributes) == {"id", "type"}:
                if self.page.config is not None or self.config_text:
                    self.problem(f"a second <script id={CONFIG_ID}>")
                self.script = "config"
            else:
                self.problem("an inline <script> (one without src)")
                self.script = "inline"
            return
        self.script = "src"
        odd = sorted(set(attributes) - SCRIPT_ATTRIBUTES)
        if odd:
            self.problem(f"<script src> with {shown(' '.join(odd))}: not an attribute the site's scripts have")
        kind = attributes.get("type")
        if kind is not None and kind.strip().lower() not in SCRIPT_TYPES:
            self.problem(f"<script type={shown(kind, 40)}>: not a classic script")
        self.page.scripts.append(attributes["src"] or "")

    def handle_endtag(self, tag: str) -> None:
        if self.stage < 3:
            self.not_first(f"</{tag}>")
        if tag == "script":
            if self.script == "config":
                self.page.config = "".join(self.config_text)
            self.script = None

    def handle_data(self, data: str) -> None:
        if self.script == "config":
            self.config_text.append(data)
        elif self.script == "src" and data.strip(WHITESPACE):
            self.problem("a <script src> with text inside")
        if self.stage < 3 and data.strip(WHITESPACE):
            self.not_first("text")

    def handle_comment(self, data: str) -> None:
        # Comments browsers and html.parser end in the same place: no `--`, `<` or `>` inside.
        if "--" in data or "<" in data or ">" in data or data.startswith("-") or data.endswith("-"):
            self.problem(f"a comment a browser may end elsewhere: <!--{shown(data, 40)}-->")

    def handle_decl(self, decl: str) -> None:
        if decl.strip(WHITESPACE).lower() != "doctype html" or self.doctype or self.tags:
            self.problem(f"<!{shown(decl, 40)}>: only one <!doctype html>, at the start")
        self.doctype = True

    def unknown_decl(self, data: str) -> None:
        self.problem(f"<![{shown(data, 40)}: a marked section, which browsers read otherwise")

    def handle_pi(self, data: str) -> None:
        self.problem(f"<?{shown(data, 40)}: a processing instruction, which browsers read otherwise")


def read_page(text: str) -> Page:
    reader = _Reader()
    reader.feed(text)
    reader.close()
    page = reader.page
    if reader.script == "config":  # never closed
        page.config = "".join(reader.config_text)
    if not reader.policies:
        page.problems.append("no Content-Security-Policy")
    elif page.policy is None:
        page.problems.append(reader.misplaced)
    opened = len(TAG_OPEN.findall(text))
    if opened != reader.tags:
        page.problems.append(
            f"markup a browser may read otherwise: {opened} `<` before a letter, {reader.tags} of them read as tags"
        )
    return page


def xml_problems(path: str, data: bytes) -> list[str]:
    """A feed or sitemap holds its own namespace's elements only: nothing a browser would run."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return ["not UTF-8"]
    body = re.sub(r"\A<\?xml [^<>?]*\?>", "", text)
    if "<!" in body or "<?" in body:
        return ["a DOCTYPE, CDATA section or processing instruction, which a feed or sitemap does not need"]
    try:
        root = ElementTree.fromstring(text)
    except ElementTree.ParseError as error:
        return [f"not well-formed XML ({error})"]
    namespace = NAMESPACES[path.rsplit("/", 1)[-1]]
    problems = []
    for element in root.iter():
        if not isinstance(element.tag, str) or not element.tag.startswith(f"{{{namespace}}}"):
            problems.append(f"the element {shown(str(element.tag))} is not of the namespace {namespace}")
        for name in element.attrib:
            if name.startswith("{") and not name.startswith(f"{{{XML_NAMESPACE}}}"):
                problems.append(f"the attribute {shown(name)} is of another namespace")
    return problems[:3]


class Tree:
    """A folder of files published at `url`."""

    def __init__(self, folder: Path, url: str) -> None:
        self.folder, self.url = folder, url

    def regular(self, path: str) -> Path | None:
        """The file at `path`, if it is a regular file reached through no link."""
        current = self.folder
        for part in path.split("/"):
            current = current / part
            try:
                mode = current.lstat().st_mode
            except OSError:
                return None
            if stat.S_ISLNK(mode):
                return None
        return current if stat.S_ISREG(mode) else None


class Checker:
    def __init__(self, target: str, site: Path, live: Path | None) -> None:
        self.target, self.site_folder, self.live_folder = target, site, live
        self.found: list[tuple[str, str]] = []
        self.preview = target != "root"
        self.tree = Tree(site, PLACEHOLDER_ROOT)
        self.live: Tree | None = None
        self.expected = Page()
        self.expected_name = ""
        self.expected_config: object = None

    def add(self, path: str, reason: str) -> None:
        self.found.append((path, reason))

    def files(self) -> list[str]:
        """Every file of the site, by path; anything but plain files and folders is a problem."""
        found = []

        def unreadable(error: OSError) -> None:
            where = Path(error.filename or self.site_folder)
            self.add(where.relative_to(self.site_folder).as_posix(), f"cannot be read ({error.strerror})")

        for folder, folders, names in os.walk(self.site_folder, onerror=unreadable):
            relative = Path(folder).relative_to(self.site_folder).as_posix()
            prefix = "" if relative == "." else relative + "/"
            for name in sorted(folders + names):
                path = prefix + name
                mode = (Path(folder) / name).lstat().st_mode
                if name.startswith("."):
                    self.add(path, "a hidden file or folder: they are not published")
                elif not (stat.S_ISREG(mode) or stat.S_ISDIR(mode)):
                    self.add(path, "not a plain file or folder (a link, a device, a pipe)")
                elif not self.preview and not prefix and name.startswith("pr-"):
                    self.add(path, "pr-* at the root is where previews go")
                elif stat.S_ISREG(mode):
                    found.append(path)
            folders[:] = [name for name in folders if not name.startswith(".") and not Path(folder, name).is_symlink()]
        return sorted(found)

    def reference(self) -> tuple[Page, str, str] | None:
        """The page whose policy and configuration every page must carry, what to call it, and the
        root address of the live site; None (with the problem) when it has no policy it could."""
        folder, name = (
            (self.live_folder, "the live site's index.html") if self.preview else (self.site_folder, "index.html")
        )
        file = Tree(folder or self.site_folder, "").regular("index.html")
        if file is None:
            self.add("index.html", f"{name} is missing: not a built site" + (" (publish main first)" * self.preview))
            return None
        try:
            page = read_page(file.read_bytes().decode("utf-8"))
        except UnicodeDecodeError:
            self.add("index.html", f"{name} is not UTF-8")
            return None
        if page.policy is None:
            self.add("index.html", f"{name} carries no Content-Security-Policy in its place")
            return None
        wrong = policy_problems(page.policy)
        for reason in wrong:
            self.add("index.html", f"the Content-Security-Policy of {name}: {reason}")
        if wrong:
            return None
        root = page.canonical or ""
        parts = urlsplit(root)
        if parts.scheme not in ("http", "https") or not parts.netloc or not parts.path.endswith("/") or parts.query:
            root = PLACEHOLDER_ROOT
        return page, name, root

    def run(self) -> list[tuple[str, str]]:
        files = self.files()
        reference = self.reference()
        if reference is None:
            return self.found
        self.expected, self.expected_name, root = reference
        self.live = Tree(self.live_folder, root) if self.preview and self.live_folder else None
        self.tree = Tree(self.site_folder, root + (f"{self.target}/" if self.preview else ""))
        self.expected_config = self.config_rest(self.expected.config)
        for path in files:
            self.check_file(path)
        return self.found

    def check_file(self, path: str) -> None:
        if not path.endswith(EXTENSIONS):
            self.add(path, "not a kind of file the site serves (its extension)")
            return
        kind = kind_of(path)
        if kind is None:
            self.add(path, "not a file the build makes (see SHAPES in .github/scripts/pages-check.py)")
            return
        file = self.site_folder / path
        if kind == PAGE:
            self.check_page(path, file.read_bytes())
        elif kind == XML:
            for reason in xml_problems(path, file.read_bytes()):
                self.add(path, reason)
        elif kind == CODE and self.live is not None:
            live = self.live.regular(path)
            if live is None or live.read_bytes() != file.read_bytes():
                self.add(path, "not on the live site as built (a preview brings no code of its own)")

    def check_page(self, path: str, data: bytes) -> None:
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            self.add(path, "not UTF-8")
            return
        page = read_page(text)
        for reason in page.problems:
            self.add(path, reason)
        if page.policy is not None and page.policy != self.expected.policy:
            self.add(path, f"its Content-Security-Policy is not the one of {self.expected_name}")
        for src in page.scripts:
            self.check_address(path, "<script src>", src, ".js")
        for href in page.stylesheets:
            self.check_address(path, "<link rel=stylesheet>", href, ".css")
        if page.config is not None:
            self.check_config(path, page.config)

    def locate(self, page_path: str, address: str, suffix: str) -> str | None:
        """Why `address`, written in the page at `page_path`, is not a `suffix` file of the site's
        own code (None when it is one): this site's or, for a preview, the live site's."""
        if not ADDRESS.fullmatch(address):
            return "an address with characters the site's own do not have"
        url = urljoin(self.tree.url + page_path, address)
        for tree in (self.tree, self.live):
            if tree is not None and url.startswith(tree.url):
                rest = url[len(tree.url) :]
                if not rest.startswith("assets/") or not rest.endswith(suffix) or kind_of(rest) != CODE:
                    return f"not a {suffix} file of the site's code under assets/"
                if tree.regular(rest) is None:
                    return "a file the site does not have"
                return None
        return "outside the site"

    def check_address(self, path: str, what: str, address: str, suffix: str) -> None:
        reason = self.locate(path, address, suffix)
        if reason is not None:
            self.add(path, f"{what} {shown(address, 60)}: {reason}")

    @staticmethod
    def config_rest(text: str | None) -> object:
        """The theme's configuration but for its addresses, which differ by page."""
        try:
            config = json.loads(text) if text is not None else None
        except ValueError:
            return None
        if not isinstance(config, dict):
            return None
        return {key: value for key, value in config.items() if key not in ("base", "search")}

    def check_config(self, path: str, text: str) -> None:
        where = f"<script id={CONFIG_ID}>"
        try:
            config = json.loads(text)
        except ValueError:
            self.add(path, f"{where} is not JSON")
            return
        if not isinstance(config, dict) or self.config_rest(text) != self.expected_config:
            self.add(path, f"{where} is not the theme's configuration of {self.expected_name}")
            return
        base, search = config.get("base"), config.get("search")
        if base is not None:
            roots = [tree.url for tree in (self.tree, self.live) if tree is not None]
            folder = base if isinstance(base, str) and base.endswith("/") else f"{base}/"
            if (
                not isinstance(base, str)
                or not ADDRESS.fullmatch(base)
                or urljoin(self.tree.url + path, folder) not in roots
            ):
                self.add(path, f"{where}: its base {shown(str(base), 60)} is not the site's root")
        if search is not None:
            reason = self.locate(path, search, ".js") if isinstance(search, str) else "not an address"
            if reason is not None:
                self.add(path, f"{where}: its search worker {shown(str(search), 60)}: {reason}")


def main(arguments: list[str]) -> int:
    usage = "usage: pages-check.py root SITE | pages-check.py pr-NUMBER SITE LIVE"
    if len(arguments) not in (2, 3):
        print(f"::error::{usage}", file=sys.stderr)
        return 2
    target, site = arguments[0], Path(arguments[1])
    preview = re.fullmatch(r"pr-[1-9][0-9]{0,8}", target) is not None
    if (target != "root" and not preview) or len(arguments) != (3 if preview else 2):
        print(f"::error::{usage}", file=sys.stderr)
        return 2
    live = Path(arguments[2]) if preview else None
    found = Checker(target, site, live).run()
    if not found:
        return 0
    # Each problem once, with how many times it was found, the first MAX_SHOWN of them.
    counts: dict[tuple[str, str], int] = {}
    for problem in found:
        counts[problem] = counts.get(problem, 0) + 1
    for (path, reason), count in list(counts.items())[:MAX_SHOWN]:
        print(f"  {shown(path, 200)}: {reason}" + (f" ({count} times)" if count > 1 else ""), file=sys.stderr)
    if len(counts) > MAX_SHOWN:
        print(f"  … and {len(counts) - MAX_SHOWN} more", file=sys.stderr)
    files = len({path for path, _ in found})
    what = f"the preview {target}" if preview else "the site"
    message = f"{what} is not published: {len(found)} problem(s) in {files} file(s)."
    if preview:
        message += (
            " A preview brings no code of its own: its pages carry the live site's policy and no inline"
            " script, and its scripts, styles and images are the live site's byte for byte. (If main's"
            " assets changed since its last deployment, run this again once main is deployed.)"
        )
    print(f"::error::{message}", file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
