package stream

import (
	"strconv"
	"sync"
	"syscall"
)

// This file is the report at exit (STDIOBUF_REPORT): one line per stream
// over a descriptor that was decided in the process, and a total. It is
// the one registry of such streams: a Reader, Writer or Scanner adds
// itself when it decides for a descriptor, and under `stdiobuf build
// -stdout` and `-files` the buffers package os keeps are Writers of this
// package, which add themselves the same way. Exit runs the report in a
// program that uses this package directly; under the overlay the
// runtime's exit hooks run it (reportexit.go and its std twin), after
// package os's own exit flushes, so the counts are final.
//
// With the variable unset nothing here runs but the one reading of it:
// reportOn is false, no stream registers, and every write takes the path
// it takes without the report.

// reportEnv names the variable: unset, empty or "0" is no report, "1"
// the report on standard error, anything else the name of the file to
// write it to (created or truncated at exit, from the working directory
// of that moment).
const reportEnv = "STDIOBUF_REPORT"

// reportTo is the variable's value, read once; reportOn says whether it
// asks for a report. Set at package initialisation, never after.
var reportTo, reportOn = reportSetting()

// reportSetting reads reportEnv.
func reportSetting() (string, bool) {
	v, _ := syscall.Getenv(reportEnv)
	return v, v != "" && v != "0"
}

func init() {
	if reportOn {
		atExitReport(writeReport)
	}
}

// countedFull is the mode a fully buffered Writer that the report counts
// checks on its hot paths (setup.mode) in place of FullyBuffered, which
// no fast path then matches: every write goes to pickShim, which counts
// it (countWrite) and finds no shim, and on to the fully buffered path
// that the fast path stands for. Info still says FullyBuffered. Only
// such a Writer ever has it.
const countedFull Mode = -1

// A reportee is a stream the report lists: it tells what it is at exit.
type reportee interface {
	// reportState returns the stream's Info, its counters and how many
	// bytes it holds that did not go out.
	reportState() (Info, counters, int)
}

// A reportEntry is one stream the report lists.
type reportEntry struct {
	stream reportee
	dir    direction
	buffer string // bufio for the program's own; stdout or files for package os's (-stdout, -files)
	kind   string // file, pipe, socket, terminal, null, device, directory or other
	path   string // where the descriptor leads, as far as the system says; "" if it does not
}

// An osBuffer is what a stream of package os's buffers writes to under
// -stdout and -files: StdiobufBuffer says which ("stdout" or "files").
type osBuffer interface{ StdiobufBuffer() string }

// reported is the registry: every stream over a descriptor that decided
// while reportOn, in the order of their first decision.
var reported struct {
	mu      sync.Mutex
	entries []*reportEntry
	index   map[reportee]*reportEntry
}

// reportDecided registers r, which has just decided for u in direction
// dir, if it decided for a descriptor; a stream that decides again (a
// Reset to another file, SetPolicy, Setvbuf) keeps its one entry, now
// describing u. It is called only while reportOn.
func reportDecided(r reportee, s *setup, u any, dir direction) {
	if !s.overFD {
		return
	}
	var st fileStat
	fd, statted, _ := statDescriptor(u, &st)
	kind := "other"
	if statted {
		kind = kindName(&st)
	}
	path := ""
	if fd >= 0 {
		path = fdPath(fd)
	}
	if path == "" {
		if n, ok := u.(interface{ Name() string }); ok {
			path = n.Name()
		}
	}
	kind, path = reportWhat(u, kind, path)
	buffer := "bufio"
	if o, ok := u.(osBuffer); ok {
		buffer = o.StdiobufBuffer()
	}
	reported.mu.Lock()
	defer reported.mu.Unlock()
	if reported.index == nil {
		reported.index = make(map[reportee]*reportEntry)
	}
	e := reported.index[r]
	if e == nil {
		e = &reportEntry{stream: r}
		reported.index[r] = e
		reported.entries = append(reported.entries, e)
	}
	e.dir, e.buffer, e.kind, e.path = dir, buffer, kind, path
}

// kindName names the kind of file st describes.
func kindName(st *fileStat) string {
	switch st.kind {
	case kindRegular:
		return "file"
	case kindPipe:
		return "pipe"
	case kindSocket:
		return "socket"
	case kindDir:
		return "directory"
	case kindChar:
		if st.terminal {
			return "terminal"
		}
		return "device"
	}
	return "other"
}

// countWrites makes b, a Writer over a descriptor that the report lists,
// count its callers' writes: a fully buffered one leaves its fast paths
// (countedFull), so that, as a Writer in any other mode, it calls
// pickShim once for every write. It is called after every decision of b
// while reportOn.
func (b *Writer) countWrites() {
	if b.s.overFD && b.s.mode == FullyBuffered {
		b.s.mode = countedFull
	}
}

