#!/usr/bin/env bash
# Liveness against the map-based reference on EVERY corpus function,
# however large (the default test run caps the size to stay quick).
set -euo pipefail
PTXOPT_FULL_CORPUS=1 go test -count=1 -timeout 20m ./core -run '^TestCorpusLiveness$' -v 2>&1 | grep -E '^(---|ok|FAIL|PASS)|functions from'
