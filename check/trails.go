package check

// A function's summary keeps, for each parameter (or file) it writes
// through and each value its results hold, the writes it reaches apart:
// gotestsum's run reaches a Flush per event through each of its output
// formats and a Fprintf per failed test through its summary, all through
// opts.stdout, and each is a finding of its own where a caller gives it
// standard output. Past maxTrails writes, the others merge into the first
// (the one of higher rank kept), so that a function that reaches many
// writes (a printer of every node of a syntax tree) keeps a summary of
// bounded size. A summary holds at most maxSummary entries in all: one
// of a large interpreter's functions (csvq's query package) reaches
// thousands of writes through as many fields and files, and each new
// entry costs a pass over the others; past that, an entry like none
// held is dropped, and the check may miss a write there, never add one.
const (
	maxTrails  = 32
	maxSummary = 512
)

// mergeTrails adds x to list: it replaces the entry like it (same) that
// reaches the same write where x ranks higher, is added where fewer than
// maxTrails like it reach other writes (and list holds fewer than
// maxSummary), and otherwise merges into the first like it, or is
// dropped where none is like it. It reports whether list changed.
func mergeTrails[T any](list []T, x T, same func(T) bool, trail func(T) Trail, rank func(T) int) ([]T, bool) {
	first, n := -1, 0
	xt := trail(x)
	for i, old := range list {
		if !same(old) {
			continue
		}
		if first < 0 {
			first = i
		}
		n++
		if ot := trail(old); ot.key() == xt.key() && ot.What == xt.What && ot.Flush == xt.Flush {
			if rank(x) > rank(old) {
				list[i] = x
				return list, true
			}
			return list, false
		}
	}
	if n < maxTrails && len(list) < maxSummary {
		return append(list, x), true
	}
	if first < 0 {
		return list, false
	}
	if rank(x) > rank(list[first]) {
		list[first] = x
		return list, true
	}
	return list, false
}

// key tells the write a trail reaches from every other: its package and
// position (oj/writer.go:146 and sen/writer.go:146 are two writes).
func (t Trail) key() string { return t.Pkg + " " + t.At }