// countWrite counts one write of b's caller, if the report lists b:
// pickShim calls it once for every Write, WriteString, WriteByte and
// WriteRune, and for every chunk ReadFrom reads, which a copy without the
// buffer would write at once; ReadFrom calls it once when it hands the
// whole copy to the underlying writer's ReadFrom, one call and one write.
func (b *Writer) countWrite() {
	if reportOn && b.s.overFD {
		b.s.calls.taken++
	}
}

// countKernel counts n kernel copies as calls of b's caller, if the
// report lists b: a plain build makes each of them too, so none is saved.
func (b *Writer) countKernel(n int64) {
	if reportOn && b.s.overFD {
		b.s.calls.taken += n
	}
}

// registerReport registers b after a decision and makes it count.
func (b *Writer) registerReport() {
	reportDecided(b, &b.s, b.wr, writing)
	b.countWrites()
}

func (b *Writer) reportState() (Info, counters, int) { return b.Info(), b.s.calls, b.n }

func (b *Reader) reportState() (Info, counters, int) { return b.Info(), b.s.calls, 0 }

func (s *Scanner) reportState() (Info, counters, int) { return s.Info(), s.s.calls, 0 }

// A plainStream is a descriptor that package os reads or writes without
// a buffer of its own under -stdout and -files (standard error, a file
// read in blocks of 4096 bytes or more, a pipe another process reads):
// os counts the read or write system calls of its *File's plain Reads
// and Writes, and says at exit how many, what they moved and why the
// file stayed plain (state). Its line has buffer=none.
type plainStream struct {
	fd    int
	state func() (calls, bytes int64, why string)
}

// plainBuffer is the buffer field of a plainStream's line.
const plainBuffer = "none"

func (p *plainStream) reportState() (Info, counters, int) {
	calls, bytes, why := p.state()
	i := Info{Fd: p.fd, Mode: Unbuffered, Reason: why, Reads: calls, Writes: calls}
	return i, counters{taken: calls, bytes: bytes}, 0
}

// reportPlain registers, while reportOn, the descriptor of u (package
// os's file, with its original methods) that os reads (write false) or
// writes plainly, whose counts and reason state gives at exit: os calls
// it at the file's first plain Read or Write. A line whose calls are 0
// at exit (they went to a buffer's line decided later) is left out.
func reportPlain(u any, write bool, state func() (calls, bytes int64, why string)) {
	if !reportOn {
		return
	}
	p := &plainStream{fd: -1, state: state}
	if d, ok := u.(interface{ Fd() uintptr }); ok {
		p.fd = descriptor(d.Fd())
	}
	dir := reading
	if write {
		dir = writing
	}
	reportDecided(p, &setup{overFD: true}, u, dir)
}

// writeReport writes the report to where reportTo says. A file that
// cannot be created is reported in one line on standard error, and the
// report goes there instead.
func writeReport() {
	text := reportText()
	if reportTo == "1" {
		writeStderr(text)
		return
	}
	w, closeFn, err := openReport(reportTo)
	if err != nil {
		writeStderr([]byte("stdiobuf: " + reportEnv + "=" + strconv.Quote(reportTo) + ": " + err.Error() + "; the report follows on standard error\n"))
		writeStderr(text)
		return
	}
	_, err = w.Write(text)
	if cerr := closeFn(); err == nil {
		err = cerr
	}
	if err != nil {
		writeStderr([]byte("stdiobuf: " + reportEnv + "=" + strconv.Quote(reportTo) + ": " + err.Error() + "\n"))
	}
}

// writeStderr writes b to descriptor 2 directly: the report must not
// depend on the streams it is about.
func writeStderr(b []byte) {
	for len(b) > 0 {
		n, err := syscall.Write(syscall.Stderr, b)
		if n <= 0 || err != nil {
			return
		}
		b = b[n:]
	}
}

// reportText formats the report: a line per registered stream, then the
// total.
func reportText() []byte {
	reported.mu.Lock()
	entries := append([]*reportEntry(nil), reported.entries...)
	reported.mu.Unlock()
	// A bufio Writer over a file that package os buffers writes into
	// that buffer, and a bufio Reader over one reads from it: that
	// buffer's line counts the system calls.
	type use struct {
		dir  direction
		path string
	}
	// So does a bufio stream over a file that os reads or writes
	// plainly: that file's line (buffer=none) counts the system calls.
	osBuffered := map[use]bool{}
	for _, e := range entries {
		if e.buffer != "bufio" {
			osBuffered[use{e.dir, e.path}] = true
		}
	}
	var out []byte
	var t reportTotal
	for _, e := range entries {
		i, c, held := e.stream.reportState()
		if e.buffer == plainBuffer && c.taken == 0 {
			continue // its calls are on a buffer's line, or it made none
		}
		out = appendReportLine(out, e, i, c, held)
		t.add(e.dir, i, c, e.buffer == "bufio" && osBuffered[use{e.dir, e.path}], savedOf(e, i, c))
	}
	return t.appendTo(out)
}

