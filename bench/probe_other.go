//go:build !amd64 || purego

package bench

var (
	probeWidth = "go"
	readSum    = sumTail
)
