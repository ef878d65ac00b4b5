package seedinput

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// formatVersion is part of the cached file's name. Change it whenever Write
// starts producing other bytes, so that no old cache is taken for new input.
const formatVersion = 1

// FileName returns the name File gives the input for lines and seed.
func FileName(lines int, seed uint64) string {
	return fmt.Sprintf("head-input-v%d-lines%d-seed%d.txt", formatVersion, lines, seed)
}

// File returns the path of the input for lines and seed in dir, making it
// first when dir does not hold it yet. A file already there is reused when its
// size is the one Size gives; otherwise it is made anew. The file is written
// under a temporary name and renamed at the end, so an interrupted or failed
// write (a full disk) never leaves a truncated input that a later call would
// reuse. created reports whether File wrote the file.
func File(dir string, lines int, seed uint64) (path string, created bool, err error) {
	if lines < 0 {
		return "", false, fmt.Errorf("seedinput: negative line count %d", lines)
	}
	path = filepath.Join(dir, FileName(lines, seed))
	want := Size(lines, seed)
	switch st, err := os.Stat(path); {
	case err == nil && st.Mode().IsRegular() && st.Size() == want:
		return path, false, nil
	case err != nil && !errors.Is(err, fs.ErrNotExist):
		return "", false, err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", false, err
	}
	tmp, err := os.CreateTemp(dir, FileName(lines, seed)+".tmp*")
	if err != nil {
		return "", false, err
	}
	n, err := Write(tmp, lines, seed)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil && n != want {
		err = fmt.Errorf("seedinput: wrote %d bytes to %s, want %d", n, tmp.Name(), want)
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		os.Remove(tmp.Name())
		return "", false, fmt.Errorf("seedinput: making %s: %w", path, err)
	}
	return path, true, nil
}
