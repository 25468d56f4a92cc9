//go:build race

package phases

// raceEnabled: the race detector is on (the CI race step). The tests that
// run phases over the corpus or thousands of generated kernels on one
// goroutine skip then (skipUnderRace): they check what the phases
// compute, which the same tests do without the detector, and under it
// they cost minutes of CI; the race step is for the concurrent code.
const raceEnabled = true
