package sim

import "fmt"

// compareMem compares two memories made from clones of one: every byte
// of every allocation (a page of a lazy region one run never touched
// holds its fill).

func compareMem(a, b *Memory) *Mismatch {
	if len(a.allocs) != len(b.allocs) {
		return &Mismatch{Addr: 0, Output: fmt.Sprintf("the allocations differ: %d before, %d after (device heap)", len(a.allocs), len(b.allocs))}
	}
	for i, x := range a.allocs {
		y := b.allocs[i]
		if x.Base != y.Base || x.Size() != y.Size() || x.Lazy() != y.Lazy() {
			return &Mismatch{Addr: x.Base}
		}
		if !x.Lazy() {
			if mm := compareBytes(x.Base, x.Data, y.Data); mm != nil {
				return mm
			}
			continue
		}
		var fx, fy []byte
		for p := range x.pages {
			px, py := x.pages[p], y.pages[p]
			if px == nil && py == nil {
				continue
			}
			// a page one run never touched holds its fill
			if px == nil {
				fx = fillPage(x, fx, p)
				px = fx
			}
			if py == nil {
				fy = fillPage(y, fy, p)
				py = fy
			}
			if mm := compareBytes(x.Base+uint64(p)*pageSize, px, py); mm != nil {
				return mm
			}
		}
	}
	if mm := compareSurfaces(a, b); mm != nil {
		return mm
	}
	return compareOutput(a, b)
}

func fillPage(a *Alloc, buf []byte, p int) []byte {
	if buf == nil {
		buf = make([]byte, pageSize)
	}
	clear(buf)
	a.fill(buf, uint64(p)*pageSize)
	return buf
}

func compareBytes(base uint64, x, y []byte) *Mismatch {
	for k := range x {
		if x[k] != y[k] {
			return &Mismatch{Addr: base + uint64(k), Before: x[k], After: y[k]}
		}
	}
	return nil
}
