// Package gofile writes the Go files the generators emit besides avo's
// (the variant tables, the constant-time status, lab/all's list of
// families): formatted as gofmt would leave them.
package gofile

import (
	"fmt"
	"go/format"
	"os"
)

// Write formats the Go source src and writes it to path; what names the
// kind of file in errors, e.g. "implementation table".
func Write(path string, src []byte, what string) error {
	out, err := format.Source(src)
	if err != nil {
		return fmt.Errorf("formatting %s %s: %w", what, path, err)
	}
	if err := os.WriteFile(path, out, 0o644); err != nil {
		return fmt.Errorf("writing %s: %w", what, err)
	}
	return nil
}
