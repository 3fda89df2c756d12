//go:build purego

package main

// purego: this build registers the generic variants only.
const purego = true
