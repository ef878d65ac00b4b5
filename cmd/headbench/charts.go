//go:build linux

package main

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
)

// writeSweepSVG draws the sweep: median throughput against buffer size (log
// scale), one line per file system, each point with a bar from the slowest
// to the fastest run.
func (r *results) writeSweepSVG(w io.Writer) error {
	const (
		width, height            = 820, 440
		left, right, top, bottom = 70.0, 215.0, 45.0, 60.0
	)
	s := newSVG(width, height, "getdelim --loop: throughput against buffer size")
	s.text(width/2, 24, "middle", fmt.Sprintf("getdelim --loop -n %d, --policy BYTES (both streams): median MB/s", r.Input.Lines), ` font-size="14"`)

	var minSize, maxSize int64
	hi := 0.0
	for _, f := range r.Figures {
		if f.Kind != kindSweep || f.Wall == nil {
			continue
		}
		if minSize == 0 || f.Size < minSize {
			minSize = f.Size
		}
		maxSize = max(maxSize, f.Size)
		hi = max(hi, throughput(r.Input.Bytes, f.Wall.Min))
	}
	if minSize == 0 {
		s.text(width/2, height/2, "middle", "no sweep figure", "")
		return s.writeTo(w)
	}
	lo2, hi2 := math.Log2(float64(minSize)), math.Log2(float64(maxSize))
	if hi2-lo2 < 1 {
		lo2, hi2 = lo2-1, hi2+1
	}
	top2, step := niceAxis(hi)
	plotW, plotH := width-left-right, height-top-bottom
	x := func(size int64) float64 { return left + (math.Log2(float64(size))-lo2)/(hi2-lo2)*plotW }
	y := func(mbps float64) float64 { return top + plotH - mbps/top2*plotH }

	// Axes, grid and ticks.
	for v := 0.0; v <= top2+step/2; v += step {
		s.line(left, y(v), left+plotW, y(v), "#dddddd", 1, false)
		s.text(left-6, y(v)+4, "end", fmt.Sprintf("%.0f", v), "")
	}
	for e := math.Ceil(lo2); e <= hi2; e++ {
		size := int64(1) << int(e)
		s.line(x(size), top+plotH, x(size), top+plotH+5, "black", 1, false)
		s.text(x(size), top+plotH+18, "middle", sizeName(size), "")
	}
	s.line(left, top, left, top+plotH, "black", 1, false)
	s.line(left, top+plotH, left+plotW, top+plotH, "black", 1, false)
	s.text(left+plotW/2, height-18, "middle", "buffer size (bytes, log scale)", "")
	s.text(18, top+plotH/2, "middle", "MB/s", fmt.Sprintf(` transform="rotate(-90 18 %.1f)"`, top+plotH/2))

	for i, t := range r.Targets {
		color := seriesColor(i)
		var xs, ys []float64
		for _, f := range r.figuresOn(t.Name, kindSweep) {
			if f.Wall == nil {
				continue
			}
			px, py := x(f.Size), y(f.MBps)
			s.line(px, y(throughput(r.Input.Bytes, f.Wall.Max)), px, y(throughput(r.Input.Bytes, f.Wall.Min)), color, 1, false)
			s.circle(px, py, 3.5, color, fmt.Sprintf("%s on %s: %.0f MB/s, median %s", sizeName(f.Size), t.Name, f.MBps, msName(f.Wall.Median)))
			xs, ys = append(xs, px), append(ys, py)
		}
		if len(xs) == 0 {
			continue
		}
		s.polyline(xs, ys, color, "series")
		ly := top + 10 + float64(i)*20
		s.line(left+plotW+15, ly, left+plotW+40, ly, color, 2, false)
		s.text(left+plotW+46, ly+4, "start", fmt.Sprintf("%s, st_blksize %s", t.Name, sizeName(t.Blksize)), "")
	}
	return s.writeTo(w)
}

