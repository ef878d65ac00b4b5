// Command paths is the program of internal/osstdout's path tests (-files):
// it writes records into a buffered file and, after each, looks at the
// file by another route (a path, a link, another *File, a Root, a mount
// of the same directory), so that the test can compare what it saw with
// the plain build's. What it saw is kept and printed at the end: a
// write to a pipe in between would write every buffer out and hide a
// route that sees too little.
package main

import (
	"encoding/binary"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

func main() {
	if len(os.Args) < 3 {
		fail(fmt.Errorf("usage: paths CASE PATH [ARG...]"))
	}
	c, ok := cases[os.Args[1]]
	if !ok {
		fail(fmt.Errorf("no case %q", os.Args[1]))
	}
	c(os.Args[2], os.Args[3:])
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "paths:", err)
	os.Exit(2)
}

func must[T any](v T, err error) T {
	if err != nil {
		fail(err)
	}
	return v
}

// A route looks at the file at path, written through f, and says what
// it saw.
type route func(path string, f *os.File) string

// seenBy returns what the route named name (with arg, a second path for
// "alt") sees, after setting it up.
func seenBy(name, path, arg string, f *os.File) route {
	dir, base := filepath.Dir(path), filepath.Base(path)
	size := func(fi os.FileInfo, err error) string {
		if err != nil {
			return "error: " + strings.ReplaceAll(err.Error(), dir, "DIR")
		}
		return "size " + strconv.FormatInt(fi.Size(), 10)
	}
	content := func(b []byte, err error) string {
		if err != nil {
			return "error: " + strings.ReplaceAll(err.Error(), dir, "DIR")
		}
		return strconv.Quote(string(b))
	}
	entry := func(ds []os.DirEntry, err error) string {
		if err != nil {
			return "error: " + err.Error()
		}
		for _, d := range ds {
			if d.Name() == base {
				return size(d.Info())
			}
		}
		return "no entry"
	}
	switch name {
	case "stat":
		return func(string, *os.File) string { return size(os.Stat(path)) }
	case "lstat":
		return func(string, *os.File) string { return size(os.Lstat(path)) }
	case "direntinfo":
		return func(string, *os.File) string { return entry(os.ReadDir(dir)) }
	case "readdir":
		return func(string, *os.File) string {
			d := must(os.Open(dir))
			defer d.Close()
			for _, fi := range must(d.Readdir(-1)) {
				if fi.Name() == base {
					return size(fi, nil)
				}
			}
			return "no entry"
		}
	case "openread":
		return func(string, *os.File) string {
			g := must(os.Open(path))
			defer g.Close()
			return content(io.ReadAll(g))
		}
	case "readfile":
		return func(string, *os.File) string { return content(os.ReadFile(path)) }
	case "dirfs":
		return func(string, *os.File) string {
			fsys := os.DirFS(dir)
			return size(fs.Stat(fsys, base)) + " " + content(fs.ReadFile(fsys, base))
		}
	case "root":
		r := must(os.OpenRoot(dir))
		return func(string, *os.File) string {
			return size(r.Stat(base)) + " " + content(r.ReadFile(base))
		}
	case "rootdir":
		r := must(os.OpenRoot(dir))
		return func(string, *os.File) string {
			d := must(r.Open("."))
			defer d.Close()
			return entry(d.ReadDir(-1))
		}
	case "hardlink":
		link := path + ".link"
		must(0, os.Link(path, link))
		return func(string, *os.File) string { return size(os.Stat(link)) + " " + content(os.ReadFile(link)) }
	case "symlink":
		link := path + ".sym"
		must(0, os.Symlink(base, link))
		return func(string, *os.File) string { return size(os.Stat(link)) + " " + content(os.ReadFile(link)) }
	case "procfd":
		p := "/proc/self/fd/" + strconv.Itoa(int(f.Fd()))
		return func(string, *os.File) string { return size(os.Stat(p)) + " " + content(os.ReadFile(p)) }
	case "alt":
		return func(string, *os.File) string { return size(os.Stat(arg)) + " " + content(os.ReadFile(arg)) }
	case "altread":
		// The second path read alone: the open file's own fstat
		// (os.ReadFile's Stat) is all that tells which file it is.
		return func(string, *os.File) string { return content(os.ReadFile(arg)) }
	case "second":
		g := must(os.Open(path))
		return func(string, *os.File) string {
			must(g.Seek(0, io.SeekStart))
			return size(g.Stat()) + " " + content(io.ReadAll(g))
		}
	case "notdir":
		// A second *File listed as a directory, which fails: a failed
		// listing does not make it a directory, whose reads see no
		// buffered byte.
		g := must(os.Open(path))
		return func(string, *os.File) string {
			if _, err := g.Readdirnames(-1); err == nil {
				fail(fmt.Errorf("Readdirnames of the file %s: no error", path))
			}
			must(g.Seek(0, io.SeekStart))
			return content(io.ReadAll(g))
		}
	case "secondlate":
		// A second *File looked at while another file's buffer holds
		// bytes and before path's buffer exists: its file had no buffer
		// then, which must not hide the one path gets after.
		z := must(os.Create(path + ".z"))
		for i := range 3 {
			fmt.Fprintf(z, "other %d\n", i)
		}
		g := must(os.Open(path))
		must(g.Stat())
		return func(string, *os.File) string {
			must(g.Seek(0, io.SeekStart))
			return size(g.Stat()) + " " + content(io.ReadAll(g))
		}
	}
	fail(fmt.Errorf("no route %q", name))
	return nil
}

