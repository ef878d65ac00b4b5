//go:build linux

package main

import (
	"bytes"
	"encoding/binary"
	"encoding/gob"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
)

// stdinKind is what a program's standard input is.
type stdinKind int

const (
	stdinNone stdinKind = iota // /dev/null
	stdinFile                  // the input file itself
	stdinPipe                  // a pipe the runner copies the input file into
)

// idiom is one row of the matrix: a program (in plain/, bufio/ and c/,
// each where it exists) run on one kind of input.
type idiom struct {
	name   string    // the row's name, unique
	prog   string    // the program's folder in plain/ and bufio/, and c/<prog>.c
	what   string    // the idiom in words, for the table
	unit   string    // what one record is
	input  string    // "ints" or "recs": the data file it reads, or "" if none
	stdin  stdinKind // how the input reaches it when on standard input
	writes bool      // writes the file named by its last argument
	stdout bool      // prints its result on standard output
	target string    // issue 22's target for -files's CPU time, "" if none
	// scale multiplies the records it runs on (0 is 1): the programs that
	// already buffer are fast, and their target is a few percent of their
	// time, which the runtime's start-up would otherwise be most of.
	scale int
}

// times returns the records the idiom runs on when asked for n.
func (id idiom) times(n int) int {
	return n * max(id.scale, 1)
}

// idioms are the rows, in the tables' order.
var idioms = []idiom{
	{name: "fprintf", prog: "fprintf", what: "fmt.Fprintf loop to a file from os.Create", unit: "line", writes: true, target: "2.0x C"},
	{name: "log", prog: "log", what: "log.Printf with log.SetOutput(file)", unit: "line", writes: true, target: "1.6x C"},
	{name: "scan-file", prog: "scan", what: "fmt.Scan of integers, stdin a file", unit: "integer", input: "ints", stdin: stdinFile, stdout: true, target: "5.0x C"},
	{name: "scan-pipe", prog: "scan", what: "fmt.Scan of integers, stdin a pipe", unit: "integer", input: "ints", stdin: stdinPipe, stdout: true, target: "5.0x C"},
	{name: "fscan", prog: "fscan", what: "fmt.Fscan on an os.Open'd file", unit: "integer", input: "ints", stdout: true, target: "5.0x C"},
	{name: "binread", prog: "binread", what: "binary.Read of 16-byte records from a file", unit: "record", input: "recs", stdout: true, target: "5.0x C"},
	{name: "bytereads", prog: "bytereads", what: "os.Stdin.Read of one byte at a time", unit: "byte", input: "ints", stdin: stdinFile, stdout: true, target: "2.0x C"},
	{name: "gob", prog: "gob", what: "gob Encoder, Encode per record to a file", unit: "record", writes: true},
	{name: "json", prog: "json", what: "json Encoder, Encode per record to a file", unit: "record", writes: true},
	{name: "bufiofiles", prog: "bufiofiles", what: "already buffers: bufio Scanner and Writer over the files", unit: "line", input: "ints", writes: true, stdout: true, target: "1.03x plain", scale: 10},
	{name: "blocks", prog: "blocks", what: "already buffers: 128 KiB Read and Write calls", unit: "line", input: "ints", writes: true, stdout: true, target: "1.03x plain", scale: 50},
}

// dataset is the input of one size and what each program must make of it.
type dataset struct {
	n    int    // records: integers in ints, 16-byte records in recs
	ints string // the path of the integers, one a line
	recs string // the path of the 16-byte records
	intv []int64
	recv [][2]int64
	text []byte // the contents of ints
	// wants caches want's answers by program.
	wants map[string]wanted
}

// wanted is what one program must print and write.
type wanted struct {
	stdout string
	file   []byte
}

// wantCached returns want(id), computing it once per program.
func (d *dataset) wantCached(id idiom) (stdout string, file []byte) {
	if d.wants == nil {
		d.wants = map[string]wanted{}
	}
	w, ok := d.wants[id.prog]
	if !ok {
		w.stdout, w.file = d.want(id)
		d.wants[id.prog] = w
	}
	return w.stdout, w.file
}

