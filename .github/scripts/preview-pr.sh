#!/usr/bin/env bash
# Finds the open pull request into BASE_BRANCH whose head is HEAD_SHA, from GitHub's own records:
# the branch it came from (HEAD_OWNER:HEAD_BRANCH) and its head commit, both from the event. Nothing
# the pull request's run wrote is read, so a run cannot claim another pull request's number.
#
# Usage: preview-pr.sh HEAD_OWNER HEAD_BRANCH HEAD_SHA BASE_BRANCH
# Prints number=N for $GITHUB_OUTPUT, or number= when no open pull request has that head (it was
# closed, or pushed again: the newer run previews it). Needs gh and GITHUB_REPOSITORY.
set -euo pipefail

fail() {
    printf '::error::%s\n' "$*" >&2
    exit 1
}

[ $# -eq 4 ] || fail "usage: preview-pr.sh HEAD_OWNER HEAD_BRANCH HEAD_SHA BASE_BRANCH"
owner=$1
branch=$2
head_sha=$3
base=$4
[[ $owner =~ ^[A-Za-z0-9-]+$ ]] || fail "${owner@Q} is not a GitHub account"
[[ $head_sha =~ ^([0-9a-f]{40}|[0-9a-f]{64})$ ]] || fail "${head_sha@Q} is not a commit id"
[ -n "$branch" ] && [ -n "$base" ] || fail "no branch"

# -f on a GET request: query parameters, encoded by gh.
listing=$(gh api --method GET --paginate "repos/${GITHUB_REPOSITORY:?}/pulls" \
    -f state=open -f "head=$owner:$branch" -f per_page=100 \
    --jq '.[] | [.number, .head.sha, .base.ref] | @tsv')
numbers=$(awk -F '\t' -v sha="$head_sha" -v base="$base" '$2 == sha && $3 == base { print $1 }' <<<"$listing")
case "$numbers" in
    "")
        echo "::notice::no open pull request into $base has head $head_sha" >&2
        echo "number="
        ;;
    *$'\n'*)
        fail "several open pull requests into $base have head $head_sha: $numbers"
        ;;
    *)
        [[ $numbers =~ ^[1-9][0-9]{0,8}$ ]] || fail "${numbers@Q} is not a pull request number"
        echo "number=$numbers"
        ;;
esac
