package stream

// errnoString reports no system error number: Plan 9's system calls fail
// with error strings, which are shown as they are.
func errnoString(err error) (string, bool) { return "", false }