// makeDataset writes n integers and n records into dir, named after n,
// from a fixed seed: the same n always gives the same files. The integers
// are below 10^6, so that a line is 6.89 bytes on average.
func makeDataset(dir string, n int) (*dataset, error) {
	d := &dataset{
		n:    n,
		ints: filepath.Join(dir, fmt.Sprintf("ints-%d.txt", n)),
		recs: filepath.Join(dir, fmt.Sprintf("recs-%d.bin", n)),
	}
	rng := rand.New(rand.NewPCG(22, uint64(n)))
	var text, recs bytes.Buffer
	for i := range n {
		x := rng.Int64N(1_000_000)
		d.intv = append(d.intv, x)
		fmt.Fprintf(&text, "%d\n", x)
		r := [2]int64{int64(i), rng.Int64N(1 << 40)}
		d.recv = append(d.recv, r)
		binary.Write(&recs, binary.LittleEndian, r)
	}
	d.text = text.Bytes()
	if err := os.WriteFile(d.ints, d.text, 0o644); err != nil {
		return nil, err
	}
	if err := os.WriteFile(d.recs, recs.Bytes(), 0o644); err != nil {
		return nil, err
	}
	return d, nil
}

// records returns how many records of the idiom's unit the dataset holds.
func (d *dataset) records(id idiom) int64 {
	if id.unit == "byte" {
		return int64(len(d.text))
	}
	return int64(d.n)
}

// args returns the idiom's program arguments, out being the file it
// writes.
func (d *dataset) args(id idiom, out string) []string {
	var args []string
	if id.writes && id.input == "" {
		args = append(args, fmt.Sprint(d.n))
	}
	if id.input != "" && id.stdin == stdinNone {
		args = append(args, d.path(id))
	}
	if id.writes {
		args = append(args, out)
	}
	return args
}

// path returns the path of the idiom's input file.
func (d *dataset) path(id idiom) string {
	if id.input == "recs" {
		return d.recs
	}
	return d.ints
}

// Record is what the gob and json programs encode, with the same name and
// fields, so that gob's encoding of it is byte for byte theirs.
type Record struct {
	ID    int
	Name  string
	Value float64
}

// want returns what a correct run of the idiom prints on standard output
// and writes to its file.
func (d *dataset) want(id idiom) (stdout string, file []byte) {
	var sum int64
	for _, x := range d.intv {
		sum += x
	}
	var out bytes.Buffer
	switch id.prog {
	case "fprintf":
		for i := range d.n {
			fmt.Fprintf(&out, "%d\n", i)
		}
	case "log":
		for i := range d.n {
			fmt.Fprintf(&out, "2006/01/02 15:04:05 record %d of %d\n", i, d.n)
		}
	case "scan", "fscan":
		stdout = fmt.Sprintln(d.n, sum)
	case "binread":
		var a, b int64
		for _, r := range d.recv {
			a += r[0]
			b += r[1]
		}
		stdout = fmt.Sprintln(d.n, a, b)
	case "bytereads":
		stdout = fmt.Sprintln(len(d.text), d.n)
	case "gob":
		enc := gob.NewEncoder(&out)
		for i := range d.n {
			enc.Encode(Record{ID: i, Name: "item", Value: float64(i) + 0.5})
		}
	case "json":
		enc := json.NewEncoder(&out)
		for i := range d.n {
			enc.Encode(Record{ID: i, Name: "item", Value: float64(i) + 0.5})
		}
	case "bufiofiles":
		for _, x := range d.intv {
			fmt.Fprintf(&out, "%d\n", 2*x)
		}
		stdout = fmt.Sprintln(d.n, sum)
	case "blocks":
		out.Write(d.text)
		stdout = fmt.Sprintln(len(d.text))
	}
	if !id.writes {
		return stdout, nil
	}
	return stdout, out.Bytes()
}

// logStamp is the date and time log's default flags put before a line.
var logStamp = regexp.MustCompile(`(?m)^\d{4}/\d\d/\d\d \d\d:\d\d:\d\d `)

// checkOutput returns an error saying how a run's standard output or file
// differs from what the idiom must produce, or nil. Log lines are compared
// with their date and time replaced by log's reference time.
func checkOutput(id idiom, wantOut string, wantFile []byte, gotOut string, gotFile []byte) error {
	if gotOut != wantOut {
		return fmt.Errorf("printed %q, want %q", clip(gotOut), clip(wantOut))
	}
	if !id.writes {
		return nil
	}
	if id.prog == "log" {
		gotFile = logStamp.ReplaceAll(gotFile, []byte("2006/01/02 15:04:05 "))
	}
	if !bytes.Equal(gotFile, wantFile) {
		i := 0
		for i < len(gotFile) && i < len(wantFile) && gotFile[i] == wantFile[i] {
			i++
		}
		return fmt.Errorf("wrote %d bytes, want %d, first difference at byte %d", len(gotFile), len(wantFile), i)
	}
	return nil
}

// clip shortens s for a message.
func clip(s string) string {
	if len(s) > 80 {
		return s[:80] + "..."
	}
	return s
}
