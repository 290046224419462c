"""Whitespace collapsed in built pages: smaller pages that render the same, scripts intact."""

from __future__ import annotations

from openrecipes.site.htmlspace import collapse_whitespace


def test_runs_with_a_line_break_become_one_line_break() -> None:
    html = '<div>\n      <a href="x">one</a>   \n\n    <a href="y">two</a>\n  </div>'
    assert collapse_whitespace(html) == '<div>\n<a href="x">one</a>\n<a href="y">two</a>\n</div>'


def test_spaces_without_a_line_break_are_left_alone() -> None:
    html = "<p>two  spaces <b>bold</b>  here</p>"
    assert collapse_whitespace(html) == html


def test_preformatted_text_scripts_styles_and_form_text_keep_every_character() -> None:
    verbatim = [
        '<pre class="or-launch"><code>torchrun \\\n    --nproc-per-node 8 \\\n\n    train.py\n</code></pre>',
        "<PRE>\n\n  upper case\n</PRE >",
        "<textarea>\n  a\n\n  b\n</textarea>",
        '<script type="application/json">{\n  "a": 1\n}</script>',
        "<style>\n  .a {\n    color: red;\n  }\n</style>",
    ]
    html = "\n    ".join(["<div>", *verbatim, "</div>"])
    assert collapse_whitespace(html) == "\n".join(["<div>", *verbatim, "</div>"])


def test_an_element_named_like_a_verbatim_one_is_not_verbatim() -> None:
    assert collapse_whitespace("<preview>\n   a\n   </preview>") == "<preview>\na\n</preview>"
