package calib

// The tests see every generated chain, as the lab does.
func init() { RegisterVariants() }
