package stream

import (
	"bufio"
	"bytes"
	"io"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// TestGetdelimGrowth checks glibc's growth rule: a line with no room gets
// 120 bytes, then max(needed, 2*cap), and a loop that passes line[:0]
// back grows only for a longer record, also when a record is read in
// fragments because it is longer than the Reader's buffer.
func TestGetdelimGrowth(t *testing.T) {
	rec := func(n int) string { return strings.Repeat("r", n-1) + "\n" }
	tests := []struct {
		name    string
		size    int // the Reader's buffer
		line    []byte
		records []int // their lengths, delimiter included
		caps    []int // cap(line) after each
	}{
		{"from nil", 4096, nil, []int{5, 120, 121, 200, 241, 1000, 10}, []int{120, 120, 240, 240, 480, 1000, 1000}},
		{"from a small cap", 4096, make([]byte, 0, 100), []int{100, 101, 150}, []int{100, 200, 200}},
		{"from a large cap", 4096, make([]byte, 0, 500), []int{500, 501}, []int{500, 1000}},
		{"fragments of 16 bytes", 16, nil, []int{100, 300, 100}, []int{120, 480, 480}},
		{"a fragment larger than twice the cap", 1024, nil, []int{1000}, []int{1000}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var in strings.Builder
			for _, n := range tt.records {
				in.WriteString(rec(n))
			}
			r := NewReaderSize(strings.NewReader(in.String()), tt.size)
			line := tt.line
			var caps []int
			for i, n := range tt.records {
				var err error
				line, err = r.Getdelim(line[:0], '\n')
				if err != nil || string(line) != rec(n) {
					t.Fatalf("record %d: got %d bytes, %v; want %d bytes, nil", i, len(line), err, n)
				}
				caps = append(caps, cap(line))
			}
			if diff := cmp.Diff(tt.caps, caps); diff != "" {
				t.Errorf("cap(line) after each record (-want +got):\n%s", diff)
			}
		})
	}
}

// TestGetdelimAppends checks that Getdelim appends to what line holds and
// grows it by the same rule.
func TestGetdelimAppends(t *testing.T) {
	r := NewReader(strings.NewReader("rec\nord\n"))
	line := []byte("pre:")
	line, err := r.Getdelim(line, '\n')
	if string(line) != "pre:rec\n" || err != nil || cap(line) != 120 {
		t.Fatalf("Getdelim(%q) = %q (cap %d), %v; want %q (cap 120), nil", "pre:", line, cap(line), err, "pre:rec\n")
	}
	line, err = r.Getline(line)
	if string(line) != "pre:rec\nord\n" || err != nil {
		t.Fatalf("Getline = %q, %v; want %q, nil", line, err, "pre:rec\nord\n")
	}
}

// TestGetdelimAllocs checks that a loop that reuses its line allocates
// only for a record longer than the line's capacity.
func TestGetdelimAllocs(t *testing.T) {
	tests := []struct {
		name  string
		input string
		want  float64
	}{
		{"records that fit", strings.Repeat("a short record\n", 50), 0},
		{"one longer record", "short\n" + strings.Repeat("x", 200) + "\nshort\n", 1},
		{"records longer than the buffer, that fit", strings.Repeat(strings.Repeat("y", 100)+"\n", 10), 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := NewReaderSize(&cycleReader{s: tt.input}, 16)
			start := make([]byte, 0, 120)
			records := strings.Count(tt.input, "\n")
			allocs := testing.AllocsPerRun(20, func() {
				line := start
				for range records {
					var err error
					if line, err = r.Getline(line[:0]); err != nil {
						t.Fatal(err)
					}
				}
			})
			if allocs != tt.want {
				t.Errorf("%v allocations per run, want %v", allocs, tt.want)
			}
		})
	}
}

// cycleReader reads s over and over.
type cycleReader struct {
	s string
	i int
}

func (c *cycleReader) Read(p []byte) (int, error) {
	n := 0
	for n < len(p) {
		m := copy(p[n:], c.s[c.i:])
		n += m
		c.i = (c.i + m) % len(c.s)
	}
	return n, nil
}

