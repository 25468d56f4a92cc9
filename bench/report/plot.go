package report

import (
	"fmt"
	"image/color"
	"math"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
)

// Series is one line of a plot: at each X, the summary of the runs.
type Series struct {
	Name string
	X    []float64
	Y    []Summary
}

// seriesXY draws a Series: medians, with min–max error bars.
type seriesXY struct{ s Series }

func (s seriesXY) Len() int                    { return len(s.s.X) }
func (s seriesXY) XY(i int) (float64, float64) { return s.s.X[i], s.s.Y[i].Median }
func (s seriesXY) YError(i int) (float64, float64) {
	y := s.s.Y[i]
	return y.Median - y.Min, y.Max - y.Median
}

// LogLog is a log-log plot of series against a size, with a linear
// reference (slope 1) through the first point of the first series.
type LogLog struct {
	Title, XLabel, YLabel string
	Series                []Series
	RefLabel              string // legend of the reference; "" for none
}

// Save writes the plot as SVG (the format follows the file's extension).
func (l *LogLog) Save(path string) error {
	p := plot.New()
	p.Title.Text = l.Title
	p.X.Label.Text = l.XLabel
	p.Y.Label.Text = l.YLabel
	p.X.Scale, p.Y.Scale = plot.LogScale{}, plot.LogScale{}
	p.X.Tick.Marker, p.Y.Tick.Marker = logTicks{}, logTicks{}
	p.Legend.Top, p.Legend.Left = true, true
	p.Add(plotter.NewGrid())
	xmin, xmax, ymin := math.Inf(1), math.Inf(-1), math.Inf(1)
	n := 0
	for i, s := range l.Series {
		var keep Series
		keep.Name = s.Name
		for j := range s.X {
			// A log scale cannot show zero or missing figures.
			if s.Y[j].OK() && s.Y[j].Min > 0 && s.X[j] > 0 {
				keep.X = append(keep.X, s.X[j])
				keep.Y = append(keep.Y, s.Y[j])
				xmin, xmax, ymin = math.Min(xmin, s.X[j]), math.Max(xmax, s.X[j]), math.Min(ymin, s.Y[j].Min)
			}
		}
		if len(keep.X) == 0 {
			continue
		}
		n++
		line, pts, err := plotter.NewLinePoints(seriesXY{keep})
		if err != nil {
			return err
		}
		line.Color = plotutil.Color(i)
		line.Width = vg.Points(1.2)
		pts.Color = plotutil.Color(i)
		pts.Shape = plotutil.Shape(i)
		eb, err := plotter.NewYErrorBars(seriesXY{keep})
		if err != nil {
			return err
		}
		eb.Color = plotutil.Color(i)
		p.Add(line, pts, eb)
		p.Legend.Add(s.Name, line, pts)
	}
	if n == 0 {
		return fmt.Errorf("%s: nothing to plot", l.Title)
	}
	if l.RefLabel != "" && len(l.Series) > 0 && len(l.Series[0].X) > 0 && l.Series[0].Y[0].OK() {
		x0, y0 := l.Series[0].X[0], l.Series[0].Y[0].Median
		ref := plotter.XYs{{X: x0, Y: y0}, {X: xmax, Y: y0 * xmax / x0}}
		rl, err := plotter.NewLine(ref)
		if err != nil {
			return err
		}
		rl.Color = color.Gray{Y: 96}
		rl.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
		p.Add(rl)
		p.Legend.Add(l.RefLabel, rl)
	}
	p.X.Min, p.X.Max = xmin/1.3, xmax*1.3
	// Room at the top for the legend: the data keep the lower part of the
	// log range, the legend's entries the upper.
	p.Y.Min = ymin / 1.5
	ymax := math.Inf(-1)
	for _, s := range l.Series {
		for _, y := range s.Y {
			if y.OK() {
				ymax = math.Max(ymax, y.Max)
			}
		}
	}
	if l.RefLabel != "" && len(l.Series) > 0 && len(l.Series[0].X) > 0 && l.Series[0].Y[0].OK() {
		ymax = math.Max(ymax, l.Series[0].Y[0].Median*xmax/l.Series[0].X[0])
	}
	entries := n + 1
	legendFrac := math.Min(0.6, float64(entries)*0.04)
	p.Y.Max = p.Y.Min * math.Pow(ymax*1.2/p.Y.Min, 1/(1-legendFrac))
	return p.Save(7*vg.Inch, 4.5*vg.Inch, path)
}

// Bars is a horizontal bar chart: one bar per label, in the given order
// from the top, each bar the median of its runs with a min–max error bar.
type Bars struct {
	Title, XLabel string
	Labels        []string
	Values        []Summary
	// Ref, when not NaN, draws a vertical line at that value (labelled RefLabel).
	Ref      float64
	RefLabel string
}

