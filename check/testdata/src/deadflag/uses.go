package deadflag

// The functions the package uses, so that none is left out as dead code.
var _ = []any{diffAll, liveAll, traceAll}
