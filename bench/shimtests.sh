#!/usr/bin/env bash
# shimtests.sh runs the third-party tools' wider test sets
# (internal/shimtools: every u-root text command's tests besides gojq's
# and go-junit-report's whole suites) under `go test` and `stdiobuf test`,
# compared test by test, and their reads traced on an XFS loop mount. CI
# runs the smaller set (STDIOBUF_THIRDPARTY=1); this runs
# STDIOBUF_THIRDPARTY=all. Needs the Go module proxy; the XFS part needs
# root, mkfs.xfs and strace.
#
# Usage: bench/shimtests.sh   (exit status: go test's)
set -euo pipefail
cd "$(dirname "$0")/.."
STDIOBUF_THIRDPARTY=all go test -count=1 -v -timeout 60m -run '^TestThirdParty' ./internal/shimtools/
