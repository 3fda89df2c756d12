// Command tunelab generates, verifies, measures and selects variants of SIMD
// crypto kernels per CPU model. Run `tunelab help` for the commands.
package main

import (
	"errors"
	"fmt"
	"io"
	"os"
)

func main() {
	err := run(os.Stdout, os.Stderr, os.Args[1:])
	os.Exit(exitCode(os.Stderr, err))
}

// exitCode prints err and maps it to the process exit status: 2 for usage
// errors, 1 for other failures, 0 for success.
func exitCode(stderr io.Writer, err error) int {
	if err == nil {
		return 0
	}
	if errors.Is(err, errHelp) {
		return 0
	}
	fmt.Fprintln(stderr, "tunelab:", err)
	var u *usageError
	if errors.As(err, &u) {
		return 2
	}
	var e *exitError
	if errors.As(err, &e) {
		return e.code
	}
	return 1
}

// run executes the command line args, writing results to stdout and
// diagnostics to stderr.
func run(stdout, stderr io.Writer, args []string) error {
	if len(args) == 0 {
		printHelp(stderr)
		return usagef("no command given")
	}
	name := args[0]
	if name == "help" || name == "-h" || name == "--help" || name == "-help" {
		if len(args) > 1 {
			return run(stdout, stderr, []string{args[1], "-h"})
		}
		printHelp(stdout)
		return nil
	}
	cmd, ok := commands[name]
	if !ok {
		return usagef("unknown command %q (run 'tunelab help')", name)
	}
	return cmd.run(&env{stdout: stdout, stderr: stderr}, args[1:])
}
