#!/usr/bin/env bash
# The race detector over the packages that run work concurrently: the
# library's shared Pipeline, the parser's pooled scratch, the phase
# manager's scratch contexts and the CLI.
set -euo pipefail
go test -race -short . ./ir/ptx ./phases ./cmd/ptxopt