var cases = map[string]func(path string, args []string){
	// seen ROUTE [ALT]: three records written to path through a
	// buffered *File, each followed by a look through ROUTE.
	"seen": func(path string, args []string) {
		f := must(os.Create(path))
		arg := ""
		if len(args) > 1 {
			arg = args[1]
		}
		look := seenBy(args[0], path, arg, f)
		var saw []string
		for i := 1; i <= 3; i++ {
			fmt.Fprintf(f, "record %d\n", i)
			saw = append(saw, look(path, f))
		}
		fmt.Println(strings.Join(saw, "\n"))
	},
	// sharedbit: two files in path's directory whose identities share a
	// bit of -files's mask of the buffers that hold bytes ((ino^dev)
	// mod 64), three records written to each; then one is synced and
	// the other stat'ed, each way round: the size the Stat saw.
	"sharedbit": func(path string, _ []string) {
		a, b := sameBitFiles(filepath.Dir(path))
		var saw []string
		for _, p := range [][2]*os.File{{a, b}, {b, a}} {
			for i := 1; i <= 3; i++ {
				fmt.Fprintf(p[0], "record %d\n", i)
				fmt.Fprintf(p[1], "record %d\n", i)
			}
			must(0, p[0].Sync())
			saw = append(saw, strconv.FormatInt(must(os.Stat(p[1].Name())).Size(), 10))
		}
		fmt.Println(strings.Join(saw, " "))
	},
	// statallocs OP: a buffered file holds bytes while another file is
	// looked at 1000 times, by os.Stat (OP stat) or os.ReadFile (OP
	// readfile): the heap allocations per look.
	"statallocs": func(path string, args []string) {
		f := must(os.Create(path))
		fmt.Fprintf(f, "record 1\n")
		fmt.Fprintf(f, "record 2\n")
		other := filepath.Join(filepath.Dir(path), "other")
		must(0, os.WriteFile(other, []byte("x\n"), 0o644))
		look := map[string]func(){
			"stat":     func() { must(os.Stat(other)) },
			"readfile": func() { must(os.ReadFile(other)) },
		}[args[0]]
		if look == nil {
			fail(fmt.Errorf("statallocs: no look %q", args[0]))
		}
		const n = 1000
		var m0, m1 runtime.MemStats
		runtime.ReadMemStats(&m0)
		for range n {
			look()
		}
		runtime.ReadMemStats(&m1)
		fmt.Println((m1.Mallocs - m0.Mallocs + n/2) / n)
		must(0, f.Close())
	},
	// print N: N lines printed, and nothing else.
	"print": func(_ string, args []string) {
		n := must(strconv.Atoi(args[0]))
		for i := range n {
			fmt.Printf("line %d\n", i)
		}
	},
	// stdout: standard output is the file at path (or the same file by
	// another route); three lines printed, each followed by a Stat of
	// path.
	"stdout": func(path string, _ []string) {
		var saw []string
		for i := 1; i <= 3; i++ {
			fmt.Printf("line %d\n", i)
			fi := must(os.Stat(path))
			saw = append(saw, strconv.FormatInt(fi.Size(), 10))
		}
		fmt.Fprintln(os.Stderr, strings.Join(saw, " "))
	},
	// stdoutsecond: standard output is the file at path, read through a
	// second *File opened while another file's buffer holds bytes and
	// standard output nothing; three lines printed, each followed by a
	// ReadAt of path from its start through the second *File.
	"stdoutsecond": func(path string, _ []string) {
		z := must(os.Create(path + ".z"))
		for range 2 { // a file's first Write is plain; the second is held
			fmt.Fprintln(z, "other")
		}
		g := must(os.Open(path))
		must(g.Stat())
		var saw []string
		for i := 1; i <= 3; i++ {
			fmt.Printf("line %d\n", i)
			b := make([]byte, 100)
			n, err := g.ReadAt(b, 0)
			if err != io.EOF {
				fail(fmt.Errorf("ReadAt: %d bytes, %v; want io.EOF", n, err))
			}
			saw = append(saw, strconv.Itoa(n))
		}
		fmt.Fprintln(os.Stderr, strings.Join(saw, " "))
	},
	// rename FINAL: records written to path, renamed to FINAL, which
	// another process waits for; then the program waits, writing
	// nothing anyone hears, until it is killed.
	"rename": func(path string, args []string) {
		f := must(os.Create(path))
		for i := 1; i <= 3; i++ {
			fmt.Fprintf(f, "record %d\n", i)
		}
		must(0, os.Rename(path, args[0]))
		time.Sleep(time.Minute)
	},
	// trunc: path written through f, then truncated by name (os.Create)
	// and written through a second *File, then f goes on.
	"trunc": func(path string, _ []string) {
		f := must(os.Create(path))
		for i := 0; i < 10; i++ {
			f.WriteString("aaaa\n")
		}
		g := must(os.Create(path))
		g.WriteString("new\n")
		g.Close()
		f.WriteString("tail\n")
		f.Close()
	},
	// staleclear: while a read buffer over another file holds bytes, a
	// log at PATH is written plainly through f (a look finds no buffer
	// over its file); then a second *File g reads PATH in small pieces,
	// which gives it a read buffer over the log's file, and f writes
	// past what g has read: g's next Read prints what the write put
	// there.
	"staleclear": func(path string, _ []string) {
		other := path + ".records"
		must(0, os.WriteFile(other, []byte(strings.Repeat("record. ", 8)), 0o644))
		must(0, os.WriteFile(path, []byte("0123456789"), 0o644))
		a := must(os.Open(other))
		var rec [4]byte
		for range 2 {
			must(io.ReadFull(a, rec[:]))
		}
		f := must(os.OpenFile(path, os.O_WRONLY, 0))
		must(f.Write([]byte("x")))
		must(f.Seek(5, io.SeekStart))
		g := must(os.Open(path))
		var one [1]byte
		var saw []string
		for range 2 {
			must(io.ReadFull(g, one[:]))
			saw = append(saw, string(one[:]))
		}
		must(f.Write([]byte("y")))
		must(io.ReadFull(g, rec[:]))
		saw = append(saw, string(rec[:]))
		fmt.Printf("%q\n", saw)
	},
	// fresh: while a log holds bytes, PATH made by os.Create (f) and
	// written through f; a second *File appends to it, its second
	// write buffered; f writes over the append; the file printed.
	"fresh": func(path string, _ []string) {
		l := must(os.OpenFile(path+".log", os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644))
		l.WriteString("one\n")
		l.WriteString("two\n")
		f := must(os.Create(path))
		f.WriteString("a")
		g := must(os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0))
		g.WriteString("b")
		g.WriteString("cc")
		f.WriteString("XYZ")
		g.Close()
		f.Close()
		l.Close()
		fmt.Printf("%q\n", must(os.ReadFile(path)))
	},
	// concurrent: four goroutines each write records to a file of their
	// own and, after each, stat it by name and read it back, while a
	// fifth writes records to a shared file; each says where what it
	// saw was not what it wrote.
	"concurrent": func(path string, _ []string) {
		var wg sync.WaitGroup
		shared := must(os.Create(path + ".shared"))
		wrong := make(chan string, 100)
		for g := 0; g < 4; g++ {
			wg.Add(1)
			go func(g int) {
				defer wg.Done()
				name := path + "." + strconv.Itoa(g)
				f := must(os.Create(name))
				n := 0
				for i := 0; i < 300; i++ {
					m, _ := fmt.Fprintf(f, "goroutine %d record %d\n", g, i)
					n += m
					fmt.Fprintf(shared, "%d %d\n", g, i)
					if fi, err := os.Stat(name); err != nil || fi.Size() != int64(n) {
						wrong <- fmt.Sprintf("%s: size %v after %d bytes (%v)", filepath.Base(name), fi.Size(), n, err)
						return
					}
					if i%50 == 0 {
						if b, err := os.ReadFile(name); err != nil || len(b) != n {
							wrong <- fmt.Sprintf("%s: read %d bytes after %d (%v)", filepath.Base(name), len(b), n, err)
							return
						}
					}
				}
				f.Close()
			}(g)
		}
		wg.Wait()
		close(wrong)
		for w := range wrong {
			fmt.Println(w)
		}
		fmt.Println("done")
	},
	// scanprint DATA: fmt.Fscan of each number of the file DATA, a line
	// per number on standard output.
	"scanprint": func(_ string, args []string) {
		f := must(os.Open(args[0]))
		for {
			var n int
			if _, err := fmt.Fscan(f, &n); err != nil {
				break
			}
			fmt.Printf("number %d, twice %d, and then some more words\n", n, 2*n)
		}
	},
	// pipeblocks SIZE: standard input read in blocks of SIZE bytes,
	// its bytes and lines counted and printed at the end on standard
	// error, which has no buffer to decide.
	"pipeblocks": func(_ string, args []string) {
		buf := make([]byte, must(strconv.Atoi(args[0])))
		var n, lines int
		for {
			k, err := os.Stdin.Read(buf)
			n += k
			lines += strings.Count(string(buf[:k]), "\n")
			if err != nil {
				break
			}
		}
		fmt.Fprintln(os.Stderr, n, lines)
	},
	// smallbig [PATH...]: the file at path, and each of PATH, written
	// with two small Writes, which decide its buffer, then one of 64
	// KiB.
	"smallbig": func(path string, args []string) {
		for _, p := range append([]string{path}, args...) {
			f := must(os.Create(p))
			must(f.Write([]byte("first line\n")))
			must(f.Write([]byte("second line\n")))
			must(f.Write([]byte(strings.Repeat("a long line of the large write\n", 64<<10/32))))
			must(0, f.Close())
		}
	},
	// smallfiles DIR: 200 files of a line each in DIR, by os.WriteFile.
	"smallfiles": func(_ string, args []string) {
		for i := 0; i < 200; i++ {
			must(0, os.WriteFile(filepath.Join(args[0], "f"+strconv.Itoa(i)), []byte("file "+strconv.Itoa(i)+"\n"), 0o644))
		}
	},
	// generator SRC DST: each file of SRC upper-cased into DST by
	// os.WriteFile, and a line per file to the log at path.
	"generator": func(path string, args []string) {
		l := must(os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644))
		for _, d := range must(os.ReadDir(args[0])) {
			b := must(os.ReadFile(filepath.Join(args[0], d.Name())))
			must(0, os.WriteFile(filepath.Join(args[1], d.Name()), []byte(strings.ToUpper(string(b))), 0o644))
			fmt.Fprintf(l, "wrote %s, %d bytes\n", d.Name(), len(b))
		}
		l.Close()
	},
	// mover LOG DIR: each file of DIR renamed to its name and ".moved",
	// a line per file to LOG.
	"mover": func(path string, args []string) {
		l := must(os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644))
		for _, d := range must(os.ReadDir(args[0])) {
			old := filepath.Join(args[0], d.Name())
			must(0, os.Rename(old, old+".moved"))
			fmt.Fprintf(l, "moved %s\n", d.Name())
		}
		l.Close()
	},
	// records DATA [seek]: 16-byte records of DATA by binary.Read, a
	// line per record on standard error; with seek, also the offset
	// after each record (Seek(0, io.SeekCurrent)), the last printed.
	"records": func(_ string, args []string) {
		f := must(os.Open(args[0]))
		var rec [2]uint64
		var off int64
		n := 0
		for ; ; n++ {
			if err := binary.Read(f, binary.LittleEndian, &rec); err != nil {
				break
			}
			fmt.Fprintf(os.Stderr, "record %d: %d %d\n", n, rec[0], rec[1])
			if len(args) > 1 {
				off = must(f.Seek(0, io.SeekCurrent))
			}
		}
		fmt.Println(n, "records, last offset", off)
	},
	// walk DIR: a walker, a line per file (its path and size) on
	// standard output.
	"walk": func(_ string, args []string) {
		must(0, filepath.WalkDir(args[0], func(p string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			fi, err := d.Info()
			if err != nil {
				return err
			}
			fmt.Println(p, fi.Size())
			return nil
		}))
	},
	// statreport DIR: os.Stat of each file of DIR, a line per file to
	// the report at path.
	"statreport": func(path string, args []string) {
		f := must(os.Create(path))
		for _, d := range must(os.ReadDir(args[0])) {
			fi := must(os.Stat(filepath.Join(args[0], d.Name())))
			fmt.Fprintf(f, "%s %d\n", fi.Name(), fi.Size())
		}
		f.Close()
	},
	// grepr DIR: os.ReadFile of each file under DIR, a line to the
	// report at path for each that holds "7".
	"grepr": func(path string, args []string) {
		f := must(os.Create(path))
		must(0, filepath.WalkDir(args[0], func(p string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			if strings.Contains(string(b), "7") {
				fmt.Fprintf(f, "%s\n", p)
			}
			return nil
		}))
		f.Close()
	},
}

// sameBitFiles creates files in dir until two have identities of the
// same (ino^dev) mod 64, and returns those two, open for writing.
func sameBitFiles(dir string) (*os.File, *os.File) {
	seen := map[uint64]*os.File{}
	for i := 0; i <= 64; i++ {
		f := must(os.Create(filepath.Join(dir, "bit"+strconv.Itoa(i))))
		st, ok := must(f.Stat()).Sys().(*syscall.Stat_t)
		if !ok {
			fail(fmt.Errorf("no Stat_t for %s", f.Name()))
		}
		bit := (st.Ino ^ uint64(st.Dev)) % 64
		if g, ok := seen[bit]; ok {
			return g, f
		}
		seen[bit] = f
	}
	fail(fmt.Errorf("65 files in %s and no two identities share a bit", dir))
	return nil, nil
}
