//go:build !linux

package perfcounters

func kernelTSCHz() (float64, string, bool)  { return 0, "", false }
func cpuinfoTSCHz() (float64, string, bool) { return 0, "", false }
