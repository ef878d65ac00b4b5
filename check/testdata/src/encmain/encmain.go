// Package encmain is vegeta's encode command: the output is standard
// output or a file it creates, never standard input, which the file
// function also returns for reading.
package encmain

import (
	"enclib"
	"io"
	"os"
)

func file(name string, create bool) (*os.File, error) {
	switch name {
	case "stdin":
		return os.Stdin, nil
	case "stdout":
		return os.Stdout, nil
	default:
		if create {
			return os.Create(name)
		}
		return os.Open(name)
	}
}

// Encode reads records and writes them in the encoding to.
func Encode(next func(*enclib.Result) error, to, output string) error { // want Encode:`sink\(0 call=true loop=true\)`
	out, err := file(output, true)
	if err != nil {
		return err
	}
	defer out.Close()

	var enc enclib.Encoder
	switch to {
	case "csv":
		enc = enclib.NewCSVEncoder(out)
	case "gob":
		enc = enclib.NewEncoder(out)
	case "json":
		enc = enclib.NewJSONEncoder(out)
	}
	for {
		var r enclib.Result
		if err = next(&r); err != nil {
			if err == io.EOF {
				break
			}
			return err
		} else if err = enc.Encode(&r); err != nil { // want `^per-record Flush of a buffer over os.Stdout or a file from os.Create via \(enclib.Encoder\).Encode\(enc\) -> enclib.NewCSVEncoder\(w\): csv.Writer.Flush \(enclib.go:36\) writes once per record, which no stdiobuf build flag changes; flush once after the loop$` `^per-record write to os.Stdout or a file from os.Create via \(enclib.Encoder\).Encode\(enc\) -> enclib.NewEncoder\(r\): gob.Encoder.Encode \(enclib.go:26\) makes one system call per record \(as do net.Buffers.WriteTo \(jbuf.go:26\)\); .*, or build with stdiobuf build -files$`
			return err
		}
	}
	return nil
}

// Stdout writes only to standard output: -stdout changes it.
func Stdout(rs []enclib.Result) {
	enc := enclib.NewEncoder(os.Stdout)
	for i := range rs {
		enc.Encode(&rs[i]) // want `^per-record write to os.Stdout via .*: gob.Encoder.Encode \(enclib.go:26\) .*, or build with stdiobuf build -stdout$`
	}
}

// Reads never writes to standard input.
func Reads(rs []enclib.Result) {
	enc := enclib.NewEncoder(os.Stdin)
	for i := range rs {
		enc.Encode(&rs[i])
	}
}

// process encodes each record with the Encoder it is given, as vegeta's
// attack command does: the Encoder's writes are its caller's.
func process(enc enclib.Encoder, rs []enclib.Result) error {
	for i := range rs {
		if err := enc.Encode(&rs[i]); err != nil {
			return err
		}
	}
	return nil
}

// Attack makes a gob Encoder over its output and gives it to process.
func Attack(rs []enclib.Result, output string) error {
	out, err := file(output, true)
	if err != nil {
		return err
	}
	defer out.Close()
	enc := enclib.NewEncoder(out)
	return process(enc, rs) // want `^per-record write to os.Stdout or a file from os.Create via process\(enc\) -> enclib.NewEncoder\(r\): gob.Encoder.Encode \(enclib.go:26\) makes one system call per record; .*, or build with stdiobuf build -files$`
}
