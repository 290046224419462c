#!/usr/bin/env bash
# Says whether a pull request changes only data: every path that HEAD changes since its merge base
# with BASE is a plain file (not a link, not a submodule) under recipes/ or reference/, named with
# letters, digits, '.', '_' and '-' and no part starting with '.' (so no .gitattributes, which
# could change how git writes files, and no hidden files). reference/SOURCES.md is data too: the
# site shows it as text. Anything else is code: the pull request's hooks, templates, assets,
# configuration, dependencies, workflows and scripts are never used to build a published preview.
#
# Usage: preview-changes.sh BASE HEAD [CODE_PATHS]
# Prints "data" or "code"; with CODE_PATHS, writes there the paths that make it code, one a line,
# characters other than letters, digits and ._/@+- shown as '?'. Reads git objects only: nothing
# of HEAD is checked out or run.
set -euo pipefail

[ $# -ge 2 ] && [ $# -le 3 ] || {
    echo "usage: preview-changes.sh BASE HEAD [CODE_PATHS]" >&2
    exit 2
}
base=$1
head=$2
code_paths=${3:-/dev/null}

if ! merge_base=$(git merge-base "$base" "$head"); then
    echo "::error::$head shares no history with $base" >&2
    exit 1
fi

part='[A-Za-z0-9_-][A-Za-z0-9._-]*'
data_path="^(recipes|reference)/($part/)*$part\$"

listing=$(mktemp)
trap 'rm -f "$listing"' EXIT
# --raw gives each path's new mode; -z keeps any byte of a name intact.
git diff --raw -z --no-renames --no-abbrev --no-ext-diff --ignore-submodules=none \
    "$merge_base" "$head" -- >"$listing"

: >"$code_paths"
kind=data
# Records: ":old-mode new-mode old-id new-id status" NUL path NUL.
while IFS= read -r -d '' meta && IFS= read -r -d '' path; do
    read -r _ new_mode _ _ status <<<"$meta"
    if [[ $path =~ $data_path ]] && { [ "$status" = D ] || [ "$new_mode" = 100644 ] || [ "$new_mode" = 100755 ]; }; then
        continue
    fi
    kind=code
    printf '%s' "$path" | LC_ALL=C tr -c 'A-Za-z0-9._/@+-' '?' >>"$code_paths"
    echo >>"$code_paths"
done <"$listing"
echo "$kind"
