#!/usr/bin/env bash
# Brings pull request NUMBER's preview on the pages branch in line with the pull request as it
# is now, whatever order the runs of its pushes and its closing arrive in:
#   open at HEAD_SHA, data only  publish SITE at pr-NUMBER/
#   open at HEAD_SHA, code       remove pr-NUMBER/ (an earlier data-only push may have left one)
#   closed                       remove pr-NUMBER/ (this run may come after the removal on closing)
#   open at another commit       nothing: the run of that commit publishes it
#
# Usage: preview-publish.sh NUMBER HEAD_SHA data|code SITE
# Prints changed=true|false and current=true|false (whether HEAD_SHA is still the pull request's
# head, so that a comment about it is still news). Needs gh and GITHUB_REPOSITORY.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)

fail() {
    printf '::error::%s\n' "$*" >&2
    exit 1
}

[ $# -eq 4 ] || fail "usage: preview-publish.sh NUMBER HEAD_SHA data|code SITE"
number=$1
head_sha=$2
kind=$3
site=$4
[[ $number =~ ^[1-9][0-9]{0,8}$ ]] || fail "${number@Q} is not a pull request number"
[[ $head_sha =~ ^([0-9a-f]{40}|[0-9a-f]{64})$ ]] || fail "${head_sha@Q} is not a commit id"
[ "$kind" = data ] || [ "$kind" = code ] || fail "${kind@Q} is neither data nor code"

state=$(gh api "repos/${GITHUB_REPOSITORY:?}/pulls/$number" --jq '.state + " " + .head.sha')
case "$state" in
    "open $head_sha")
        if [ "$kind" = data ]; then
            "$here/pages-publish.sh" "pr-$number" "$site"
        else
            "$here/pages-remove.sh" "$number"
        fi
        echo "current=true"
        ;;
    "closed "*)
        echo "::notice::pull request #$number is closed: its preview is removed" >&2
        "$here/pages-remove.sh" "$number"
        echo "current=false"
        ;;
    *)
        echo "::notice::pull request #$number is no longer at $head_sha: a newer run publishes it" >&2
        echo "changed=false"
        echo "current=false"
        ;;
esac
