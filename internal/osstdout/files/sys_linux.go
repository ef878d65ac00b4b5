//go:build stdiobuf_std

// This file is merged into package os's sys_linux.go by `stdiobuf build
// -files`: what only Linux tells of an open file, for
// zz_stdiobuf_files.go and zz_stdiobuf_reads.go, and what a pipe's read
// buffer needs, for zz_stdiobuf_pipein.go: tee(2), and /proc to see who
// else reads the pipe.

package os

import (
	"internal/syscall/unix"
	"sync"
	"sync/atomic"
	"syscall"
	"unsafe"
)

func init() {
	stdioPlainKind = stdioLinuxPlainKind
	stdioReadPlainKind = stdioLinuxReadPlainKind
	stdioPipeSys = &stdioPipeOps{
		usable: stdioLinuxPipeUsable,
		open: func() (int, int, error) {
			var p [2]int
			err := syscall.Pipe2(p[:], syscall.O_CLOEXEC)
			return p[0], p[1], err
		},
		tee:   stdioLinuxTee,
		read:  stdioLinuxRead,
		holds: stdioLinuxPipeHolds,
		close: func(fd int) { syscall.Close(fd) },
	}
	stdioStatFields = stdioLinuxStatFields
	stdioRdev = stdioLinuxRdev
	stdioIDOf = stdioLinuxIDOf
	stdioIdentOf = stdioLinuxIdentOf
	stdioRefreshEntry = stdioLinuxRefreshEntry
	stdioFSTrusted = stdioLinuxTrust.trusted
	stdioFSKnown = stdioLinuxTrust.known
	stdioFDIdentity = stdioLinuxFDIdentity
	stdioFstatfsType = func(f *File, t *int64) error { return stdioFDStatfsType(f.pfd.Sysfd, t) }
	stdioFDStatfsType = func(fd int, t *int64) error {
		var st syscall.Statfs_t
		err := ignoringEINTR(func() error { return syscall.Fstatfs(fd, &st) })
		*t = int64(st.Type)
		return err
	}
	stdioStatfsType = func(name string, t *int64) error {
		var st syscall.Statfs_t
		err := ignoringEINTR(func() error { return syscall.Statfs(name, &st) })
		*t = int64(st.Type)
		return err
	}
}

// stdioLinuxPlainKind is stdioPlainKind on Linux: f is not open for
// writing, or open with O_SYNC, O_DSYNC or O_DIRECT (O_SYNC's bits
// include O_DSYNC's on Linux), or on a generated file system.
func stdioLinuxPlainKind(f *File) bool {
	return stdioLinuxKind(f, func(flags int) bool {
		return flags&syscall.O_ACCMODE == syscall.O_RDONLY || flags&(syscall.O_SYNC|syscall.O_DIRECT) != 0
	})
}

// stdioLinuxReadPlainKind is stdioReadPlainKind on Linux: f is not open
// for reading, or open with O_DIRECT, or on a generated file system.
func stdioLinuxReadPlainKind(f *File) bool {
	return stdioLinuxKind(f, func(flags int) bool {
		return flags&syscall.O_ACCMODE == syscall.O_WRONLY || flags&syscall.O_DIRECT != 0
	})
}

// stdioLinuxKind reports whether f must stay plain: its flags (those the
// program opened it with, else fcntl(F_GETFL)'s) are ones that plain
// rejects, or fstatfs(2) says its file system is one of stream's
// generated ones, whose files are made at each read; a file system on a
// block device is none of those, nor one whose identities are known to
// be trusted (tmpfs, ramfs, btrfs: stdioLinuxTrust, which asked its
// type once per device), and asks no fstatfs.
func stdioLinuxKind(f *File, plain func(flags int) bool) bool {
	fd := f.pfd.Sysfd
	flags, opened := f.stdioFile.opened()
	if !opened {
		var err error
		if flags, err = unix.Fcntl(fd, syscall.F_GETFL, 0); err != nil {
			return true
		}
	}
	if plain(flags) {
		return true
	}
	if fi := stdioKindGet(f).stat(); fi != nil {
		if st, ok := fi.Sys().(*syscall.Stat_t); ok && (!stdioAnonDev(uint64(st.Dev)) || stdioLinuxTrust.knownTrusted(uint64(st.Dev))) {
			return false
		}
	}
	return stdioGeneratedFS(uintptr(fd))
}

