package events

// The functions the package uses, so that none is left out as dead code.
var _ = []any{watch, work, drain, testAll, commands, chunks, lengths, processAll, appendAll}
