package main

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// rootTime is the modification time the root case sets last.
var rootTime = time.Date(2001, 2, 3, 4, 5, 6, 0, time.UTC)

// The cases that reach FILE through an os.Root of its directory.
func init() {
	// A line written through a file created by Root.Create, then seen
	// through each path operation of the Root, of its FS, of os.DirFS
	// and OpenInRoot; last, a line, then Root.Chtimes.
	cases["root"] = func(path string, _ []string) {
		dir, name := filepath.Split(path)
		r := opened(os.OpenRoot(dir))
		f := opened(r.Create(name))
		rfs, dfs := r.FS(), os.DirFS(dir)
		for i, see := range []struct {
			what string
			get  func() (size int64, last string, err error)
		}{
			{"Root.Stat", func() (int64, string, error) { return statSize(r.Stat(name)) }},
			{"Root.Lstat", func() (int64, string, error) { return statSize(r.Lstat(name)) }},
			{"Root.FS Stat", func() (int64, string, error) { return statSize(fs.Stat(rfs, name)) }},
			{"DirFS Stat", func() (int64, string, error) { return statSize(fs.Stat(dfs, name)) }},
			{"Root.ReadFile", func() (int64, string, error) { return lastLine(r.ReadFile(name)) }},
			{"Root.Open", func() (int64, string, error) { return readToEnd(r.Open(name)) }},
			{"Root.FS ReadFile", func() (int64, string, error) { return lastLine(fs.ReadFile(rfs, name)) }},
			{"DirFS ReadFile", func() (int64, string, error) { return lastLine(fs.ReadFile(dfs, name)) }},
			{"OpenInRoot", func() (int64, string, error) { return readToEnd(os.OpenInRoot(dir, name)) }},
		} {
			fmt.Fprintf(f, "line %d through the root\n", i)
			size, last, err := see.get()
			fmt.Printf("%s: %d %q %v\n", see.what, size, last, err)
		}
		fmt.Fprintf(f, "the line before Chtimes\n")
		if err := r.Chtimes(name, rootTime, rootTime); err != nil {
			fmt.Println(err)
		}
	}
	// Writes a line to FILE.tmp through the Root, then moves it to FILE
	// with Root.Rename (ARGS[0] "rename") or Root.Link ("link") and
	// sleeps, saying nothing (reading standard input, a pipe, would
	// write the buffers out), until the test, which reads FILE as it
	// appears, kills it.
	cases["rootmove"] = func(path string, args []string) {
		dir, name := filepath.Split(path)
		r := opened(os.OpenRoot(dir))
		f := opened(r.Create(name + ".tmp"))
		fmt.Fprintf(f, "the line written before %s\n", args[0])
		var err error
		if args[0] == "link" {
			err = r.Link(name+".tmp", name)
		} else {
			err = r.Rename(name+".tmp", name)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		time.Sleep(time.Minute)
	}
	// The Fprintf loop to a file created by Root.Create.
	cases["rootfill"] = func(path string, _ []string) {
		dir, name := filepath.Split(path)
		fill(opened(opened(os.OpenRoot(dir)).Create(name)))
	}
}

// statSize returns fi's size.
func statSize(fi fs.FileInfo, err error) (int64, string, error) {
	if err != nil {
		return 0, "", err
	}
	return fi.Size(), "", nil
}

// lastLine returns b's size and its last line.
func lastLine(b []byte, err error) (int64, string, error) {
	s := strings.TrimSuffix(string(b), "\n")
	return int64(len(b)), s[strings.LastIndex(s, "\n")+1:], err
}

// readToEnd reads f to its end, closes it, and returns lastLine's.
func readToEnd(f *os.File, err error) (int64, string, error) {
	if err != nil {
		return 0, "", err
	}
	defer f.Close()
	return lastLine(io.ReadAll(f))
}
