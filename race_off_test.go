//go:build !race

package ptxopt

const raceEnabled = false
