package sim

import "github.com/ptxopt/ptxopt/ir"

// Coverage records which instructions of a program (and of the functions
// it calls) executed: on at least one lane, with the guard true. A run
// records into Launch.Cover; Merge adds one run's record to another.
type Coverage struct {
	hit [][]bool // by Program.idx, by pc
}

// of returns the record of program p, making it on first use (nil when c
// is nil: nothing is recorded).
func (c *Coverage) of(p *Program) []bool {
	if c == nil {
		return nil
	}
	for len(c.hit) <= p.idx {
		c.hit = append(c.hit, nil)
	}
	if c.hit[p.idx] == nil {
		c.hit[p.idx] = make([]bool, len(p.code))
	}
	return c.hit[p.idx]
}

// Merge adds the instructions o saw executed to c and returns how many
// of them c had not seen.
func (c *Coverage) Merge(o *Coverage) (added int) {
	for k, h := range o.hit {
		if h == nil {
			continue
		}
		for len(c.hit) <= k {
			c.hit = append(c.hit, nil)
		}
		if c.hit[k] == nil {
			c.hit[k] = make([]bool, len(h))
		}
		for pc, x := range h {
			if x && !c.hit[k][pc] {
				c.hit[k][pc] = true
				added++
			}
		}
	}
	return added
}

// Executed reports, by instruction ID of p's function, which instructions
// executed. p is the kernel's program or one of its callees (Programs).
func (c *Coverage) Executed(p *Program) []bool {
	out := make([]bool, p.f.NumInstrs())
	if c == nil || p.idx >= len(c.hit) || c.hit[p.idx] == nil {
		return out
	}
	for pc, x := range c.hit[p.idx] {
		if x && p.ids[pc] != ir.NoInstr {
			out[p.ids[pc]] = true
		}
	}
	return out
}

// Programs returns the program of the kernel and those of every function
// it calls (directly or not), in compile order.
func (p *Program) Programs() []*Program { return p.ml.list }
