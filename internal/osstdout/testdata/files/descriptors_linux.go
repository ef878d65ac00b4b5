package main

import (
	"bytes"
	"fmt"
	"log"
	"os"
	"os/exec"
	"syscall"

	"golang.org/x/sys/unix"
)

// record is one record of the lock and map cases: 50 bytes.
func record(i int) string {
	return fmt.Sprintf("record %d of the locked or mapped file, 50 bytes\n", i)
}

// lock takes (on) or drops an exclusive lock of fd, the way kind says:
// flock or fcntl's F_SETLKW, through package syscall or x/sys/unix.
func lock(kind string, fd int, on bool) error {
	switch kind {
	case "flock", "unixflock":
		how := syscall.LOCK_EX
		if !on {
			how = syscall.LOCK_UN
		}
		if kind == "flock" {
			return syscall.Flock(fd, how)
		}
		return unix.Flock(fd, how)
	case "fcntl":
		lk := syscall.Flock_t{Type: syscall.F_WRLCK, Whence: 0}
		if !on {
			lk.Type = syscall.F_UNLCK
		}
		return syscall.FcntlFlock(uintptr(fd), syscall.F_SETLKW, &lk)
	case "unixfcntl":
		lk := unix.Flock_t{Type: unix.F_WRLCK}
		if !on {
			lk.Type = unix.F_UNLCK
		}
		return unix.FcntlFlock(uintptr(fd), unix.F_SETLKW, &lk)
	}
	return fmt.Errorf("unknown lock kind %q", kind)
}

// The cases of locks, mappings and descriptors changed behind os's back.
func init() {
	// locked KIND ON: a lock (KIND: flock, fcntl, unixflock, unixfcntl)
	// of the data file FILE or of FILE.lock (ON: data or lockfile),
	// taken through a descriptor kept from one Fd; a child waits for
	// the lock, then prints the data file's size: five records were
	// written under the lock before it was dropped.
	cases["locked"] = func(path string, args []string) {
		kind, on := args[0], args[1]
		data := create(path)
		lf, lockPath := data, path
		if on == "lockfile" {
			lockPath = path + ".lock"
			lf = create(lockPath)
		}
		fd := int(lf.Fd())
		if err := lock(kind, fd, true); err != nil {
			fmt.Println("lock:", err)
			return
		}
		cmd := exec.Command(os.Args[0], "lockobserve", path, kind, lockPath)
		cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
		if err := cmd.Start(); err != nil {
			fmt.Println(err)
			return
		}
		for i := range 5 {
			fmt.Fprint(data, record(i))
		}
		if err := lock(kind, fd, false); err != nil {
			fmt.Println("unlock:", err)
		}
		fmt.Println("wait:", cmd.Wait())
	}
	// lockobserve KIND LOCKFILE: takes the lock of LOCKFILE and prints
	// FILE's size.
	cases["lockobserve"] = func(path string, args []string) {
		lf := opened(os.OpenFile(args[1], os.O_RDWR, 0))
		fd := int(lf.Fd())
		if err := lock(args[0], fd, true); err != nil {
			fmt.Println("observer lock:", err)
			return
		}
		fi, err := os.Stat(path)
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println("observer saw", fi.Size(), "bytes")
		lock(args[0], fd, false)
	}
	// mapped KIND: FILE, 4096 bytes, maps it MAP_SHARED through a
	// second, read-only *File (KIND: syscall or unix) after two records
	// are written, and writes three more; after each write it prints how
	// many records the map shows.
	cases["mapped"] = func(path string, args []string) {
		f := create(path)
		if err := f.Truncate(4096); err != nil {
			fmt.Println(err)
			return
		}
		show := func(m []byte) { fmt.Println("the map shows", bytes.Count(m, []byte("record")), "records") }
		for i := range 2 {
			fmt.Fprint(f, record(i))
		}
		g := open(path)
		var m []byte
		var err error
		if args[0] == "unix" {
			m, err = unix.Mmap(int(g.Fd()), 0, 4096, unix.PROT_READ, unix.MAP_SHARED)
		} else {
			m, err = syscall.Mmap(int(g.Fd()), 0, 4096, syscall.PROT_READ, syscall.MAP_SHARED)
		}
		if err != nil {
			fmt.Println("mmap:", err)
			return
		}
		show(m)
		for i := 2; i < 5; i++ {
			fmt.Fprint(f, record(i))
			show(m)
		}
	}
	// dupdaemon WHEN: a daemon points standard output and standard
	// error at its log FILE with dup2 (x/sys/unix; WHEN: after standard
	// output's first write, "before", or before any, "none"), then
	// writes lines 1 to 8 through fmt.Println, the log's *File and
	// package log, which the file must hold in that order.
	cases["dupdaemon"] = func(path string, args []string) {
		logf := opened(os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644))
		if args[0] == "before" {
			fmt.Println("0 to the first standard output")
		}
		fd := int(logf.Fd())
		for _, to := range []int{1, 2} {
			if err := unix.Dup2(fd, to); err != nil {
				fmt.Fprintln(logf, "dup2:", err)
			}
		}
		log.SetFlags(0)
		fmt.Println("1")
		logf.WriteString("2\n")
		log.Print("3")
		fmt.Println("4")
		logf.WriteString("5\n")
		log.Print("6")
		fmt.Println("7")
		fmt.Fprintln(os.Stderr, "8")
	}
}
