//go:build stdiobuf_std

package bufio

import "internal/runtime/exithook"

// atExitReport arranges for f, the report at exit (report.go), to run on
// every exit that runs the runtime's exit hooks: return from main and
// os.Exit with any status. Hooks run last registered first, and this
// package registers while it initialises, before package os and every
// package that imports it: the report runs after their exit hooks
// (-stdout's and -files's flushes among them), when the counts are
// final.
func atExitReport(f func()) {
	exithook.Add(exithook.Hook{F: f, RunOnFailure: true})
}

// exitReport does nothing here: the exit hook runs the report.
func exitReport() {}
