//go:build linux

package main

import (
	"fmt"
	"io"
	"math"
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
