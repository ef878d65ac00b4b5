package scanner

// The functions the package uses, so that none is left out as dead code.
var _ = []any{checked, checkedInClosure, escapes, param, unchecked}
