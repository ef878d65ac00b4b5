//go:build !windows

// The report's side (report.go) for every system but Windows.

package stream

// reportWhat gives the report's kind and path for u from the kind its
// fstat gave and the path /proc or its Name gave: /dev/null, a character
// device that is no terminal, is kind null.
func reportWhat(u any, kind, path string) (string, string) {
	if kind == "device" && path == "/dev/null" {
		kind = "null"
	}
	return kind, path
}
