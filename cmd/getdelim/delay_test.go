package main

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// allButLastRecords is the plain definition: split into records (a
// final one without a delimiter counts) and drop the last n.
func allButLastRecords(data []byte, n uint64, delim byte) []byte {
	var starts []int
	for i := 0; i < len(data); {
		starts = append(starts, i)
		j := bytes.IndexByte(data[i:], delim)
		if j < 0 {
			break
		}
		i += j + 1
	}
	if uint64(len(starts)) <= n {
		return []byte{}
	}
	if n == 0 {
		return data
	}
	return data[:starts[uint64(len(starts))-n]]
}

// delayInputs are inputs with records of many shapes: empty ones, long
// ones, and none at all.
func delayInputs() map[string][]byte {
	r := rand.New(rand.NewPCG(1, 2))
	random := func(size int, alphabet string) []byte {
		b := make([]byte, size)
		for i := range b {
			b[i] = alphabet[r.IntN(len(alphabet))]
		}
		return b
	}
	return map[string][]byte{
		"empty":       nil,
		"one byte":    []byte("x"),
		"one newline": []byte("\n"),
		"newlines":    []byte("\n\n\n\n"),
		"no final":    []byte("a\nbb\nccc"),
		"short lines": random(3000, "ab\n"),
		"long lines":  random(200000, "abcdefghijklmnopqrstuvwxyz\n"),
		// Records longer than lineDelay's chunks, ending inside the next.
		"chunk-long":   append(bytes.Repeat([]byte("x"), 70000), '\n'),
		"chunk-long2":  append(append(bytes.Repeat([]byte("x"), 70000), '\n'), append(bytes.Repeat([]byte("y"), 140000), '\n')...),
		"no delimiter": random(150000, "xyz"),
		"dense":        random(100000, "\n\n\nq"),
	}
}

// feed pushes data through d in chunks of the given sizes, cycling.
func feed(d delay, data []byte, chunks []int) ([]byte, error) {
	var out bytes.Buffer
	emit := func(p []byte) error { out.Write(p); return nil }
	for i := 0; len(data) > 0; i++ {
		k := min(chunks[i%len(chunks)], len(data))
		if err := d.push(data[:k], emit); err != nil {
			return nil, err
		}
		data = data[k:]
	}
	if err := d.finish(emit); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

var delayChunkings = [][]int{{1}, {7, 1, 300}, {4096}, {65536}, {1 << 20}}

func TestByteDelay(t *testing.T) {
	for name, data := range delayInputs() {
		for _, n := range []int{1, 2, 5, 4095, 4096, 65536, 100000, 1 << 30} {
			for _, chunks := range delayChunkings {
				got, err := feed(&byteDelay{n: n}, data, chunks)
				want := data[:max(0, len(data)-n)]
				if err != nil || !bytes.Equal(got, want) {
					t.Errorf("%s, n=%d, chunks %v: got %d bytes (%v), want %d; first difference at %d",
						name, n, chunks, len(got), err, len(want), firstDifference(got, want))
				}
			}
		}
	}
}

func TestLineDelay(t *testing.T) {
	for name, data := range delayInputs() {
		for _, n := range []uint64{1, 2, 3, 10, 1000, 1 << 62} {
			for _, chunks := range delayChunkings {
				got, err := feed(&lineDelay{n: n, delim: '\n'}, data, chunks)
				want := allButLastRecords(data, n, '\n')
				if err != nil || !bytes.Equal(got, want) {
					t.Errorf("%s, n=%d, chunks %v: got %d bytes (%v), want %d; first difference at %d",
						name, n, chunks, len(got), err, len(want), firstDifference(got, want))
				}
			}
		}
	}
}

func TestRecordDelay(t *testing.T) {
	for name, data := range delayInputs() {
		for _, n := range []uint64{1, 2, 3, 1000, 1 << 62} {
			d := recordDelay{n: n}
			var out bytes.Buffer
			emit := func(p []byte) error { out.Write(p); return nil }
			var spare []byte
			for rest := data; len(rest) > 0; {
				k := bytes.IndexByte(rest, '\n') + 1
				if k == 0 {
					k = len(rest)
				}
				// A copy into the spare slice, as Getdelim fills it.
				record := append(spare[:0], rest[:k]...)
				rest = rest[k:]
				var err error
				if spare, err = d.push(record, emit); err != nil {
					t.Fatal(err)
				}
			}
			want := allButLastRecords(data, n, '\n')
			if diff := cmp.Diff(string(want), out.String()); diff != "" && len(want)+out.Len() < 1000 {
				t.Errorf("%s, n=%d (-want +got):\n%s", name, n, diff)
			} else if diff != "" {
				t.Errorf("%s, n=%d: got %d bytes, want %d", name, n, out.Len(), len(want))
			}
			if int(d.written) != len(want) {
				t.Errorf("%s, n=%d: written = %d, want %d", name, n, d.written, len(want))
			}
		}
	}
}

func TestLastRecordsStart(t *testing.T) {
	for name, data := range delayInputs() {
		for _, start := range []int{0, 1, 70000} {
			if start > len(data) {
				continue
			}
			for _, n := range []uint64{0, 1, 2, 3, 1000, 1 << 62} {
				t.Run(fmt.Sprintf("%s/start=%d/n=%d", name, start, n), func(t *testing.T) {
					got, err := lastRecordsStart(bytes.NewReader(data), int64(start), int64(len(data)), n, '\n')
					if err != nil {
						t.Fatal(err)
					}
					want := start + len(allButLastRecords(data[start:], n, '\n'))
					if got != int64(want) {
						t.Errorf("lastRecordsStart = %d, want %d", got, want)
					}
				})
			}
		}
	}
}

// firstDifference returns the first offset at which a and b differ.
func firstDifference(a, b []byte) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}
