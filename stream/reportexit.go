package stream

// When the report at exit runs (report.go). A program that uses this
// package itself has no exit hooks to run it: Exit runs it. Under
// `stdiobuf build` this file's std twin (internal/stdseam/reportexit.go)
// runs it from the runtime's exit hooks instead, on every exit.

// atExitReport arranges for f, the report, to run at exit; here Exit
// calls exitReport instead.
func atExitReport(f func()) {}

// exitReport runs the report if it is on; Exit calls it.
func exitReport() {
	if reportOn {
		writeReport()
	}
}
