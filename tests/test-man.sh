#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# test-man.sh PAGE.1…: the manual pages render without a warning, and each documents
# every command and long option that its program's --help lists (resprobe-cli.1:
# every subcommand's options; resprobe.1: the application options). A new option
# fails here until it is described in data/man/.
set -uo pipefail

cli=${RESPROBE_CLI:?RESPROBE_CLI must point at the resprobe-cli binary}
gui=${RESPROBE_GUI:-}
if ! command -v man >/dev/null; then
  echo "FAIL: man is not installed (man-db): build-aux/install-deps.sh installs it"
  exit 1
fi

failures=0
fail () {
  echo "FAIL: $*"
  failures=$((failures + 1))
}

# Long options in a --help text, without GOption's own (--help, --help-all, …).
long_options () {
  grep -oE '(^|[ ,])--[a-z][a-z0-9-]*' | sed 's/^[ ,]*--//' |
    grep -vE '^(help|help-all|help-gapplication|gapplication-service)$' | sort -u
}

# Options are written \-\-name in troff.
documents () {
  grep -qF -- "\\-\\-$(echo "$2" | sed 's/-/\\-/g')" "$1"
}

for page in "$@"; do
  name=$(basename "$page")
  warnings=$(LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -E UTF-8 -l "$page" 2>&1 >/dev/null)
  [ -z "$warnings" ] || fail "$name renders with warnings: $warnings"
  rendered=$(LC_ALL=C.UTF-8 MANWIDTH=80 man -E UTF-8 -l "$page" 2>/dev/null | wc -l)
  [ "$rendered" -gt 40 ] || fail "$name renders to $rendered lines only"

  case "$name" in
    resprobe-cli.1)
      commands=$("$cli" --help | sed -n 's/^  \([a-z][a-z-]*\)  .*/\1/p')
      [ -n "$commands" ] || fail "resprobe-cli --help lists no command"
      for command in $commands; do
        grep -qE "^\\.(B|BI|BR|TP) \"?$command\b" "$page" ||
          fail "$name does not describe the command $command"
        for option in $("$cli" "$command" --help 2>/dev/null | long_options); do
          documents "$page" "$option" || fail "$name does not document resprobe-cli $command --$option"
        done
      done
      ;;
    resprobe.1)
      [ -n "$gui" ] || continue
      for option in $("$gui" --help 2>/dev/null | long_options); do
        documents "$page" "$option" || fail "$name does not document resprobe --$option"
      done
      ;;
  esac
  echo "checked $name"
done

[ "$failures" -eq 0 ] || { echo "$failures failures"; exit 1; }
