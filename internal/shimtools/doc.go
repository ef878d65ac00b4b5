// Package shimtools proves `stdiobuf build` on real third-party programs:
// it fetches pinned releases of well-known line-oriented Go tools through
// the Go module proxy, builds them unmodified with `go build` and with
// `stdiobuf build`, compares their own test suites run both ways, and
// traces the read(2) and write(2) calls each build makes. Its tests
// (thirdparty_test.go) and bench/shimbench use it.
//
// Nothing here vendors third-party code: a tool's source is downloaded into
// the module cache and copied into a writable folder when a test or a
// benchmark runs.
package shimtools
