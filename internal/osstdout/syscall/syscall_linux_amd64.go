//go:build stdiobuf_std

// This template is merged into package syscall's syscall_linux_amd64.go
// by `stdiobuf build -stdout`: the target's numbers for syscall_linux.go's
// template.

package syscall

func init() { stdioSetTraps(SYS_DUP2, SYS_MMAP) }
