package report

import (
	"io"
	"strings"
	"text/tabwriter"
)

// Table is a table of text cells, printed as aligned text (for terminals)
// or as Markdown (for REPORT.md).
type Table struct {
	Head []string
	Rows [][]string
	// Left is how many leading columns are aligned left; the others are
	// aligned right (figures).
	Left int
}

// Add appends a row.
func (t *Table) Add(cells ...string) { t.Rows = append(t.Rows, cells) }

// Text prints the table with columns aligned by spaces.
func (t *Table) Text(w io.Writer) error {
	// Two writers: tabwriter aligns a whole table one way, so the left
	// columns are padded by hand.
	widths := make([]int, t.Left)
	for _, r := range append([][]string{t.Head}, t.Rows...) {
		for i := 0; i < t.Left && i < len(r); i++ {
			widths[i] = max(widths[i], len([]rune(r[i])))
		}
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	for _, r := range append([][]string{t.Head}, t.Rows...) {
		var b strings.Builder
		for i, c := range r {
			if i < t.Left {
				b.WriteString(c)
				switch {
				case i == len(r)-1:
				case i == t.Left-1:
					b.WriteString(strings.Repeat(" ", widths[i]-len([]rune(c))) + "\t")
				default:
					b.WriteString(strings.Repeat(" ", widths[i]-len([]rune(c))+2))
				}
				continue
			}
			b.WriteString(c + "\t")
		}
		b.WriteString("\n")
		if _, err := io.WriteString(tw, b.String()); err != nil {
			return err
		}
	}
	return tw.Flush()
}

// Markdown prints the table as a GitHub Markdown table.
func (t *Table) Markdown(w io.Writer) error {
	var b strings.Builder
	row := func(r []string) {
		b.WriteString("|")
		for _, c := range r {
			b.WriteString(" " + strings.ReplaceAll(c, "|", `\|`) + " |")
		}
		b.WriteString("\n")
	}
	row(t.Head)
	b.WriteString("|")
	for i := range t.Head {
		if i < t.Left {
			b.WriteString("---|")
		} else {
			b.WriteString("---:|")
		}
	}
	b.WriteString("\n")
	for _, r := range t.Rows {
		row(r)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// String returns the table as Markdown.
func (t *Table) String() string {
	var b strings.Builder
	t.Markdown(&b)
	return b.String()
}
