package silent

// The functions the package uses, so that none is left out as dead code.
var _ = []any{buffered, bufferedReads, constantLoops, copies, csvWriter, deadDebug, defaultLog, errorReports, inClosure, internalErrors, largeReads, leaving, maybeFile, memoryScanner, memoryVariable, notAFile, once, perFile, scanner, yyDebug}