// writeBarsSVG draws one bar per policy and peer, grouped by file system:
// the median throughput, with a whisker from the slowest to the fastest run.
func (r *results) writeBarsSVG(w io.Writer) error {
	const (
		width          = 920
		labelW, valueW = 380.0, 150.0
		rowH, headH    = 22.0, 30.0
		top, bottom    = 50.0, 40.0
	)
	rows, hi := 0, 0.0
	for _, t := range r.Targets {
		for _, f := range r.figuresOn(t.Name, kindPolicy, kindPeer) {
			rows++
			if f.Wall != nil {
				hi = max(hi, throughput(r.Input.Bytes, f.Wall.Min))
			}
		}
	}
	height := int(top + bottom + float64(len(r.Targets))*headH + float64(rows)*rowH)
	s := newSVG(width, height, "headbench: throughput per policy and peer")
	s.text(width/2, 24, "middle", fmt.Sprintf("head -n %d: median MB/s (more is faster); whiskers: slowest to fastest run", r.Input.Lines), ` font-size="14"`)
	top2, step := niceAxis(hi)
	barW := width - labelW - valueW - 20
	x := func(mbps float64) float64 { return labelW + mbps/top2*barW }
	plotBottom := float64(height) - bottom
	for v := 0.0; v <= top2+step/2; v += step {
		s.line(x(v), top, x(v), plotBottom, "#dddddd", 1, false)
		s.text(x(v), plotBottom+16, "middle", fmt.Sprintf("%.0f", v), "")
	}
	s.text(labelW+barW/2, plotBottom+32, "middle", "MB/s", "")

	yy := top
	for _, t := range r.Targets {
		s.text(8, yy+20, "start", fmt.Sprintf("fs=%s: %s, st_blksize %d", t.Name, t.FSType, t.Blksize), ` font-weight="bold"`)
		yy += headH
		for _, f := range r.figuresOn(t.Name, kindPolicy, kindPeer) {
			s.text(labelW-8, yy+rowH/2+4, "end", f.Title, "")
			if f.Wall == nil {
				s.text(labelW+4, yy+rowH/2+4, "start", "no run succeeded", "")
				yy += rowH
				continue
			}
			fill := "#4c78a8"
			if f.Kind == kindPeer {
				fill = "#9d9d9d"
			}
			if f.Key == baselineKey {
				fill = "#f58518"
			}
			s.rect(labelW, yy+3, x(f.MBps)-labelW, rowH-6, fill, "bar",
				fmt.Sprintf("%s on %s: %.0f MB/s, median %s", f.Title, t.Name, f.MBps, msName(f.Wall.Median)))
			mid := yy + rowH/2
			s.line(x(throughput(r.Input.Bytes, f.Wall.Max)), mid, x(throughput(r.Input.Bytes, f.Wall.Min)), mid, "black", 1, false)
			label := fmt.Sprintf("%.0f MB/s", f.MBps)
			if f.Speedup != nil {
				label += fmt.Sprintf(" (%.2fx)", *f.Speedup)
			}
			s.text(labelW+barW+10, mid+4, "start", label, "")
			yy += rowH
		}
	}
	return s.writeTo(w)
}

