package sim

// computeReconvergence sets the reconvergence pc of every branch: the
// start of the immediate post-dominator of its region. The graph is over
// "regions" (maximal straight-line runs of code split after each control
// instruction and at block starts); an exit node collects exit/ret.
// Guarded exits do not count as edges to the exit node: lanes that leave
// there retire and never need to reconverge.
func (p *Program) computeReconvergence(blockPC []int32) {
	n := len(p.code)
	if n == 0 {
		return
	}
	leader := make([]bool, n+1)
	leader[0] = true
	for _, pc := range blockPC {
		if int(pc) < n {
			leader[pc] = true
		}
	}
	for pc := range p.code {
		if p.code[pc].ctl == ctlBra || p.code[pc].ctl == ctlBrx || p.code[pc].ctl == ctlExit || p.code[pc].ctl == ctlRet || p.code[pc].ctl == ctlTrap {
			leader[pc+1] = true
		}
	}
	region := make([]int32, n)
	var start []int32
	for pc := 0; pc < n; pc++ {
		if leader[pc] {
			start = append(start, int32(pc))
		}
		region[pc] = int32(len(start) - 1)
	}
	nr := len(start)
	exit := nr
	succ := make([][]int32, nr+1)
	for r := 0; r < nr; r++ {
		end := n
		if r+1 < nr {
			end = int(start[r+1])
		}
		last := &p.code[end-1]
		fall := true
		add := func(pc int32) {
			if pc < 0 || int(pc) >= n {
				succ[r] = append(succ[r], int32(exit))
				return
			}
			succ[r] = append(succ[r], region[pc])
		}
		switch last.ctl {
		case ctlBra:
			add(last.target)
			fall = last.hasG
		case ctlBrx:
			for _, t := range last.tgts {
				add(t)
			}
			fall = false
		case ctlExit, ctlRet, ctlTrap:
			if !last.hasG {
				succ[r] = append(succ[r], int32(exit))
				fall = false
			}
		}
		if fall {
			add(int32(end))
		}
	}
	// predecessors in the reverse graph are forward successors; do a DFS
	// from exit over reverse edges (forward predecessors).
	preds := make([][]int32, nr+1)
	for r := 0; r <= nr; r++ {
		for _, s := range succ[r] {
			preds[s] = append(preds[s], int32(r))
		}
	}
	order := make([]int32, 0, nr+1) // postorder on the reverse graph
	num := make([]int32, nr+1)
	for i := range num {
		num[i] = -1
	}
	type fr struct{ v, i int32 }
	stack := []fr{{int32(exit), 0}}
	num[exit] = -2
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		if int(top.i) < len(preds[top.v]) {
			u := preds[top.v][top.i]
			top.i++
			if num[u] == -1 {
				num[u] = -2
				stack = append(stack, fr{u, 0})
			}
			continue
		}
		num[top.v] = int32(len(order))
		order = append(order, top.v)
		stack = stack[:len(stack)-1]
	}
	ipdom := make([]int32, nr+1)
	for i := range ipdom {
		ipdom[i] = -1
	}
	ipdom[exit] = int32(exit)
	intersect := func(a, b int32) int32 {
		for a != b {
			for num[a] < num[b] {
				a = ipdom[a]
			}
			for num[b] < num[a] {
				b = ipdom[b]
			}
		}
		return a
	}
	for changed := true; changed; {
		changed = false
		for k := len(order) - 1; k >= 0; k-- {
			v := order[k]
			if int(v) == exit {
				continue
			}
			nd := int32(-1)
			for _, s := range succ[v] {
				if num[s] < 0 || ipdom[s] == -1 {
					continue
				}
				if nd == -1 {
					nd = s
				} else {
					nd = intersect(s, nd)
				}
			}
			if nd != -1 && ipdom[v] != nd {
				ipdom[v] = nd
				changed = true
			}
		}
	}
	for pc := range p.code {
		in := &p.code[pc]
		if in.ctl != ctlBra && in.ctl != ctlBrx {
			continue
		}
		r := region[pc]
		in.rpc = -1
		if d := ipdom[r]; d >= 0 && int(d) != exit {
			in.rpc = start[d]
		}
	}
}