// stdioLinuxStatFields is stdioStatFields on Linux, for the types
// stream's knownStat names; ok false for a directory or a symbolic link,
// which no stream decides.
func stdioLinuxStatFields(f *File, fi FileInfo) (fd uintptr, typ byte, size, blksize int64, dev, ino uint64, ok bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, 0, 0, 0, 0, 0, false
	}
	switch st.Mode & syscall.S_IFMT {
	case syscall.S_IFREG:
		typ = '-'
	case syscall.S_IFBLK:
		typ = 'b'
	case syscall.S_IFCHR:
		typ = 'c'
	case syscall.S_IFIFO:
		typ = 'p'
	case syscall.S_IFSOCK:
		typ = 's'
	default:
		return 0, 0, 0, 0, 0, 0, false
	}
	return uintptr(f.pfd.Sysfd), typ, st.Size, int64(st.Blksize), uint64(st.Dev), uint64(st.Ino), true
}

// stdioAnonDev reports whether dev, a file system's device number, is
// anonymous (major 0): every file system whose files are made at each
// read (/proc, /sys, debugfs, cgroup, FUSE) has such a number, so one on
// a block device needs no fstatfs to tell it is not one of them.
func stdioAnonDev(dev uint64) bool {
	return (dev>>8)&0xfff|(dev>>32)&^0xfff == 0
}

// stdioGeneratedFS is stream's generatedFS, which the bufio package os
// imports pushes as generatedFile (internal/osstdout/bufio/osfile.go).
//
//go:linkname stdioGeneratedFS bufio.generatedFile
func stdioGeneratedFS(fd uintptr) bool

// stdioLinuxTee is tee(2) of up to n bytes from f's pipe into the pipe
// w, through os's descriptor (held against Close meanwhile), retried on
// EINTR.
func stdioLinuxTee(f *File, w, n int) (int, error) {
	var m int64
	var err error
	rerr := f.pfd.RawRead(func(fd uintptr) bool {
		for {
			m, err = syscall.Tee(int(fd), w, n, 0)
			if err != syscall.EINTR {
				return true
			}
		}
	})
	if rerr != nil {
		return 0, rerr
	}
	return int(m), err
}

// stdioLinuxPipeHolds is how many bytes f's pipe holds (FIONREAD), 0
// where the ioctl fails.
func stdioLinuxPipeHolds(f *File) int {
	var n int32
	_, _, e := syscall.Syscall(syscall.SYS_IOCTL, uintptr(f.pfd.Sysfd), syscall.TIOCINQ, uintptr(unsafe.Pointer(&n)))
	if e != 0 {
		return 0
	}
	return int(n)
}

// stdioLinuxRead is read(2) of fd into p, retried on EINTR.
func stdioLinuxRead(fd int, p []byte) (int, error) {
	for {
		n, err := syscall.Read(fd, p)
		if err != syscall.EINTR {
			return n, err
		}
	}
}

// stdioLinuxPipeUsable is stdioPipeOps.usable on Linux: f, the original
// standard input, a pipe or a FIFO whose fstat is fi, is open read-only
// and blocking (a descriptor in the runtime's poller, or that another
// process made non-blocking, is read plainly), and no other reader of
// the pipe is seen (stdioLinuxPipeAlone).
func stdioLinuxPipeUsable(f *File, fi FileInfo) stdioPipeWhy {
	fd := f.pfd.Sysfd
	flags, err := unix.Fcntl(fd, syscall.F_GETFL, 0)
	switch {
	case err != nil:
		return stdioPipeWhy{rule: stdioPipeNoFlags}
	case flags&syscall.O_ACCMODE != syscall.O_RDONLY:
		return stdioPipeWhy{rule: stdioPipeNotRead}
	case flags&syscall.O_NONBLOCK != 0:
		return stdioPipeWhy{rule: stdioPipeNonblocking}
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return stdioPipeWhy{rule: stdioPipeNoFlags}
	}
	return stdioLinuxPipeAlone(fd, st)
}

