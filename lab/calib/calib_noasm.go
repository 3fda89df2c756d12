//go:build !amd64 || purego

package calib

// registerAsm does nothing: without assembly only the generic variant is
// registered.
func registerAsm() {}
