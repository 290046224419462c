#!/usr/bin/env bash
# Posts BODY as the bot's comment on pull request NUMBER, or updates the comment it posted before
# (the first one starting with the same marker line), so that each pull request has one.
#
# Usage: comment-upsert.sh NUMBER BODY
# Needs gh (with a token that may write pull requests) and GITHUB_REPOSITORY.
set -euo pipefail

fail() {
    printf '::error::%s\n' "$*" >&2
    exit 1
}

[ $# -eq 2 ] || fail "usage: comment-upsert.sh NUMBER BODY"
number=$1
body=$2
[[ $number =~ ^[1-9][0-9]{0,8}$ ]] || fail "${number@Q} is not a pull request number"
marker=$(head -n 1 "$body")
[[ $marker =~ ^\<!--\ [a-z-]+\ --\>$ ]] || fail "the comment does not start with a marker line"

existing=$(gh api --paginate "repos/${GITHUB_REPOSITORY:?}/issues/$number/comments" \
    --jq ".[] | select(.user.login == \"github-actions[bot]\" and (.body | startswith(\"$marker\"))) | .id")
existing=${existing%%$'\n'*} # the first one, if several
if [ -n "$existing" ]; then
    gh api --method PATCH "repos/$GITHUB_REPOSITORY/issues/comments/$existing" -F "body=@$body" >/dev/null
else
    gh api --method POST "repos/$GITHUB_REPOSITORY/issues/$number/comments" -F "body=@$body" >/dev/null
fi
