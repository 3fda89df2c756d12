//go:build !purego

package align

//go:generate go run ../../variants/align -out evict_amd64.s -stubs zstubs_amd64.go -pkg align

// evictAvailable reports whether Evict runs the generated footprint.
const evictAvailable = true

func evict() uint64 { return evictFootprint() }
