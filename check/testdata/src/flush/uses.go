package flush

// The functions the package uses, so that none is left out as dead code.
var _ = []any{closure, deferredLiteral, early, exitBeforeWrite, exits, failed, finish, flushedEverywhere, neverFlushed, panics, passed, report, returned, stored}
