// Package baselines registers external reference implementations (from the
// standard library, golang.org/x/crypto and circl) as variants named
// "ext=<name>", so a sweep measures tunelab's variants against what a Go
// user would otherwise pick, in the same run. They are never dispatched to,
// and production code never imports this package.
package baselines