// stdioLinuxPipeAlone reports, as the zero stdioPipeWhy, that /proc
// shows no reader of the pipe st but this process's descriptor fd: no
// other descriptor of this process, and none of another process of the
// same session, that is open on it (stat(2) of /proc/PID/fd/N: the same
// device and inode) for reading (/proc/PID/fdinfo/N's flags not
// O_WRONLY); else it says which reader it saw. A process of the session
// whose descriptors cannot be read, or a /proc that cannot be read,
// counts as a reader. Processes of other sessions are not looked at: a
// pipe shared with them is not seen (docs/files.md).
func stdioLinuxPipeAlone(fd int, st *syscall.Stat_t) stdioPipeWhy {
	self := syscall.Getpid()
	sid, ok := stdioProcSession(self)
	if !ok {
		return stdioPipeWhy{rule: stdioPipeNoProc}
	}
	pids, ok := stdioProcList("/proc")
	if !ok {
		return stdioPipeWhy{rule: stdioPipeNoProc}
	}
	for _, name := range pids {
		pid, ok := stdioAtoi(name, 10)
		if !ok {
			continue
		}
		if pid != self {
			s, ok := stdioProcSession(pid)
			if !ok {
				if stdioProcGone(pid) {
					continue
				}
				return stdioPipeWhy{stdioPipeNoSession, pid}
			}
			if s != sid {
				continue
			}
		}
		if why := stdioProcNoReader(pid, self, fd, st); why.rule != stdioPipeAlone {
			return why
		}
	}
	return stdioPipeWhy{}
}

// stdioProcNoReader reports, as the zero stdioPipeWhy, that process pid
// holds no descriptor open for reading on the pipe st, leaving out this
// process's (self's) descriptor fd; else it says why it may. A process
// that ended meanwhile holds none.
func stdioProcNoReader(pid, self, fd int, st *syscall.Stat_t) stdioPipeWhy {
	hidden := stdioPipeWhy{stdioPipeHidden, pid}
	dir := "/proc/" + stdioItoa(pid) + "/fd"
	fds, ok := stdioProcList(dir)
	if !ok {
		if stdioProcGone(pid) {
			return stdioPipeWhy{}
		}
		return hidden
	}
	for _, name := range fds {
		n, ok := stdioAtoi(name, 10)
		if !ok || pid == self && n == fd {
			continue
		}
		var o syscall.Stat_t
		if err := syscall.Stat(dir+"/"+name, &o); err != nil {
			if err == syscall.ENOENT {
				continue // closed meanwhile
			}
			return hidden
		}
		if o.Dev != st.Dev || o.Ino != st.Ino {
			continue
		}
		flags, ok := stdioProcFlags("/proc/" + stdioItoa(pid) + "/fdinfo/" + name)
		if !ok {
			return hidden
		}
		if flags&syscall.O_ACCMODE != syscall.O_WRONLY {
			if pid == self {
				return stdioPipeWhy{stdioPipeOwnReader, n}
			}
			return stdioPipeWhy{stdioPipeOtherReader, pid}
		}
	}
	return stdioPipeWhy{}
}

// stdioProcSession is the session of process pid, the sixth field of
// /proc/PID/stat (after the command's name, in parentheses, which may
// hold anything).
func stdioProcSession(pid int) (int, bool) {
	var buf [512]byte
	n, ok := stdioProcRead("/proc/"+stdioItoa(pid)+"/stat", buf[:])
	if !ok {
		return 0, false
	}
	b := buf[:n]
	i := len(b) - 1
	for i >= 0 && b[i] != ')' {
		i--
	}
	if i < 0 {
		return 0, false
	}
	// State, parent, process group, session.
	field, start := 0, -1
	for j := i + 1; j <= len(b); j++ {
		if j < len(b) && b[j] != ' ' {
			if start < 0 {
				start = j
			}
			continue
		}
		if start >= 0 {
			if field == 3 {
				return stdioAtoi(string(b[start:j]), 10)
			}
			field++
			start = -1
		}
	}
	return 0, false
}

// stdioProcFlags is the value of the "flags:" line of a
// /proc/PID/fdinfo/N file, in octal.
func stdioProcFlags(path string) (int, bool) {
	var buf [1024]byte
	n, ok := stdioProcRead(path, buf[:])
	if !ok {
		return 0, false
	}
	b := buf[:n]
	const key = "flags:"
	for i := 0; i+len(key) <= len(b); i++ {
		if (i == 0 || b[i-1] == '\n') && string(b[i:i+len(key)]) == key {
			j := i + len(key)
			for j < len(b) && (b[j] == ' ' || b[j] == '\t') {
				j++
			}
			k := j
			for k < len(b) && b[k] >= '0' && b[k] <= '7' {
				k++
			}
			return stdioAtoi(string(b[j:k]), 8)
		}
	}
	return 0, false
}

