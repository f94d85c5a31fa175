#!/usr/bin/env bash
# console-screenshots.sh — retakes the screenshots of docs/console.md from a
# running s2r: internal/tests/browser's TestScreenshots builds s2r, starts
# it with a demo service, a SOAP backend and some traffic, drives headless
# chromium through the screens and writes small PNGs to docs/console/;
# TestDemoWalk adds those of the services of `s2r demo`.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/browser-deps.sh
go test -count=1 -run '^(TestScreenshots|TestDemoWalk)$' ./internal/tests/browser -args -screenshots="$PWD/docs/console"
ls -l docs/console
