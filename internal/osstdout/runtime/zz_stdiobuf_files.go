//go:build stdiobuf_std

// This file is added to package runtime by `stdiobuf build -stdout`: the
// channel by which package os, under -files, hands internal/poll the
// flush of its buffered files (poll cannot import os).

package runtime

import _ "unsafe" // for go:linkname

// stdioFilesFlush is os's flush of every buffered file, set once by os's
// init under -files; nil otherwise.
var stdioFilesFlush func()

//go:linkname os_stdioRegisterFiles os.runtime_stdioRegisterFiles
func os_stdioRegisterFiles(flush func()) { stdioFilesFlush = flush }

//go:linkname poll_stdioFlushFiles internal/poll.runtime_stdioFlushFiles
func poll_stdioFlushFiles() {
	if f := stdioFilesFlush; f != nil {
		f()
	}
}
