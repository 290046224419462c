#!/usr/bin/env bash
# Writes the bot's comment on a pull request (Markdown, on stdout); comment-upsert.sh posts it.
#
# Usage: PAGE_URL=... preview-comment.sh data NUMBER HEAD_SHA NOTES
#        RUN_URL=...  preview-comment.sh code NUMBER HEAD_SHA NOTES
# data: links to the preview and to the pages of the recipes it adds or changes (NOTES/pr-diff.json,
#       from `openrecipes diff --json`).
# code: why there is no published preview, the paths that are code (NOTES/code-paths, from
#       preview-changes.sh), and a link to the pull request's own run, whose artifact holds its
#       build.
# Everything read from NOTES is treated as untrusted text: ids must be plain paths, other text is
# reduced to letters, digits and ._/@+- and set as code, so it cannot mention, link or format.
set -euo pipefail

fail() {
    printf '::error::%s\n' "$*" >&2
    exit 1
}

[ $# -eq 4 ] || fail "usage: preview-comment.sh data|code NUMBER HEAD_SHA NOTES"
kind=$1
number=$2
head_sha=$3
notes=$4
[[ $number =~ ^[1-9][0-9]{0,8}$ ]] || fail "${number@Q} is not a pull request number"
[[ $head_sha =~ ^([0-9a-f]{40}|[0-9a-f]{64})$ ]] || fail "${head_sha@Q} is not a commit id"
url='^https://[A-Za-z0-9.-]+(:[0-9]+)?(/[A-Za-z0-9._~/-]*)?$'
shown_paths=20

echo "<!-- openrecipes-preview -->"
case "$kind" in
    data)
        [[ ${PAGE_URL:-} =~ $url ]] || fail "PAGE_URL ${PAGE_URL@Q} is not a plain https address"
        base="${PAGE_URL%/}/pr-$number/"
        # The ids of one kind of change, kept only when they are plain relative paths.
        ids() {
            python3 -c '
import json, sys
try:
    values = json.load(open(sys.argv[1], encoding="utf-8")).get(sys.argv[2])
except (OSError, ValueError, AttributeError):
    values = None
for value in values if isinstance(values, list) else []:
    if isinstance(value, str) and "\n" not in value:
        print(value)
' "$notes/pr-diff.json" "$1" |
                grep -E '^[A-Za-z0-9._/-]+$' | grep -v -E '(^|/)\.\.?(/|$)' | head -n 50 || true
        }
        # shellcheck disable=SC2016 # the backquotes are Markdown, not shell
        links() {
            ids "$1" | while IFS= read -r id; do
                printf -- '- [`%s`](%srecipes/%s/)\n' "$id" "$base" "$id"
            done
        }
        added=$(links added)
        changed=$(links changed)
        # shellcheck disable=SC2016 # the backquotes are Markdown, not shell
        removed=$(ids removed | sed 's/.*/`&`/' | paste -sd ' ' -)
        echo "**Preview of this pull request:** $base (built from commit $head_sha)"
        echo
        if [ -n "$added" ]; then printf '**New recipes**\n\n%s\n\n' "$added"; fi
        if [ -n "$changed" ]; then printf '**Changed recipes**\n\n%s\n\n' "$changed"; fi
        if [ -n "$removed" ]; then printf '**Removed recipes:** %s\n\n' "$removed"; fi
        if [ -z "$added$changed$removed" ]; then printf 'No recipe is added, changed or removed.\n\n'; fi
        echo "_The preview shows this pull request's recipes and reference data, rendered by the main" \
            "branch's own code; it is not checked by a maintainer._"
        ;;
    code)
        [[ ${RUN_URL:-} =~ $url ]] || fail "RUN_URL ${RUN_URL@Q} is not a plain https address"
        paths=()
        if [ -f "$notes/code-paths" ]; then
            while IFS= read -r path; do
                paths+=("$(printf '%s' "$path" | LC_ALL=C tr -c 'A-Za-z0-9._/@+-' '?')")
            done <"$notes/code-paths"
        fi
        echo "**No preview is published for this pull request:** it changes code, not only recipes and"
        echo "reference data, so its build is not put on the site (built from commit $head_sha)."
        echo
        if ((${#paths[@]} > 0)); then
            echo "Changed outside \`recipes/\` and \`reference/\` (or not plain data files there):"
            echo
            for path in "${paths[@]:0:shown_paths}"; do
                # shellcheck disable=SC2016 # the backquotes are Markdown, not shell
                printf -- '- `%s`\n' "$path"
            done
            if ((${#paths[@]} > shown_paths)); then
                printf -- '- … and %d more\n' $((${#paths[@]} - shown_paths))
            fi
            echo
        fi
        echo "Previews on the site are built from a pull request's \`recipes/\` and \`reference/\` with the"
        echo "main branch's own code, templates and scripts, because they are served from the site's own"
        echo "address. To look at this one, download the \`preview\` artifact of"
        echo "[its Pull request run]($RUN_URL), unpack it and run"
        echo "\`python3 -m http.server --directory site\`."
        ;;
    *)
        fail "${kind@Q} is neither data nor code"
        ;;
esac
