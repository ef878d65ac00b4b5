//go:build stdiobuf_std

// This template is merged into package syscall's syscall_linux_arm.go
// by `stdiobuf build -stdout`: the target's numbers for syscall_linux.go's
// template (its mmap is mmap2).

package syscall

func init() { stdioSetTraps(SYS_DUP2, SYS_MMAP2) }