// savedOf is the system calls e's stream saved: those the plain build
// would have made on its descriptor less those it made. A buffer of
// package os's (-stdout, -files) stands where the plain build has none,
// so each of its callers' writes would have been a write(2): it saved
// its calls less its writes and kernel copies. A bufio Writer is the
// program's own, which the plain build has too: it is counted as saving
// nothing, also where stdiobuf changed its size or mode (what it saved
// then is not known from its counts: it is at least 0). A reader's
// callers' reads are not counted: it saves nothing the report shows.
func savedOf(e *reportEntry, i Info, c counters) int64 {
	if e.dir != writing || e.buffer == "bufio" {
		return 0
	}
	return c.taken - i.Writes - i.Kernel
}

// reportPrefix starts every line of the report.
const reportPrefix = "stdiobuf report: "

// appendReportLine appends e's line: what the stream is over, its
// decision and why, and its calls. For a writer, calls are the writes its
// caller made, writes those it made (a system call each over a file),
// bytes what they wrote, held what it still holds, and saved the calls
// as savedOf says; for a reader, reads are its reads (a
// system call each) and bytes what they returned. Bytes that kernel
// copies moved are not in bytes.
func appendReportLine(out []byte, e *reportEntry, i Info, c counters, held int) []byte {
	out = append(out, reportPrefix...)
	out = append(out, "fd="...)
	out = strconv.AppendInt(out, int64(i.Fd), 10)
	out = append(out, " buffer="...)
	out = append(out, e.buffer...)
	out = append(out, " kind="...)
	out = append(out, e.kind...)
	out = append(out, " path="...)
	out = strconv.AppendQuote(out, e.path)
	if e.dir == writing {
		out = append(out, " dir=write"...)
	} else {
		out = append(out, " dir=read"...)
	}
	out = append(out, " mode="...)
	out = append(out, i.Mode.String()...)
	out = append(out, " size="...)
	out = strconv.AppendInt(out, int64(i.Size), 10)
	out = append(out, " policy="...)
	if e.buffer == plainBuffer {
		out = append(out, "none"...)
	} else {
		out = append(out, i.Policy.String()...)
	}
	out = append(out, " reason="...)
	out = strconv.AppendQuote(out, i.Reason)
	if e.dir == writing {
		out = appendField(out, "calls", c.taken)
		out = appendField(out, "writes", i.Writes)
		out = appendField(out, "kernel", i.Kernel)
		out = appendField(out, "bytes", c.bytes)
		out = appendField(out, "held", int64(held))
		out = appendField(out, "saved", savedOf(e, i, c))
	} else {
		out = appendField(out, "reads", i.Reads)
		out = appendField(out, "kernel", i.Kernel)
		out = appendField(out, "bytes", c.bytes)
	}
	return append(out, '\n')
}

// appendField appends " name=n".
func appendField(out []byte, name string, n int64) []byte {
	out = append(out, ' ')
	out = append(out, name...)
	out = append(out, '=')
	return strconv.AppendInt(out, n, 10)
}

// reportTotal sums the streams of a report.
type reportTotal struct {
	writers, calls, writes, saved int64
	readers, reads                int64
	kernel                        int64
}

// add adds a stream's line, which saved saved. A writer into one of
// package os's buffers (into) made its writes to that buffer, whose line
// counts them as its calls: they are taken off the calls, so that each of
// the program's writes and each system call is counted once. A reader
// from one of them (into) made its reads from that buffer, whose line
// counts the read(2) calls: its reads are not system calls and are left
// out of the total.
func (t *reportTotal) add(dir direction, i Info, c counters, into bool, saved int64) {
	t.kernel += i.Kernel
	t.saved += saved
	if dir == writing {
		t.writers++
		t.calls += c.taken
		if into {
			t.calls -= i.Writes
		} else {
			t.writes += i.Writes
		}
		return
	}
	t.readers++
	if !into {
		t.reads += i.Reads
	}
}

// appendTo appends the total line: the system calls the writers' buffers
// saved (their callers' writes less the writes and kernel copies they
// made); a reader's callers' reads are not counted, so readers show only
// the reads they made.
func (t *reportTotal) appendTo(out []byte) []byte {
	out = append(out, reportPrefix...)
	out = append(out, "total"...)
	out = appendField(out, "streams", t.writers+t.readers)
	out = appendField(out, "writers", t.writers)
	out = appendField(out, "calls", t.calls)
	out = appendField(out, "writes", t.writes)
	out = appendField(out, "saved", t.saved)
	out = appendField(out, "readers", t.readers)
	out = appendField(out, "reads", t.reads)
	out = appendField(out, "kernel", t.kernel)
	return append(out, '\n')
}