// writeRulesSVG draws the table of the world's rules: one panel per path,
// in each a group of bars per file system, one bar per policy (and, on the
// loop path, per C loop), as high as its median time over policy bufio's
// on the same path and file system, with a tick at the same ratio of CPU
// time and a line at 1 (bufio).
func (r *results) writeRulesSVG(w io.Writer) error {
	const (
		width                    = 920
		panelH, gap              = 250.0, 50.0
		left, right, top, bottom = 60.0, 180.0, 60.0, 0.0
	)
	type panel struct {
		title string
		rows  []ruleRow
	}
	var panels []panel
	hi := 1.0
	for _, path := range pathNames {
		var rows []ruleRow
		for _, row := range ruleRows() {
			if (path == pathCopy) != strings.HasPrefix(row.key, "path="+pathCopy+"/") {
				continue
			}
			for _, f := range r.Figures {
				if f.Key == row.key && f.VsBufio != nil {
					hi = max(hi, *f.VsBufio)
					if f.CPUVsBufio != nil {
						hi = max(hi, *f.CPUVsBufio)
					}
					if !slices.Contains(rows, row) {
						rows = append(rows, row)
					}
				}
			}
		}
		if len(rows) > 0 {
			title := "getdelim --loop (one getdelim and one fwrite per record) and the C loop"
			if path == pathCopy {
				title = "getdelim -n (records copied straight from the buffer)"
			}
			panels = append(panels, panel{title, rows})
		}
	}
	height := int(top + bottom + float64(max(len(panels), 1))*(panelH+gap))
	s := newSVG(width, height, "the world's buffering rules: time against Go's bufio")
	s.text(width/2, 20, "middle", fmt.Sprintf("head -n %d: median time over policy bufio's (4 KiB) on the same path and file system; below 1 is faster", r.Input.Lines), ` font-size="14"`)
	s.text(width/2, 38, "middle", "bars: wall time; black ticks: CPU time (user + system), which a busy machine disturbs less", "")
	if len(panels) == 0 {
		s.text(width/2, float64(height)/2, "middle", "no figure with a bufio reference", "")
		return s.writeTo(w)
	}
	top2, step := niceAxis(hi)
	plotW := width - left - right
	for pi, p := range panels {
		y0 := top + float64(pi)*(panelH+gap) + 20
		plotH := panelH - 40
		y := func(v float64) float64 { return y0 + plotH - v/top2*plotH }
		s.text(left, y0-8, "start", p.title, ` font-weight="bold"`)
		for v := 0.0; v <= top2+step/2; v += step {
			s.line(left, y(v), left+plotW, y(v), "#dddddd", 1, false)
			s.text(left-6, y(v)+4, "end", fmt.Sprintf("%.1f", v), "")
		}
		s.line(left, y(1), left+plotW, y(1), "black", 1, true)
		s.line(left, y0, left, y0+plotH, "black", 1, false)
		groupW := plotW / float64(len(r.Targets))
		barW := groupW * 0.8 / float64(len(p.rows))
		for ti, t := range r.Targets {
			gx := left + float64(ti)*groupW + groupW*0.1
			s.text(gx+groupW*0.4, y0+plotH+16, "middle", fmt.Sprintf("%s (%s)", t.Name, sizeName(t.Blksize)), "")
			for ri, row := range p.rows {
				for _, f := range r.figuresOn(t.Name, kindPolicy, kindPeer) {
					if f.Key != row.key || f.VsBufio == nil {
						continue
					}
					bx := gx + float64(ri)*barW
					s.rect(bx, y(*f.VsBufio), barW-1, y(0)-y(*f.VsBufio), ruleColor(row.key, ri), "bar",
						fmt.Sprintf("%s on %s: %.2fx bufio's time, median %s", row.name, t.Name, *f.VsBufio, msName(f.Wall.Median)))
					if f.CPUVsBufio != nil {
						s.line(bx, y(*f.CPUVsBufio), bx+barW-1, y(*f.CPUVsBufio), "black", 2, false)
					}
				}
			}
		}
		s.line(left, y(0), left+plotW, y(0), "black", 1, false)
		for ri, row := range p.rows {
			ly := y0 + 10 + float64(ri)*18
			s.rect(left+plotW+15, ly-9, 14, 12, ruleColor(row.key, ri), "legend", row.rule)
			s.text(left+plotW+35, ly+1, "start", row.short, "")
		}
	}
	return s.writeTo(w)
}

// ruleColor is the colour of the i-th bar of a group: a C loop is grey.
func ruleColor(key string, i int) string {
	if strings.HasPrefix(key, "peer=") {
		return [...]string{"#7f7f7f", "#c7c7c7"}[i%2]
	}
	return seriesColor(i)
}
