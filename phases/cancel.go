package phases

// Cancellation inside the long phases. The driver checks the run's
// context between phases; the phases whose loops run long on large
// functions (OutOfSSA, CSSA, OriDoPredication, the live/dead sweeps,
// GvnCse, LateOriCommoning, LICM; GeneralOptimize between its rounds)
// also poll it, through a poller, every pollEvery iterations of their
// per-block, per-register or per-loop loops, and return early. They stop
// only where what they did so far leaves a correct function (every edit
// made is complete and the analyses it staled are dropped), or, where
// that is not so, poll only before they start editing.

// pollEvery is how many iterations of a long loop pass between two
// polls of Pass.Canceled.
const pollEvery = 64

// poller counts the iterations of a pass's long loops and polls the run's
// context every pollEvery of them. Once it has seen the cancellation it
// says so on every call. A nil poller never stops (the passes' helpers
// run without one in tests).
type poller struct {
	p    *Pass
	n    uint32
	done bool
	// stopper: the test hooks when they ask to stop this phase
	// (testStopped); nil otherwise
	stopper *testHooks
}

// newPoller returns the pass's poller, reset (one per pass run, in the
// Pass: nothing allocated per phase).
func newPoller(p *Pass) *poller {
	p.poll = poller{p: p}
	if h := p.hooks(); h != nil && h.stopPhase != "" && p.Phase != nil && p.Phase.Name == h.stopPhase {
		p.poll.stopper = h
	}
	return &p.poll
}

// stop counts one iteration and reports, at every pollEvery-th (and
// from then on), whether the run has been canceled.
func (c *poller) stop() bool {
	if c == nil {
		return false
	}
	if !c.done {
		c.n++
		if c.stopper != nil {
			c.done = c.testStopped()
		} else {
			c.done = c.n%pollEvery == 0 && c.p.Canceled()
		}
	}
	return c.done
}

// now polls at once.
func (c *poller) now() bool {
	if c == nil {
		return false
	}
	if !c.done {
		if c.stopper != nil {
			c.n++
			c.done = c.testStopped()
		} else {
			c.done = c.p.Canceled()
		}
	}
	return c.done
}

// testStopped reports the stop a test asked for (testHooks.stopPhase) at
// this poll: from the stopAt-th on.
func (c *poller) testStopped() bool {
	if c.n < c.stopper.stopAt {
		return false
	}
	c.stopper.stopsFired.Add(1)
	return true
}
