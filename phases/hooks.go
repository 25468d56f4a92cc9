package phases

import "sync/atomic"

// testHooks holds the switches tests turn on to check a pass against a
// slower way of doing its work, and the counters they read to know that
// their kernels took the path they test. A test sets it on the Config it
// runs (Config.hooks); in production it is nil, and a pass pays a nil
// test where it would count or check (once per event: a sweep, a walk, a
// refresh — per instruction only where a check switch is on, or through
// a flag a pass caches at its start). Living in the configuration rather
// than in package variables, two tests running at once (t.Parallel) do
// not see each other's switches or counts. The counters are atomic
// because the workers of one run may share a Config.
type testHooks struct {
	// GeneralOptimize (generalopt_du.go, generalopt_dead.go,
	// generalopt_dirty.go, generalopt_merge.go).

	// earlySubs, when not nil, are the sub-passes GeneralOptimizeEarly's
	// slot runs in place of its bundle's (runSubs: tests of some
	// sub-passes on their own).
	earlySubs []subPass

	// duCheck: compare every refreshed set of def-use chains, and dead
	// code's read counts from logged chains, with a new computation
	// (checkDefUse, checkUseCounts; they panic on a difference).
	duCheck bool
	// deadRefreshFirst: dead code refreshes the chains and counts every
	// register's reads from them (as before deadUseCounts and
	// deadUsesKept).
	deadRefreshFirst bool
	// deadFullSweeps: every dead-code sweep is a full one.
	deadFullSweeps bool
	// prefixRewrite: the local walk rewrites every instruction of the
	// blocks it walks (prefixUnchanged never holds); prefixCheck: it
	// rewrites the instructions it passes over as well (checkPrefix) and
	// panics if that edits one.
	prefixRewrite, prefixCheck bool

	// duRefreshes counts the refreshes of logged chains; deadLoggedCounts
	// and deadKeptCounts the dead-code sweeps that counted reads from
	// logged chains and that kept the last sweep's counts; deadCandSweeps
	// the sweeps over candidates; deadFirstPassSweeps those whose passes
	// after the first visited candidates only after a first pass that
	// removed something, deadFirstPassLater those of them whose later
	// passes removed something; prefixSkipped the instructions the local
	// walk passed over; dirtyReuse and dirtyMerge the registers whose add
	// uses followSeed left and whose uses' blocks markMergeUses left
	// unmarked; mergeLateBlocks, in check mode, the blocks the merge
	// sub-pass walked that only the flush or markMergeUses marked.
	duRefreshes, deadLoggedCounts, deadKeptCounts  atomic.Int64
	deadCandSweeps, deadFirstPassSweeps            atomic.Int64
	deadFirstPassLater, prefixSkipped              atomic.Int64
	dirtyReuse, dirtyMerge, mergeLateBlocks        atomic.Int64
	texLimitTraces, killSecondVisited, killSkipped atomic.Int64
	// settledRounds counts the GeneralOptimize runs that skipped their
	// rounds as settled (Pass.roundsSettled).
	settledRounds atomic.Int64

	// Liveness-based dead code (livedead.go): minScan, when positive,
	// replaces the floor of the cascade's walk budget (tests lower it to
	// mix walks and the whole-range analysis); wholeRangeOnly makes the
	// cascade take the whole-range analysis for every register.
	minScan        int
	wholeRangeOnly bool

	// Movement (movement.go, movement_second.go, movement_live.go).
	// killSecondFull: the second kill sweep decides again for every
	// instruction; killSkipCheck: the sweep checks that an instruction
	// the marked sweep skips decides as in the first sweep (checkSkip,
	// counted in killSkipped); killSecondVisited counts the instructions
	// the second sweeps decided for. secondLiveCheck: the second sweep
	// solves the liveness at T2 as well and panics on an answer that
	// differs, counting the answers checked by where they came from in
	// secondLiveChecked (S1, a search, the fallback solve);
	// secondLiveBound, when secondLiveBoundSet, replaces the searches'
	// work bound (0 makes the first search solve instead). texFullSweep
	// makes the texture sweeps compute their analyses even when the dry
	// run finds no fetch that could move (BenchmarkMovementScaling's
	// "full" rows); texLimitTraces counts the function maxima they
	// computed (fullLimit).
	killSecondFull, killSkipCheck       bool
	secondLiveCheck, secondLiveBoundSet bool
	secondLiveBound                     int
	secondLiveChecked                   [3]atomic.Int64
	texFullSweep                        bool

	// splitVerify, when set, is called after every refresh of the
	// splitting phases with the splitter, to compare its state with a
	// full computation (splitlive_update.go).
	splitVerify func(s *splitter)

	// stopPhase, when set, makes the pollers of the phase it names report
	// a cancellation at their stopAt-th call (stop or now) while the
	// context is live: the driver then goes on, and check mode verifies
	// the function after the pass and after every later phase, so a test
	// sees that the pass, stopped at that point, left a correct function
	// (cancel.go). stopsFired counts the stops.
	stopPhase  string
	stopAt     uint32
	stopsFired atomic.Int64

	// OutOfSSA (ssa.go): ossaConflictVisits counts the live values the
	// interference walk of assignRegisters met at definitions in
	// conflict, ossaPairs the interference pairs reuseFree kept.
	ossaConflictVisits, ossaPairs atomic.Int64
}

// hooks returns the run's test hooks: nil in production, and for a pass
// run without a configuration (unit tests that build a Pass by hand).
func (p *Pass) hooks() *testHooks {
	if p == nil || p.Config == nil {
		return nil
	}
	return p.Config.hooks
}