// barSpread places the min–max error bars of a horizontal bar chart: the
// bar of Values[i] is drawn at y = n-1-i (the first on top). Bars of one
// run have no spread to show and get none.
type barSpread struct {
	y []float64
	s []Summary
}

func newBarSpread(vals []Summary) barSpread {
	var b barSpread
	for i, v := range vals {
		if v.N > 1 {
			b.y = append(b.y, float64(len(vals)-1-i))
			b.s = append(b.s, v)
		}
	}
	return b
}

func (b barSpread) Len() int                    { return len(b.s) }
func (b barSpread) XY(i int) (float64, float64) { return b.s[i].Median, b.y[i] }
func (b barSpread) XError(i int) (float64, float64) {
	return b.s[i].Median - b.s[i].Min, b.s[i].Max - b.s[i].Median
}

// Save writes the chart as SVG.
func (b *Bars) Save(path string) error {
	if len(b.Values) == 0 {
		return fmt.Errorf("%s: nothing to plot", b.Title)
	}
	p := plot.New()
	p.Title.Text = b.Title
	p.X.Label.Text = b.XLabel
	// Bars are drawn bottom-up; reverse so the first label is on top.
	n := len(b.Values)
	vals := make(plotter.Values, n)
	labels := make([]string, n)
	for i := range n {
		vals[n-1-i] = b.Values[i].Median
		labels[n-1-i] = b.Labels[i]
	}
	bc, err := plotter.NewBarChart(vals, vg.Points(10))
	if err != nil {
		return err
	}
	bc.Horizontal = true
	bc.Color = plotutil.Color(0)
	bc.LineStyle.Width = 0
	p.Add(plotter.NewGrid(), bc)
	if sp := newBarSpread(b.Values); sp.Len() > 0 {
		eb, err := plotter.NewXErrorBars(sp)
		if err != nil {
			return err
		}
		eb.Color = color.Black
		eb.CapWidth = vg.Points(6)
		p.Add(eb)
	}
	p.NominalY(labels...)
	p.X.Min = 0
	top := 0.0
	for _, v := range b.Values {
		top = math.Max(top, v.Max)
	}
	if !math.IsNaN(b.Ref) {
		top = math.Max(top, b.Ref)
	}
	p.X.Max = top * 1.15
	p.X.Tick.Marker = linearTicks{}
	if !math.IsNaN(b.Ref) {
		rl, err := plotter.NewLine(plotter.XYs{{X: b.Ref, Y: -0.5}, {X: b.Ref, Y: float64(n) - 0.5}})
		if err != nil {
			return err
		}
		rl.Color = color.Gray{Y: 96}
		rl.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
		p.Add(rl)
		p.Legend.Add(b.RefLabel, rl)
		p.Legend.Top = true
	}
	// Room for the title's lines (the machine is on a line of its own).
	lines := strings.Count(b.Title, "\n") + 1
	h := vg.Length(n)*vg.Points(16) + vg.Inch + vg.Length(lines-1)*vg.Points(14)
	return p.Save(7*vg.Inch, h, path)
}

// logTicks marks a log axis at 1, 2 and 5 times the powers of ten
// (labelled) and at the other integers times them (unlabelled), so short
// ranges get labels too.
type logTicks struct{}

func (logTicks) Ticks(lo, hi float64) []plot.Tick {
	// Over three decades and more, only the powers of ten are labelled.
	wide := math.Log10(hi/lo) >= 3
	var ticks []plot.Tick
	for e := math.Floor(math.Log10(lo)); e <= math.Ceil(math.Log10(hi)); e++ {
		base := math.Pow(10, e)
		for m := 1; m < 10; m++ {
			v := base * float64(m)
			if v < lo || v > hi {
				continue
			}
			t := plot.Tick{Value: v}
			if m == 1 || !wide && (m == 2 || m == 5) {
				t.Label = strconv.FormatFloat(v, 'g', -1, 64)
				if v >= 1000 {
					t.Label = group(strconv.FormatFloat(v, 'f', 0, 64))
				}
			}
			ticks = append(ticks, t)
		}
	}
	return ticks
}

// linearTicks marks a linear axis from zero in steps of 1, 2 or 5 times a
// power of ten: three to six labelled steps over the range.
type linearTicks struct{}

func (linearTicks) Ticks(lo, hi float64) []plot.Tick {
	if hi <= lo {
		return nil
	}
	raw := (hi - lo) / 6
	base := math.Pow(10, math.Floor(math.Log10(raw)))
	step := 10 * base
	for _, m := range []float64{1, 2, 5} {
		if base*m >= raw {
			step = base * m
			break
		}
	}
	var ticks []plot.Tick
	for k := math.Ceil(lo / step); k*step <= hi; k++ {
		v := k * step
		ticks = append(ticks, plot.Tick{Value: v, Label: strconv.FormatFloat(v, 'g', 6, 64)})
	}
	return ticks
}
