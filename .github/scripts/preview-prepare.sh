#!/usr/bin/env bash
# Turns a clean checkout of the main branch into the tree a preview is built from: main's code,
# templates and assets, with the pull request's changes to recipes/ and reference/ applied, and
# nothing else of the pull request.
#
# Usage (from the checkout, which must have the full history of main):
#   preview-prepare.sh NUMBER HEAD_SHA NOTES
# Fetches refs/pull/NUMBER/head from origin as data (git objects; nothing of it is run), checks
# that it is still HEAD_SHA, and classifies its changes with preview-changes.sh. Prints, for
# $GITHUB_OUTPUT:
#   kind=stale   the pull request has moved on since HEAD_SHA (a newer run builds that)
#   kind=code    it changes more than data: NOTES/code-paths lists what; the tree is untouched
#   kind=data    the tree now holds its data; also base-sha=, and source-date-epoch= (the
#                commit time of HEAD_SHA, so that the preview is dated as its pull request)
# With GH_TOKEN set, git sends it to $GITHUB_SERVER_URL (for private repositories).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)

fail() {
    printf '::error::%s\n' "$*" >&2
    exit 1
}

[ $# -eq 3 ] || fail "usage: preview-prepare.sh NUMBER HEAD_SHA NOTES"
number=$1
head_sha=$2
notes=$3
[[ $number =~ ^[1-9][0-9]{0,8}$ ]] || fail "${number@Q} is not a pull request number"
[[ $head_sha =~ ^([0-9a-f]{40}|[0-9a-f]{64})$ ]] || fail "${head_sha@Q} is not a commit id"
mkdir -p "$notes"
[ -z "$(git status --porcelain --untracked-files=all)" ] || fail "the checkout of main is not clean"

if [ -n "${GH_TOKEN:-}" ]; then
    # In the environment, not on the command line, where other processes could read it.
    export GIT_CONFIG_COUNT=1
    export GIT_CONFIG_KEY_0="http.${GITHUB_SERVER_URL:-https://github.com}/.extraheader"
    GIT_CONFIG_VALUE_0="AUTHORIZATION: basic $(printf 'x-access-token:%s' "$GH_TOKEN" | base64 -w0)"
    export GIT_CONFIG_VALUE_0
fi
git fetch -q --no-tags --no-recurse-submodules origin "+refs/pull/$number/head:refs/preview/head"
unset GIT_CONFIG_COUNT GIT_CONFIG_KEY_0 GIT_CONFIG_VALUE_0
head=$(git rev-parse --verify 'refs/preview/head^{commit}')
if [ "$head" != "$head_sha" ]; then
    echo "::notice::pull request #$number is at $head now, not $head_sha: a newer run previews it" >&2
    echo "kind=stale"
    exit 0
fi

kind=$("$here/preview-changes.sh" HEAD "$head" "$notes/code-paths")
if [ "$kind" != data ]; then
    echo "kind=$kind"
    exit 0
fi

# Apply exactly what the pull request changes, path by path, over main as it is now: main's
# newer recipes stay, and no file outside recipes/ and reference/ can come from the pull request
# (preview-changes.sh has checked every path). Literal pathspecs: a name is never a pattern.
merge_base=$(git merge-base HEAD "$head")
deleted=$(mktemp)
updated=$(mktemp)
trap 'rm -f "$deleted" "$updated"' EXIT
git diff -z --name-only --no-renames --diff-filter=D "$merge_base" "$head" -- >"$deleted"
git diff -z --name-only --no-renames --diff-filter=AMT "$merge_base" "$head" -- >"$updated"
if [ -s "$deleted" ]; then
    GIT_LITERAL_PATHSPECS=1 git rm -q --ignore-unmatch --pathspec-from-file="$deleted" --pathspec-file-nul
fi
if [ -s "$updated" ]; then
    GIT_LITERAL_PATHSPECS=1 git checkout "$head" --pathspec-from-file="$updated" --pathspec-file-nul
fi

# Checked by mode already; checked again on disk, as the build will read it.
odd=$(find recipes reference \( ! -type f ! -type d \) -print -quit 2>/dev/null || true)
[ -z "$odd" ] || fail "$odd is not a plain file"
outside=$(git status --porcelain --untracked-files=all -- ':(top,exclude)recipes' ':(top,exclude)reference')
[ -z "$outside" ] || fail "files outside recipes/ and reference/ changed: $outside"

echo "kind=data"
echo "base-sha=$(git rev-parse HEAD)"
echo "source-date-epoch=$(git log -1 --format=%ct "$head")"
