package sim

// space is the memory of a .shared or .local state space: a flat slice
// when small, otherwise pages made (zeroed) on first touch, so a kernel
// declaring gigabytes it never uses runs, and one that uses them stops
// with a trap when the run's page budget is spent. The page table has
// two levels (a directory of page groups, each made on first touch), so
// even a space of hundreds of gigabytes costs little until it is used.
type space struct {
	flat  []byte
	size  uint64
	dir   [][][]byte // dir[g][k]: page g*groupPages+k, nil until touched
	live  []int32    // directory entries with a group made, for reset
	used  *int64     // the run's page bytes in use (shared by its spaces)
	limit int64
}

const (
	// flatLimit is the largest space kept as one slice.
	flatLimit = 1 << 20
	// spaceBudget bounds the page bytes of the paged spaces of one run.
	spaceBudget = 256 << 20
	// groupPages is the number of pages in one directory entry.
	groupPages = 1024
)

func newSpace(size uint64, used *int64) *space {
	if size <= flatLimit {
		return &space{flat: make([]byte, size), size: size}
	}
	npages := (size + pageSize - 1) / pageSize
	return &space{size: size, dir: make([][][]byte, (npages+groupPages-1)/groupPages), used: used, limit: spaceBudget}
}

// at returns bytes [off, off+n) (off+n <= size is checked by the
// caller), or nil and the reason.
func (s *space) at(off uint64, n int) ([]byte, string) {
	if s.dir == nil {
		return s.flat[off : off+uint64(n)], ""
	}
	p, in := off/pageSize, off%pageSize
	if in+uint64(n) > pageSize {
		return nil, "access across a page"
	}
	g := s.dir[p/groupPages]
	if g == nil {
		g = make([][]byte, groupPages)
		s.dir[p/groupPages] = g
		s.live = append(s.live, int32(p/groupPages))
	}
	pg := g[p%groupPages]
	if pg == nil {
		if *s.used+pageSize > s.limit {
			return nil, "the run's memory budget is spent"
		}
		*s.used += pageSize
		pg = make([]byte, pageSize)
		g[p%groupPages] = pg
	}
	return pg[in : in+uint64(n)], ""
}

// reset zeroes the space and gives its pages back to the budget.
func (s *space) reset() {
	if s.dir == nil {
		clear(s.flat)
		return
	}
	for _, gi := range s.live {
		for _, pg := range s.dir[gi] {
			if pg != nil {
				*s.used -= pageSize
			}
		}
		s.dir[gi] = nil
	}
	s.live = s.live[:0]
}
