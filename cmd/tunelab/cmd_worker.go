package main

import (
	"os"

	"github.com/tunelab/tunelab/harness"
)

func init() {
	register(&command{
		name:    "worker",
		summary: "serve the harness worker protocol on stdin/stdout (internal)",
		hidden:  true,
		run: func(e *env, args []string) error {
			fs := newFlags(e, "worker", "worker")
			if err := parseNoArgs(fs, args); err != nil {
				return err
			}
			return harness.ServeWorker(os.Stdin, e.stdout)
		},
	})
}
