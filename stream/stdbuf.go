package stream

import (
	"strconv"
	"sync"
	"syscall"
)

// coreutils' stdbuf(1) runs a program with _STDBUF_I, _STDBUF_O and
// _STDBUF_E set and libstdbuf preloaded; libstdbuf calls setvbuf on stdin,
// stdout and stderr before main. A Go program never loads libstdbuf, so a
// stream reads the variables itself when it allocates a buffer for
// descriptor 0 (reading), 1 or 2 (writing), whoever wrapped the descriptor.

// stdbufVar names the variable that applies to fd in direction dir, or "".
func stdbufVar(fd int, dir direction) string {
	switch {
	case fd == 0 && dir == reading:
		return "_STDBUF_I"
	case fd == 1 && dir == writing:
		return "_STDBUF_O"
	case fd == 2 && dir == writing:
		return "_STDBUF_E"
	}
	return ""
}

// stdbufSetting reads the _STDBUF_ variable for fd, as libstdbuf's
// apply_mode does: a value starting with '0' is unbuffered, one starting
// with 'L' line buffered, and a decimal byte count fully buffered with that
// size (stdbuf has already turned 64K into 65536). Anything else is
// reported once on standard error and ignored.
func stdbufSetting(fd int, dir direction) (mode Mode, size int, reason string, ok bool) {
	name := stdbufVar(fd, dir)
	if name == "" {
		return 0, 0, "", false
	}
	v, set := syscall.Getenv(name)
	if !set {
		return 0, 0, "", false
	}
	reason = name + "=" + v
	switch {
	case v != "" && v[0] == '0':
		return Unbuffered, 0, reason, true
	case v != "" && v[0] == 'L':
		return LineBuffered, 0, reason, true
	}
	n, err := strconv.ParseUint(v, 10, 64)
	if err != nil || n == 0 || n > maxBufferSize {
		warnEnv(name, v, "want 0, L or a byte count up to 1073741824; keeping the default")
		return 0, 0, "", false
	}
	return FullyBuffered, int(n), reason, true
}

// warned remembers which bad environment values were reported, so that
// each is reported once per process however many streams read it.
var warned sync.Map

// warnEnv reports, once per variable and value, that an environment
// variable could not be used. It writes to descriptor 2 directly: the
// report must not depend on the streams it is about.
func warnEnv(name, value, want string) {
	if _, dup := warned.LoadOrStore(name+"="+value, true); dup {
		return
	}
	syscall.Write(syscall.Stderr, []byte("stream: invalid "+name+"="+strconv.Quote(value)+": "+want+"\n"))
}
