//go:build !linux

package phases

// threadCPU is not measured outside Linux: Config.PhaseCPU reports 0.
func threadCPU() int64 { return 0 }
