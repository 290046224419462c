#!/usr/bin/env bash
# Puts a built site on the pages branch: the main site at its root, or a pull request's preview
# in pr-<number>/. Only that writer's own files change (see pages-lib.sh for how writers that run
# at the same time keep each other's folders).
#
# Usage: pages-publish.sh root SITE       the main site: replaces everything but pr-<number>/
#        pages-publish.sh pr-NUMBER SITE  a preview: replaces pr-NUMBER/ only
#
# A preview brings no asset of its own: every file other than the pages and data documents the
# build generates from recipes (.html .json .xml .xml.gz .csv .yaml .sh .txt) must be byte for byte
# the file the live site serves at the same path, at the root of the branch. The preview's
# builder only runs main's code, so this holds anyway; checking it here means that even a
# subverted build cannot publish JavaScript, styles or images on the site's origin.
#
# With PAGES_PRUNE_CLOSED=true (main), previews of pull requests that are no longer open are
# removed too, in case their removal on closing failed; the open ones are listed (with gh) after
# fetching the tip, so a preview published meanwhile is never taken for a closed one.
# Prints changed=true|false.
set -euo pipefail
# shellcheck source=pages-lib.sh source-path=SCRIPTDIR
. "$(dirname "${BASH_SOURCE[0]}")/pages-lib.sh"

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

# Every file of the preview that is not a generated document, compared with the live site's.
check_assets() {
    local file relative unknown=0
    while IFS= read -r -d '' file; do
        relative=${file#"$site"/}
        case "$relative" in
            *.html | *.json | *.xml | *.xml.gz | *.csv | *.yaml | *.sh | *.txt) continue ;;
        esac
        if [ -f "$relative" ] && [ ! -L "$relative" ] && cmp -s -- "$file" "$relative"; then
            continue
        fi
        if ((unknown < 10)); then
            pages_log "not on the live site as built: $relative"
        fi
        unknown=$((unknown + 1))
    done < <(find "$site" -type f -print0)
    if ((unknown > 0)); then
        pages_fail "the preview holds $unknown asset(s) the live site does not serve byte for byte;" \
            "a preview brings no code of its own. (If main's assets changed since its last" \
            "deployment, run this again once main is deployed.)"
    fi
}

publish_preview() {
    check_assets
    rm -rf -- "$target"
    mkdir "$target"
    cp -R "$site/." "$target/"
}

if [ "$target" = root ]; then
    odd=$(find "$site" -mindepth 1 -maxdepth 1 -name 'pr-*' -print -quit)
    [ -z "$odd" ] || pages_fail "the site holds ${odd#"$site"/}: pr-* at the root is where previews go"
    pages_update "Publish main at ${GITHUB_SHA:-$(date -u +%FT%TZ)}" publish_root
elif is_preview "$target"; then
    odd=$(find "$site" -mindepth 1 -name '.*' -print -quit)
    [ -z "$odd" ] || pages_fail "the preview holds ${odd#"$site"/}: hidden files are not published"
    pages_update "Publish the preview of pull request #${target#pr-}" publish_preview
else
    pages_fail "the target must be root or pr-<number>, not ${target@Q}"
fi
