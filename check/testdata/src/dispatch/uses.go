package dispatch

// The functions the package uses, so that none is left out as dead code.
var _ = []any{printAll, printOnce, eachRow, format, formatQuiet, renderAll, tabulate, tabulateQuiet, emitAll, copyRecords, copyQuiet}
