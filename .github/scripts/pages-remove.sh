#!/usr/bin/env bash
# Removes the preview of pull request NUMBER (pr-NUMBER/) from the pages branch, leaving the main
# site and every other preview as they are (see pages-lib.sh).
#
# Usage: pages-remove.sh NUMBER
# Prints changed=true|false (false: there was no such preview).
set -euo pipefail
# shellcheck source=pages-lib.sh source-path=SCRIPTDIR
. "$(dirname "${BASH_SOURCE[0]}")/pages-lib.sh"

[ $# -eq 1 ] || pages_fail "usage: pages-remove.sh NUMBER"
number=$1
[[ $number =~ ^[1-9][0-9]{0,8}$ ]] || pages_fail "${number@Q} is not a pull request number"

remove_preview() {
    rm -rf -- "pr-$number"
}

pages_update "Remove the preview of pull request #$number" remove_preview
