//go:build !amd64 || purego

package align

const evictAvailable = false

func evict() uint64 { return 0 }
