package ipmain

// The functions the package uses, so that none is left out as dead code.
var _ = []any{report, rows, writer, encoders, csvEncoder, callback, logs, run, shows, raw, stderr, buffered, tables, errorBranches, failures}
