//go:build linux

// Package ptytest opens pseudo-terminals for tests: the one kind of
// descriptor on which stdio line-buffers by default.
package ptytest

import (
	"fmt"
	"os"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// Open opens a pseudo-terminal pair, or skips the test if the system has
// none. The slave is in canonical mode without echo and without output
// processing, so the master reads exactly the bytes written to the slave,
// and a read of the slave returns one line. Both are non-blocking
// *os.Files whose deadlines are set to now+wait, so a test that waits for
// output that never comes fails instead of hanging; both are closed when
// the test ends.
func Open(t testing.TB, wait time.Duration) (master, slave *os.File) {
	t.Helper()
	master, err := os.OpenFile("/dev/ptmx", os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	t.Cleanup(func() { master.Close() })
	var n uint32
	err = control(master, func(fd int) error {
		if err := unix.IoctlSetPointerInt(fd, unix.TIOCSPTLCK, 0); err != nil {
			return fmt.Errorf("unlockpt (TIOCSPTLCK): %w", err)
		}
		n, err = unix.IoctlGetUint32(fd, unix.TIOCGPTN)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	slave, err = os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { slave.Close() })
	err = control(slave, func(fd int) error {
		tio, err := unix.IoctlGetTermios(fd, unix.TCGETS)
		if err != nil {
			return err
		}
		tio.Lflag &^= unix.ECHO
		tio.Oflag &^= unix.OPOST
		return unix.IoctlSetTermios(fd, unix.TCSETS, tio)
	})
	if err != nil {
		t.Fatalf("setting the terminal's modes: %v", err)
	}
	deadline := time.Now().Add(wait)
	master.SetDeadline(deadline)
	slave.SetDeadline(deadline)
	return master, slave
}

// Expect reads master until it has len(want) bytes, and fails the test
// unless they are want.
func Expect(t testing.TB, master *os.File, want string) {
	t.Helper()
	got := make([]byte, 0, len(want))
	buf := make([]byte, 4096)
	for len(got) < len(want) {
		n, err := master.Read(buf[:len(want)-len(got)])
		got = append(got, buf[:n]...)
		if err != nil {
			t.Fatalf("reading the terminal: %v after %q, want %q", err, got, want)
		}
	}
	if string(got) != want {
		t.Errorf("the terminal showed %q, want %q", got, want)
	}
}

// ReadAll reads master until the slave side is closed everywhere (EIO) or
// the deadline passes, and returns what it read.
func ReadAll(master *os.File) ([]byte, error) {
	var got []byte
	buf := make([]byte, 4096)
	for {
		n, err := master.Read(buf)
		got = append(got, buf[:n]...)
		if err != nil {
			if pe, ok := err.(*os.PathError); ok && pe.Err == unix.EIO {
				return got, nil
			}
			return got, err
		}
	}
}

// control runs fn with f's descriptor without switching it to blocking
// mode (as Fd would).
func control(f *os.File, fn func(fd int) error) error {
	rc, err := f.SyscallConn()
	if err != nil {
		return err
	}
	var ferr error
	if err := rc.Control(func(fd uintptr) { ferr = fn(int(fd)) }); err != nil {
		return err
	}
	return ferr
}
