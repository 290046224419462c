#!/usr/bin/env bash
# Sourced by pages-publish.sh and pages-remove.sh: changes the pages branch with a compare-and-swap
# push, so that writers that never wait for one another (the main site, each pull request's
# preview) cannot drop each other's folders.
#
# Each writer fetches the branch tip, changes only its own folder (main: everything but pr-*/; a
# preview: its pr-<number>/), and replaces the branch with one parentless commit, pushed with
# --force-with-lease naming the tip it fetched. The server refuses that push if the branch moved
# in between; the writer then starts again from the new tip, a bounded number of times. The branch
# holds one commit: what is published now, nothing older.
#
# Environment:
#   PAGES_REMOTE         the repository (default: $GITHUB_SERVER_URL/$GITHUB_REPOSITORY.git)
#   PAGES_BRANCH         the branch (default: gh-pages)
#   GH_TOKEN             when set, sent to $GITHUB_SERVER_URL with each git request
#   PAGES_ATTEMPTS       how many times to try (default: 5)
#   PAGES_RETRY_SECONDS  the base delay between attempts, grown each time (default: 3)
set -euo pipefail

pages_log() {
    printf '%s\n' "$*" >&2
}

pages_fail() {
    printf '::error::%s\n' "$*" >&2
    exit 1
}

# A folder holding only regular files and folders, none named .git: nothing that points outside
# it, nothing git would take for another repository.
pages_check_plain() {
    local folder=$1 odd
    [ -d "$folder" ] && [ ! -L "$folder" ] || pages_fail "$folder is not a folder"
    odd=$(find "$folder" -mindepth 1 \( \( ! -type f ! -type d \) -o -name .git \) -print -quit)
    [ -z "$odd" ] || pages_fail "$folder holds ${odd#"$folder"/}, which is not a plain file or folder"
}

# pages_update MESSAGE COMMAND [ARGS...]: runs COMMAND in a fresh checkout of the branch tip
# (an empty folder when the branch does not exist yet), then pushes the result if it differs.
# COMMAND failing stops everything; a refused push starts again. Prints changed=true|false.
pages_update() {
    local message=$1
    shift
    local remote=${PAGES_REMOTE:-${GITHUB_SERVER_URL:-https://github.com}/${GITHUB_REPOSITORY:?}.git}
    local branch=${PAGES_BRANCH:-gh-pages}
    local attempts=${PAGES_ATTEMPTS:-5} delay=${PAGES_RETRY_SECONDS:-3}
    local work attempt repo listing lease tree commit
    work=$(mktemp -d)
    # shellcheck disable=SC2064 # expand now: $work is local to this function
    trap "rm -rf '$work'" EXIT

    for ((attempt = 1; attempt <= attempts; attempt++)); do
        if ((attempt > 1)); then
            sleep $((delay * (attempt - 1) + RANDOM % (delay + 1)))
        fi
        repo="$work/$attempt"
        git init -q "$repo"
        git -C "$repo" config core.autocrlf false
        git -C "$repo" config user.name "github-actions[bot]"
        git -C "$repo" config user.email "41898282+github-actions[bot]@users.noreply.github.com"
        if [ -n "${GH_TOKEN:-}" ]; then
            git -C "$repo" config "http.${GITHUB_SERVER_URL:-https://github.com}/.extraheader" \
                "AUTHORIZATION: basic $(printf 'x-access-token:%s' "$GH_TOKEN" | base64 -w0)"
        fi
        git -C "$repo" remote add origin "$remote"

        # The lease is the commit this attempt starts from; empty: the branch must not exist.
        if ! listing=$(git -C "$repo" ls-remote origin "refs/heads/$branch"); then
            pages_log "attempt $attempt: cannot read $branch"
            continue
        fi
        lease=""
        if [ -n "$listing" ]; then
            if ! git -C "$repo" fetch -q --no-tags --depth 1 origin "+refs/heads/$branch:refs/pages/tip"; then
                pages_log "attempt $attempt: cannot fetch $branch"
                continue
            fi
            lease=$(git -C "$repo" rev-parse refs/pages/tip)
            git -C "$repo" checkout -q --detach refs/pages/tip
        fi

        # Not inside `if` or `||`: there `set -e` would be off for COMMAND.
        (
            cd "$repo"
            "$@"
        )

        # -f: a .gitignore anywhere (or the runner's global one) must not leave files out.
        git -C "$repo" add -A -f
        tree=$(git -C "$repo" write-tree)
        if [ -n "$lease" ] && [ "$tree" = "$(git -C "$repo" rev-parse 'refs/pages/tip^{tree}')" ]; then
            pages_log "$branch already holds this"
            echo "changed=false"
            return 0
        fi
        commit=$(git -C "$repo" commit-tree "$tree" -m "$message")
        if git -C "$repo" push -q --force-with-lease="refs/heads/$branch:$lease" origin "$commit:refs/heads/$branch"; then
            pages_log "$branch is now $commit: $message"
            echo "changed=true"
            return 0
        fi
        pages_log "attempt $attempt: $branch moved since it was fetched; starting again from its new tip"
    done
    pages_fail "could not update $branch in $attempts attempts"
}