// stdioProcGone reports whether process pid has ended (its /proc
// directory is gone).
func stdioProcGone(pid int) bool {
	var st syscall.Stat_t
	return syscall.Stat("/proc/"+stdioItoa(pid), &st) == syscall.ENOENT
}

// stdioProcRead reads the start of a /proc file into buf, with raw
// system calls (os's own are hooked under -files).
func stdioProcRead(path string, buf []byte) (int, bool) {
	fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return 0, false
	}
	n, err := stdioLinuxRead(fd, buf)
	syscall.Close(fd)
	return n, err == nil
}

// stdioProcList is the names in the directory dir.
func stdioProcList(dir string) ([]string, bool) {
	fd, err := syscall.Open(dir, syscall.O_RDONLY|syscall.O_DIRECTORY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return nil, false
	}
	defer syscall.Close(fd)
	var names []string
	buf := make([]byte, 8192)
	for {
		n, err := syscall.ReadDirent(fd, buf)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return nil, false
		}
		if n <= 0 {
			return names, true
		}
		_, _, names = syscall.ParseDirent(buf[:n], -1, names)
	}
}

// stdioAtoi is s as a number in base 8 or 10, if it is all digits.
func stdioAtoi(s string, base int) (int, bool) {
	if s == "" {
		return 0, false
	}
	n := 0
	for i := 0; i < len(s); i++ {
		d := int(s[i]) - '0'
		if d < 0 || d >= base {
			return 0, false
		}
		n = n*base + d
	}
	return n, true
}

// stdioLinuxRdev is stdioRdev on Linux: st_rdev of a block device.
func stdioLinuxRdev(fi FileInfo) (uint64, bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok || fi.Mode()&ModeType != ModeDevice {
		return 0, false
	}
	return uint64(st.Rdev), true
}

// stdioLinuxIDOf is stdioIDOf on Linux: a regular file's st_dev and
// st_ino, a block device's st_rdev; and the st_dev of its file system.
// A FileInfo of package os's own (every Stat, Lstat and DirEntry.Info)
// is read without an interface call: a stat per record pays this once.
func stdioLinuxIDOf(fi FileInfo) (stdioFileID, uint64, bool) {
	var st *syscall.Stat_t
	var m FileMode
	if fs, ok := fi.(*fileStat); ok {
		st, m = &fs.sys, fs.mode
	} else if st, ok = fi.Sys().(*syscall.Stat_t); ok {
		m = fi.Mode()
	} else {
		return stdioFileID{}, 0, false
	}
	switch {
	case m.IsRegular():
		return stdioFileID{uint64(st.Dev), uint64(st.Ino)}, uint64(st.Dev), true
	case m&ModeType == ModeDevice:
		return stdioFileID{uint64(st.Rdev), stdioDeviceIno}, uint64(st.Dev), true
	}
	return stdioFileID{}, 0, false
}

// stdioLinuxIdentOf is stdioIdentOf on Linux. A regular file of package
// os's own FileInfo on a block device's file system, or on the trusted
// file system last looked up (a tree on tmpfs), what a stat per record
// finds, is answered without another call.
func stdioLinuxIdentOf(fi FileInfo) (stdioFileID, uint64, uint8) {
	if fs, ok := fi.(*fileStat); ok && fs.mode.IsRegular() {
		if dev := uint64(fs.sys.Dev); !stdioAnonDev(dev) || stdioLinuxTrust.last.Load() == dev+1 {
			return stdioFileID{dev, uint64(fs.sys.Ino)}, dev, stdioIdentTrusted
		}
	}
	id, fsdev, ok := stdioLinuxIDOf(fi)
	switch {
	case !ok:
		return id, 0, stdioIdentNone
	case !stdioAnonDev(fsdev):
		return id, fsdev, stdioIdentTrusted
	}
	if trusted, known := stdioLinuxTrust.lookup(fsdev); known && trusted {
		return id, fsdev, stdioIdentTrusted
	}
	return id, fsdev, stdioIdentAsk
}

