//go:build !purego

package main

// purego: this build registers every generated variant.
const purego = false
