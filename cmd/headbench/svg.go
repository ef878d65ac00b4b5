//go:build linux

package main

import (
	"encoding/xml"
	"fmt"
	"io"
	"math"
	"strings"
)

// svg builds a standalone SVG document. It is small on purpose: the charts
// need lines, rectangles, circles and text, and no dependency.
type svg struct {
	b strings.Builder
}

// newSVG starts a document of width x height pixels.
func newSVG(width, height int, title string) *svg {
	s := &svg{}
	fmt.Fprintf(&s.b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="sans-serif" font-size="12">`+"\n",
		width, height, width, height)
	fmt.Fprintf(&s.b, "<title>%s</title>\n", xmlText(title))
	fmt.Fprintf(&s.b, `<rect x="0" y="0" width="%d" height="%d" fill="white"/>`+"\n", width, height)
	return s
}

func (s *svg) line(x1, y1, x2, y2 float64, stroke string, width float64, dash bool) {
	d := ""
	if dash {
		d = ` stroke-dasharray="3,3"`
	}
	fmt.Fprintf(&s.b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="%s" stroke-width="%.1f"%s/>`+"\n", x1, y1, x2, y2, stroke, width, d)
}

// rect draws a filled rectangle; class lets a reader (or a test) tell the
// data from the decoration.
func (s *svg) rect(x, y, w, h float64, fill, class, tooltip string) {
	fmt.Fprintf(&s.b, `<rect class="%s" x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="%s">`, class, x, y, max(w, 0), max(h, 0), fill)
	fmt.Fprintf(&s.b, "<title>%s</title></rect>\n", xmlText(tooltip))
}

func (s *svg) circle(x, y, r float64, fill, tooltip string) {
	fmt.Fprintf(&s.b, `<circle cx="%.1f" cy="%.1f" r="%.1f" fill="%s"><title>%s</title></circle>`+"\n", x, y, r, fill, xmlText(tooltip))
}

func (s *svg) polyline(xs, ys []float64, stroke, class string) {
	var pts []string
	for i := range xs {
		pts = append(pts, fmt.Sprintf("%.1f,%.1f", xs[i], ys[i]))
	}
	fmt.Fprintf(&s.b, `<polyline class="%s" points="%s" fill="none" stroke="%s" stroke-width="2"/>`+"\n", class, strings.Join(pts, " "), stroke)
}

// text writes t at (x, y); anchor is start, middle or end.
func (s *svg) text(x, y float64, anchor, t string, attrs string) {
	fmt.Fprintf(&s.b, `<text x="%.1f" y="%.1f" text-anchor="%s"%s>%s</text>`+"\n", x, y, anchor, attrs, xmlText(t))
}

// writeTo ends the document and writes it.
func (s *svg) writeTo(w io.Writer) error {
	s.b.WriteString("</svg>\n")
	_, err := io.WriteString(w, s.b.String())
	return err
}

// xmlText escapes s for XML character data and attribute values.
func xmlText(s string) string {
	var b strings.Builder
	xml.EscapeText(&b, []byte(s))
	return b.String()
}

// niceAxis returns an axis top at or above hi and a tick step of 1, 2 or 5
// times a power of ten, giving four to ten ticks.
func niceAxis(hi float64) (top, step float64) {
	if hi <= 0 || math.IsNaN(hi) || math.IsInf(hi, 0) {
		return 1, 0.2
	}
	raw := hi / 5
	pow := math.Pow(10, math.Floor(math.Log10(raw)))
	step = 10 * pow
	for _, m := range []float64{1, 2, 5} {
		if m*pow >= raw {
			step = m * pow
			break
		}
	}
	return math.Ceil(hi/step) * step, step
}

// seriesColor returns the colour of the i-th series.
func seriesColor(i int) string {
	colors := [...]string{"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf"}
	return colors[i%len(colors)]
}
