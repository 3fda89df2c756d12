package main

// Register every kernel family and its external references.
import _ "github.com/tunelab/tunelab/lab/all"
