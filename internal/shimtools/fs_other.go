//go:build !linux

package shimtools

import (
	"context"
	"errors"
)

var errLinuxOnly = errors.New("XFS loop mounts and statfs file-system names need Linux")

// CanMountXFS says whether MountXFS can work here: only on Linux.
func CanMountXFS() (ok bool, why string) { return false, errLinuxOnly.Error() }

// XFSOptions are the mount options MountXFS uses on Linux.
const XFSOptions = "loop,largeio,allocsize=128k"

// MountXFS fails outside Linux.
func MountXFS(ctx context.Context, dir string, size int64) (string, func() error, error) {
	return "", nil, errLinuxOnly
}

// FSType fails outside Linux.
func FSType(path string) (string, int64, error) { return "", 0, errLinuxOnly }
