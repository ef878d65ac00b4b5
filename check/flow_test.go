package check

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestDistinctOrigins checks that copies of one origin merge into the one
// of higher rank, that origins reaching different writes stay apart, and
// that no expression holds more than maxOrigins.
func TestDistinctOrigins(t *testing.T) {
	file := target{param: -1, file: "os.Stdout", stdout: true}
	gob := Trail{What: "gob.Encoder.Encode", At: "a.go:1"}
	csv := Trail{What: "csv.Writer.Flush", At: "a.go:2", Flush: true}
	many := make([]origin, 0, 2*maxOrigins)
	for i := range 2 * maxOrigins {
		many = append(many, origin{path: fmt.Sprint("f", i), t: file})
	}
	tests := []struct {
		name string
		in   []origin
		want []origin
	}{
		{"empty", nil, nil},
		{"copies",
			[]origin{{t: file, trail: gob}, {t: file, trail: gob}, {t: file, trail: gob, loop: true}},
			[]origin{{t: file, trail: gob, loop: true}}},
		{"two writes",
			[]origin{{t: file, trail: gob}, {t: file, trail: csv}, {t: file, trail: gob}},
			[]origin{{t: file, trail: gob}, {t: file, trail: csv}}},
		{"places", []origin{{path: "w", t: file}, {t: file}}, []origin{{path: "w", t: file}, {t: file}}},
		{"bounded", many, many[:maxOrigins]},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := distinctOrigins(tt.in)
			if diff := cmp.Diff(tt.want, got, cmp.AllowUnexported(origin{}, target{})); diff != "" {
				t.Errorf("distinctOrigins (-want +got):\n%s", diff)
			}
		})
	}
}

// TestJoinPathBound checks that a field path longer than maxPathFields
// becomes deepPath, which no field reaches.
func TestJoinPathBound(t *testing.T) {
	tests := []struct{ a, b, want string }{
		{"", "w", "w"},
		{"a", "", "a"},
		{"a", "b.c", "a.b.c"},
		{"a.b", "c.d", "a.b.c.d"},
		{"a.b.c", "d.e", deepPath},
		{"next.next.next.next", "next", deepPath},
		{deepPath, "w", deepPath},
	}
	for _, tt := range tests {
		if got := joinPath(tt.a, tt.b); got != tt.want {
			t.Errorf("joinPath(%q, %q) = %q, want %q", tt.a, tt.b, got, tt.want)
		}
	}
	if _, ok := cutPath(deepPath, deepPath); ok {
		t.Errorf("cutPath(deepPath, deepPath) matched: two deep paths are not one")
	}
	if rest, ok := cutPath(deepPath, ""); !ok || rest != deepPath {
		t.Errorf("cutPath(deepPath, \"\") = %q, %v; want deepPath, true", rest, ok)
	}
}

// TestMergeTrailsBound checks that a summary keeps apart the writes of
// one sink up to maxTrails, merges the rest into the first, and holds at
// most maxSummary entries whatever the number of sinks.
func TestMergeTrailsBound(t *testing.T) {
	add := func(sinks []Sink) []Sink {
		var list []Sink
		for _, s := range sinks {
			list, _ = mergeTrails(list, s, func(a Sink) bool {
				return a.Param == s.Param && a.Path == s.Path && a.File == s.File
			}, func(a Sink) Trail { return a.Trail }, func(a Sink) int { return rank(a.Loop, a.Trail) })
		}
		return list
	}
	var oneSink, manySinks []Sink
	for i := range 2 * maxTrails {
		oneSink = append(oneSink, Sink{Param: 0, Trail: Trail{What: "fmt.Fprintf", At: fmt.Sprint("a.go:", i)}})
	}
	for i := range 4 * maxSummary {
		manySinks = append(manySinks, Sink{Param: 0, Path: fmt.Sprint("f", i), Trail: Trail{What: "fmt.Fprintf", At: "a.go:1"}})
	}
	tests := []struct {
		name  string
		sinks []Sink
		want  int
	}{
		{"one write twice", []Sink{oneSink[0], oneSink[0]}, 1},
		{"writes of one sink", oneSink, maxTrails},
		{"many sinks", manySinks, maxSummary},
	}
	for _, tt := range tests {
		if got := len(add(tt.sinks)); got != tt.want {
			t.Errorf("%s: %d entries, want %d", tt.name, got, tt.want)
		}
	}
}