// stdioLinuxFDIdentity is stdioFDIdentity on Linux: the identity of
// the file fd leads to, from its fstat, if that is trusted
// (stdioFSTrusted, which may fstatfs it).
func stdioLinuxFDIdentity(fd int) (stdioFileID, bool) {
	var fs fileStat
	if err := ignoringEINTR(func() error { return syscall.Fstat(fd, &fs.sys) }); err != nil {
		return stdioFileID{}, false
	}
	fillFileStatFromSys(&fs, "")
	id, fsdev, ok := stdioLinuxIDOf(&fs)
	if !ok {
		return stdioFileID{}, false
	}
	return id, stdioFSTrusted(fsdev, stdioStatfsFrom{fd: fd, byFD: true})
}

// stdioLinuxTrust is what stdioFSTrusted has learnt of the file systems
// with anonymous device numbers, by device.
var stdioLinuxTrust stdioTrustCache

// stdioTrustCache holds, by device, whether a file system's identities
// are trusted. A stat per record on tmpfs reads it once per record, so
// it is read without a lock: a device's first answer replaces the map
// whole, under mu.
type stdioTrustCache struct {
	mu   sync.Mutex                      // serialises the replacements of m; never held across a system call
	m    atomic.Pointer[map[uint64]bool] // by st_dev, for devices of major number 0; never changed once stored
	last atomic.Uint64                   // 1 + a device that lookup last found trusted; 0 before
}

// Magic numbers of the file systems with anonymous device numbers whose
// files have one identity each (statfs(2)'s f_type).
const (
	stdioTmpfsMagic = 0x01021994
	stdioRamfsMagic = 0x858458f6
	stdioBtrfsMagic = 0x9123683e
)

// trusted is stdioFSTrusted on Linux. A file system on a block device
// (a device number of major number other than 0: ext4, XFS) gives each
// file one identity, whatever bind mounts show it. One with an
// anonymous device number (major 0) is tmpfs, ramfs or btrfs, which do
// too, or overlayfs, NFS, FUSE, CIFS, 9p, whose files may also be seen
// through another identity (overlayfs's layers, a server's other
// exports); statfs tells them apart, once per device, and a device
// whose type cannot be asked is not trusted and not remembered.
func (c *stdioTrustCache) trusted(dev uint64, statfs stdioStatfsFrom) bool {
	if !stdioAnonDev(dev) {
		return true
	}
	if v, ok := c.lookup(dev); ok {
		return v
	}
	var t int64
	if statfs.statfs(&t) != nil {
		return false
	}
	var v bool
	switch uint32(t) {
	case stdioTmpfsMagic, stdioRamfsMagic, stdioBtrfsMagic:
		v = true
	}
	c.mu.Lock()
	old := c.m.Load()
	var m map[uint64]bool
	if old == nil {
		m = make(map[uint64]bool, 1)
	} else {
		m = make(map[uint64]bool, len(*old)+1)
		for d, t := range *old {
			m[d] = t
		}
	}
	m[dev] = v
	c.m.Store(&m)
	c.mu.Unlock()
	if v {
		c.last.Store(dev + 1)
	}
	return v
}

// lookup returns what the cache knows of dev, and whether it knows.
func (c *stdioTrustCache) lookup(dev uint64) (trusted, known bool) {
	if p := c.m.Load(); p != nil {
		trusted, known = (*p)[dev]
	}
	if trusted && c.last.Load() != dev+1 {
		c.last.Store(dev + 1)
	}
	return trusted, known
}

// known reports whether trusted answers for dev without asking: a
// device of a block device's file system, or one asked before.
func (c *stdioTrustCache) known(dev uint64) bool {
	if !stdioAnonDev(dev) {
		return true
	}
	_, ok := c.lookup(dev)
	return ok
}

// knownTrusted reports whether dev, an anonymous device number, is known
// to be a file system whose identities are trusted (tmpfs, ramfs,
// btrfs), without asking: false where its type was not asked yet.
func (c *stdioTrustCache) knownTrusted(dev uint64) bool {
	v, _ := c.lookup(dev)
	return v
}

// stdioLinuxRefreshEntry is stdioRefreshEntry on Linux: a unixDirent
// that holds its FileInfo (read with the listing) gets a new one if its
// file was written out.
func stdioLinuxRefreshEntry(d DirEntry) {
	u, ok := d.(*unixDirent)
	if !ok || u.info == nil {
		return
	}
	name := u.parent + "/" + u.name
	if !stdioSeen(u.info, stdioStatfsOf(name)) {
		return
	}
	if fi, err := stdioRawLstat(name); err == nil {
		u.info = fi
	}
}
