//go:build linux

package osstdout_test

import (
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// peerWait is how long a line may take to arrive once the program has
// told a peer, or waits for one. With STDIOBUF_MAXDELAY=none nothing but
// the flush before the peer's I/O delivers it before the program ends, a
// minute later: a guard against a hang, not a measure.
const peerWait = 10 * time.Second

// TestPeersSeeOutput: a line printed before the program writes to a pipe
// or a socket, signals its parent (syscall.Kill, Process.Signal), or
// reads a pipe or a socket that waits for a peer, is already written when
// the peer hears from the program, as in the plain build: a peer that
// learns something from the program never finds its earlier output
// missing (the causal rule), also with no bound.
func TestPeersSeeOutput(t *testing.T) {
	plain, buffered := programs(t)
	for _, how := range []string{"tellpipe", "tellsocket", "kill", "signal", "readpipe", "readsocket"} {
		for _, s := range []sink{toFile, toPipe} {
			t.Run(how+"/"+string(s), func(t *testing.T) {
				for _, bin := range []string{plain, buffered, raceBin} {
					talkToPeer(t, bin, how, s)
				}
			})
		}
	}
}

// talkToPeer runs bin's peer case how with standard output to s, and
// checks that the line is out when the program's news arrives (tell
// cases), or before the test answers the program's read (read cases).
func talkToPeer(t *testing.T, bin, how string, s sink) {
	t.Helper()
	out, until := watch(t, s)
	mine, theirs := peerPair(t, how)
	var sigs chan os.Signal
	if how == "kill" || how == "signal" {
		sigs = make(chan os.Signal, 1)
		signal.Notify(sigs, syscall.SIGUSR1)
		defer signal.Stop(sigs)
	}
	cmd := exec.Command(bin, how)
	cmd.Env = append(os.Environ(), "STDIOBUF_MAXDELAY=none")
	cmd.Stdout, cmd.Stderr, cmd.ExtraFiles = out, os.Stderr, []*os.File{theirs}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	theirs.Close()
	defer func() {
		cmd.Process.Kill()
		cmd.Wait()
	}()
	name := filepath.Base(bin) + " " + how
	switch how {
	case "kill", "signal":
		select {
		case <-sigs:
		case <-time.After(stepWait):
			t.Fatalf("%s: no SIGUSR1 from the program", name)
		}
	case "tellpipe", "tellsocket":
		mine.SetReadDeadline(time.Now().Add(stepWait))
		if _, err := mine.Read(make([]byte, 1)); err != nil {
			t.Fatalf("%s: reading what the program tells: %v", name, err)
		}
	}
	if err := until("before\n", peerWait); err != nil {
		t.Fatalf("%s: when the peer hears from the program: %v", name, err)
	}
	if how == "readpipe" || how == "readsocket" {
		if _, err := mine.Write([]byte{'x'}); err != nil {
			t.Fatal(err)
		}
		if err := until("before\nafter\n", stepWait); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
	}
}

// peerPair returns the test's end and the program's end of a pipe (the
// direction how needs) or of a socket pair.
func peerPair(t *testing.T, how string) (mine, theirs *os.File) {
	t.Helper()
	switch how {
	case "tellsocket", "readsocket":
		fds, err := syscall.Socketpair(syscall.AF_UNIX, syscall.SOCK_STREAM|syscall.SOCK_CLOEXEC, 0)
		if err != nil {
			t.Fatal(err)
		}
		// Non-blocking before NewFile, so that os polls it and its
		// deadlines work.
		if err := syscall.SetNonblock(fds[0], true); err != nil {
			t.Fatal(err)
		}
		mine, theirs = os.NewFile(uintptr(fds[0]), "mine"), os.NewFile(uintptr(fds[1]), "theirs")
	default:
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		mine, theirs = r, w
		if how == "readpipe" {
			mine, theirs = w, r
		}
	}
	t.Cleanup(func() { mine.Close(); theirs.Close() })
	return mine, theirs
}
