package stream

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// methodSet maps each method of t to its signature without the receiver,
// leaving out the names in skip.
func methodSet(t reflect.Type, skip ...string) map[string]string {
	m := map[string]string{}
	for i := range t.NumMethod() {
		meth := t.Method(i)
		if slices.Contains(skip, meth.Name) {
			continue
		}
		ft := meth.Type // func(receiver, args...) results
		var in, out []string
		for j := 1; j < ft.NumIn(); j++ {
			in = append(in, ft.In(j).String())
		}
		for j := range ft.NumOut() {
			out = append(out, ft.Out(j).String())
		}
		m[meth.Name] = "(" + strings.Join(in, ", ") + ") (" + strings.Join(out, ", ") + ")"
	}
	return m
}

// TestLockedMethodSets: a locked view has every method of the stream it
// locks, with the same signature, and only Lock and Unlock besides; so it
// satisfies every io and fmt interface the stream does.
func TestLockedMethodSets(t *testing.T) {
	tests := []struct {
		stream, locked reflect.Type
	}{
		{reflect.TypeFor[*Reader](), reflect.TypeFor[*LockedReader]()},
		{reflect.TypeFor[*Writer](), reflect.TypeFor[*LockedWriter]()},
	}
	for _, tt := range tests {
		want := methodSet(tt.stream)
		got := methodSet(tt.locked, "Lock", "Unlock")
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("methods of %v against %v (-want +got):\n%s", tt.locked, tt.stream, diff)
		}
	}
}

// TestLockedInterfaces names the io and fmt interfaces the standard
// streams must satisfy, the ones a program passes them to.
func TestLockedInterfaces(t *testing.T) {
	var _ interface {
		io.Reader
		io.RuneScanner
		io.ByteScanner
		io.WriterTo
	} = Stdin
	var _ interface {
		io.Writer
		io.StringWriter
		io.ByteWriter
		io.ReaderFrom
	} = Stdout
}

// TestLockedReaderFscan is the report's repro: fmt.Fscan puts back the
// rune that ends a token, so "12ab" read as a number then a word gives 12
// and "ab", through a LockedReader over a pipe as through bufio.
func TestLockedReaderFscan(t *testing.T) {
	scan := func(rd io.Reader) string {
		var n int
		var s string
		_, err1 := fmt.Fscan(rd, &n)
		_, err2 := fmt.Fscan(rd, &s)
		return fmt.Sprint(n, " ", s, " ", err1, " ", err2)
	}
	pipe := func(input string) *os.File {
		pr, pw, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { pr.Close() })
		go func() {
			pw.WriteString(input)
			pw.Close()
		}()
		return pr
	}
	const input = "12ab\n"
	want := scan(bufio.NewReader(pipe(input)))
	got := scan(&LockedReader{r: NewReader(pipe(input))})
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("fmt.Fscan twice on %q: LockedReader against bufio (-want +got):\n%s", input, diff)
	}
	if want != "12 ab <nil> <nil>" {
		t.Errorf("bufio gave %q", want)
	}
}