// TestGetdelimEnd checks the end of the input: a final record without a
// delimiter comes with io.EOF, and then, as on an empty input, line comes
// back unchanged with io.EOF.
func TestGetdelimEnd(t *testing.T) {
	r := NewReader(strings.NewReader("a,b"))
	var got []string
	var errs []error
	line := []byte("keep")
	for range 4 {
		l, err := r.Getdelim(line[:0], ',')
		got, errs = append(got, string(l)), append(errs, err)
		line = l
	}
	if diff := cmp.Diff([]string{"a,", "b", "", ""}, got); diff != "" {
		t.Errorf("records (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]error{nil, io.EOF, io.EOF, io.EOF}, errs, cmpopts.EquateErrors()); diff != "" {
		t.Errorf("errors (-want +got):\n%s", diff)
	}

	for _, line := range [][]byte{nil, {}, []byte("keep")} {
		got, err := NewReader(strings.NewReader("")).Getdelim(line, '\n')
		if err != io.EOF || len(got) != len(line) || (got == nil) != (line == nil) || cap(got) > 0 && &got[:1][0] != &line[:1][0] {
			t.Errorf("Getdelim(%q) on empty input = %q, %v; want the same slice, io.EOF", line, got, err)
		}
	}
}

// TestDiffGetdelim compares Getdelim and Getline with bufio's ReadBytes on
// random input over fault-injecting readers, interleaved with the
// operations whose state Getdelim shares (UnreadByte, ReadByte, Peek).
//
// Getdelim reads whole buffers where ReadBytes slides a partial record to
// the front and reads into the rest, so their reads differ; the faults are
// therefore those at fixed offsets (errors, EOFs), whose results do not
// depend on how the input is read, and not (0, nil) reads.
func TestDiffGetdelim(t *testing.T) {
	type result struct {
		Op  string
		S   string
		Err error
	}
	for i := range uint64(*diffN) {
		seed := *diffSeed + i
		rng := rand.New(rand.NewPCG(seed, seed))
		data := randomData(rng, rng.IntN(3000))
		faults := newFaultReader(data)
		for range rng.IntN(3) {
			faults.steps = append(faults.steps, []int{1, 3, 7, 16, 100}[rng.IntN(5)])
		}
		if rng.IntN(2) == 0 {
			faults.errAt, faults.transient = rng.IntN(len(data)+1), rng.IntN(2) == 0
		}
		faults.withData = rng.IntN(2) == 0
		for range rng.IntN(3) {
			faults.eofs = append(faults.eofs, rng.IntN(len(data)+1))
		}
		sizes := []int{16, 17, 64, 4096}
		size := sizes[rng.IntN(len(sizes))]
		ops := make([]int, 40)
		for i := range ops {
			ops[i] = rng.IntN(8)
		}
		run := func(getdelim func(r bufReader, delim byte) ([]byte, error), api pkgAPI) (res []result) {
			src := *faults
			src.steps, src.eofs = slices.Clone(faults.steps), slices.Clone(faults.eofs)
			r := api.newReaderSize(&src, size)
			for _, op := range ops {
				var e result
				switch op {
				case 0, 1, 2:
					e.Op = "Getdelim('\\n')"
					var b []byte
					b, e.Err = getdelim(r, '\n')
					e.S = string(b)
				case 3:
					e.Op = "Getdelim(' ')"
					var b []byte
					b, e.Err = getdelim(r, ' ')
					e.S = string(b)
				case 4:
					e.Op, e.Err = "UnreadByte", r.UnreadByte()
				case 5:
					e.Op = "ReadByte"
					var c byte
					c, e.Err = r.ReadByte()
					e.S = string(c)
				case 6:
					e.Op, e.Err = "UnreadRune", r.UnreadRune()
				case 7:
					e.Op = "Peek(2)"
					var b []byte
					b, e.Err = r.Peek(2)
					e.S = string(b)
				}
				res = append(res, e)
			}
			return res
		}
		want := run(func(r bufReader, delim byte) ([]byte, error) { return r.ReadBytes(delim) }, bufioAPI)
		var line []byte
		got := run(func(r bufReader, delim byte) (b []byte, err error) {
			// Getline or Getdelim('\n'), as the last record's length says.
			if delim == '\n' && len(line)%2 == 0 {
				line, err = r.(*Reader).Getline(line[:0])
			} else {
				line, err = r.(*Reader).Getdelim(line[:0], delim)
			}
			return line, err
		}, streamAPI)
		if diff := cmp.Diff(want, got, cmpopts.EquateErrors()); diff != "" {
			t.Fatalf("seed %d (-bufio ReadBytes +stream Getdelim):\n%s", seed, diff)
		}
	}
}

// TestGetdelimAfterError checks that Getdelim returns the data before a
// read error with the error, and that the Reader then goes on, as bufio.
func TestGetdelimAfterError(t *testing.T) {
	data := []byte("one\ntwo\nthree\n")
	for _, transient := range []bool{false, true} {
		src := func() io.Reader {
			fr := newFaultReader(data)
			fr.errAt, fr.transient = 6, transient
			return fr
		}
		r, br := NewReaderSize(src(), 16), bufio.NewReaderSize(src(), 16)
		var line []byte
		for i := range 5 {
			var err error
			line, err = r.Getline(line[:0])
			want, wantErr := br.ReadBytes('\n')
			if !bytes.Equal(line, want) || err != wantErr {
				t.Errorf("transient %v, call %d: Getline = %q, %v; ReadBytes = %q, %v", transient, i, line, err, want, wantErr)
			}
		}
	}
}
