//go:build race

package ptxopt

// raceEnabled: the race detector is on. Tests that run the optimizer over
// the whole corpus on one goroutine skip then: they check what the
// optimizer computes, the race step checks the concurrent code, and under
// the detector they cost minutes of CI.
const raceEnabled = true
