#!/usr/bin/env bash
# Puts a built site on the pages branch: the main site at its root, or a pull request's preview
# in pr-<number>/. Only that writer's own files change (see pages-lib.sh for how writers that run
# at the same time keep each other's folders).
#
# Usage: pages-publish.sh root SITE       the main site: replaces everything but pr-<number>/
#        pages-publish.sh pr-NUMBER SITE  a preview: replaces pr-NUMBER/ only
#
# Nothing is published before pages-check.py has checked the whole tree: every file is one the
# build makes (a page, a data file made from recipes, main's code), every page carries the
# Content-Security-Policy first in its <head> and holds no inline script, and every script it
# loads is a .js file of the site under assets/. A preview must carry the live site's policy, and
# each of its scripts, styles, images and other files under assets/ (but the generated data) must
# be byte for byte the live site's. The preview's builder only runs main's code, so this holds
# anyway; checking it here means that even a subverted build publishes nothing: no JavaScript,
# style or image on the site's origin, and no page that would run a script of its own.
#
# With PAGES_PRUNE_CLOSED=true (main), previews of pull requests that are no longer open are
# removed too, in case their removal on closing failed; the open ones are listed (with gh) after
# fetching the tip, so a preview published meanwhile is never taken for a closed one.
# Prints changed=true|false.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)
# shellcheck source=pages-lib.sh source-path=SCRIPTDIR
. "$here/pages-lib.sh"

[ $# -eq 2 ] || pages_fail "usage: pages-publish.sh root|pr-NUMBER SITE"
target=$1
site=$(cd "$2" && pwd -P) || pages_fail "no folder $2"
pages_check_plain "$site"
[ -f "$site/index.html" ] || pages_fail "$site has no index.html: not a built site"

# The preview folders on the branch, which main never replaces.
is_preview() {
    [[ $1 =~ ^pr-[1-9][0-9]{0,8}$ ]]
}

publish_root() {
    local open="" entry name
    if [ "${PAGES_PRUNE_CLOSED:-false}" = true ]; then
        open=$(gh api --paginate "repos/${GITHUB_REPOSITORY:?}/pulls?state=open&per_page=100" --jq '.[].number')
    fi
    while IFS= read -r -d '' entry; do
        name=${entry#./}
        if is_preview "$name" && [ -d "$name" ] && [ ! -L "$name" ]; then
            if [ "${PAGES_PRUNE_CLOSED:-false}" != true ] || grep -qxF -- "${name#pr-}" <<<"$open"; then
                continue
            fi
            pages_log "removing $name/: its pull request is not open"
        fi
        rm -rf -- "$name"
    done < <(find . -mindepth 1 -maxdepth 1 ! -name .git -print0)
    cp -R "$site/." .
}

# Runs in the checkout of the branch's tip: the preview is checked against the live site there.
publish_preview() {
    python3 "$here/pages-check.py" "$target" "$site" .
    rm -rf -- "$target"
    mkdir "$target"
    cp -R "$site/." "$target/"
}

if [ "$target" = root ]; then
    python3 "$here/pages-check.py" root "$site"
    pages_update "Publish main at ${GITHUB_SHA:-$(date -u +%FT%TZ)}" publish_root
elif is_preview "$target"; then
    pages_update "Publish the preview of pull request #${target#pr-}" publish_preview
else
    pages_fail "the target must be root or pr-<number>, not ${target@Q}"
fi
