package writes

// The functions the package uses, so that none is left out as dead code.
var _ = []any{bigConstant, dump, encoders, fileMethods, forCond, fprintf, helper, logs, nested, println, provable, show, stderr, switchBreak, table, twoLoops}
