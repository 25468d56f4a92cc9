package phases

import (
	"math/bits"

	"github.com/ptxopt/ptxopt/ir"
)

// freeRegs answers reuseFree's first-fit question, "the lowest register
// of type t, not a parameter, that no interfering class ends in (and,
// on the first try, that some class ends in already)", without a scan
// of every register per class: that scan made OutOfSSA quadratic in the
// function's size (1.1 s of a 1M-instruction kernel's 4.1 s). The
// candidates of each type are kept in ascending order; the ones some
// class ends in are a set over their positions with a summary level per
// 64 entries, so the lowest one is found in a few word operations. A
// query visits candidates in ascending order and stops at the first the
// caller has not excluded; the excluded ones are the interfering
// classes' registers and one preferred register, so it visits at most
// that many plus one.
type freeRegs struct {
	regs [][]ir.RegID // by type: the candidate registers, ascending
	at   []int32      // by register: its position in regs[type], -1 if not a candidate
	used []levelBits  // by type: positions of candidates some class ends in
}

func newFreeRegs(f *ir.Func, nr0 int, param []bool) *freeRegs {
	s := &freeRegs{at: make([]int32, nr0)}
	n := make([]int32, 256)
	for r := range nr0 {
		if !param[r] {
			n[f.RegType[r]]++
		}
	}
	s.regs = make([][]ir.RegID, 256)
	s.used = make([]levelBits, 256)
	for t, k := range n {
		if k > 0 {
			s.regs[t] = make([]ir.RegID, 0, k)
			s.used[t] = newLevelBits(int(k))
		}
	}
	for r := range nr0 {
		if param[r] {
			s.at[r] = -1
			continue
		}
		t := f.RegType[r]
		s.at[r] = int32(len(s.regs[t]))
		s.regs[t] = append(s.regs[t], ir.RegID(r))
	}
	return s
}

// markUsed records that some class ends in register r (below nr0).
func (s *freeRegs) markUsed(f *ir.Func, r ir.RegID) {
	if p := s.at[r]; p >= 0 {
		s.used[f.RegType[r]].add(int(p))
	}
}

// first returns the lowest candidate of type t that is neither taken nor
// not, among those some class ends in when usedOnly; NoReg if none.
func (s *freeRegs) first(t ir.Type, usedOnly bool, taken []bool, not ir.RegID) ir.RegID {
	regs := s.regs[t]
	if usedOnly {
		u := s.used[t]
		for p := u.next(0); p >= 0; p = u.next(p + 1) {
			if r := regs[p]; !taken[r] && r != not {
				return r
			}
		}
		return ir.NoReg
	}
	for _, r := range regs {
		if !taken[r] && r != not {
			return r
		}
	}
	return ir.NoReg
}

// levelBits is a set of small integers with summary levels: bit w of
// level l+1 is set when word w of level l is not zero, up to a level of
// one word, so the next member is found in a few word operations
// however sparse the set.
type levelBits [][]uint64

func newLevelBits(n int) levelBits {
	var s levelBits
	for {
		w := (n + 63) / 64
		s = append(s, make([]uint64, w))
		if w <= 1 {
			return s
		}
		n = w
	}
}

func (s levelBits) add(p int) {
	for l := range s {
		w := p >> 6
		old := s[l][w]
		s[l][w] = old | 1<<(p&63)
		if old != 0 {
			return // the levels above know word w already
		}
		p = w
	}
}

// next returns the smallest member not below p, or -1.
func (s levelBits) next(p int) int {
	for l := 0; l < len(s); l++ {
		w := p >> 6
		if w >= len(s[l]) {
			return -1
		}
		if m := s[l][w] & (^uint64(0) << (p & 63)); m != 0 {
			p = w<<6 + bits.TrailingZeros64(m)
			for ; l > 0; l-- {
				p = p<<6 + bits.TrailingZeros64(s[l-1][p])
			}
			return p
		}
		p = w + 1 // nothing left in word w: look from the next word up
	}
	return -1
}
