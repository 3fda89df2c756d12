//go:build !amd64 || purego

package poly1305

import "testing"

func testPowerTables(t *testing.T) {
	t.Skip("no vector variants in this build (purego or not amd64)")
}
