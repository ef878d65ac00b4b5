package scanmain

import (
	"example.com/colorlib"
	"example.com/scanlib"
	"io"
	"os"
)

// A handler that formats each record with a formatter of the library's
// and copies it to a file it creates.
type formatHandler struct {
	f    scanlib.Formatter
	copy *os.File
}

func (h *formatHandler) Event(rec string) error { // want Event:`sink\(0.copy call=false loop=false\) sink\(0.f method=Format call=false loop=false\) sink\(0.f call=true loop=false\)`
	if h.copy != nil {
		h.copy.WriteString(rec)
	}
	return h.f.Format(rec)
}

func newFormatHandler(name, copyName string) (*formatHandler, error) {
	h := &formatHandler{f: scanlib.NewFormatter(colorlib.Output, name)}
	var err error
	if copyName != "" {
		h.copy, err = os.Create(copyName)
	}
	return h, err
}

// Each format's write is a finding of its own; the quiet format's, in
// blocks that return an error, are not per record.
func scanFormats(in io.Reader, name, copyName string) error {
	h, err := newFormatHandler(name, copyName)
	if err != nil {
		return err
	}
	return scanlib.Scan(scanlib.Config{In: in, Handler: h}) // want `^per-record write to os.Stdout via scanlib.Scan\(cfg.Handler\) -> scanlib.NewFormatter\(out\): fmt.Fprintln \(format.go:29\) .*-stdout$` `^per-record Flush of a buffer over os.Stdout via scanlib.Scan\(cfg.Handler\) -> scanlib.NewFormatter\(out\): bufio.Writer.Flush \(format.go:37\)` `^per-record write to a file from os.Create via scanlib.Scan\(cfg.Handler\) -> \(\*formatHandler\).Event\(h.copy\): File.WriteString \(formats.go:19\) .*-files$`
}

var _ = scanFormats

// Silent: making a formatter per name writes nothing; the func literal
// converted to the formatter's type runs only when it is called.
func makeMany(names []string) {
	for _, n := range names {
		newFormatHandler(n, "")
	}
}

var _ = makeMany
