package main

// errorText returns err's text: Plan 9's errors are strings already.
func errorText(err error) string { return err.Error() }
