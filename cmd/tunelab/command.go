package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"sort"
	"strings"
)

// env carries what a command may write to.
type env struct {
	stdout, stderr io.Writer
}

// A command is one tunelab subcommand. Each lives in its own cmd_*.go file
// and registers itself in init.
type command struct {
	name    string
	summary string // one line for `tunelab help`
	hidden  bool   // internal commands (e.g. measurement workers)
	run     func(e *env, args []string) error
}

var commands = map[string]*command{}

func register(c *command) {
	if _, dup := commands[c.name]; dup {
		panic("tunelab: command registered twice: " + c.name)
	}
	commands[c.name] = c
}

func printHelp(w io.Writer) {
	fmt.Fprintln(w, "tunelab explores, measures and selects variants of SIMD crypto kernels per CPU model.")
	fmt.Fprintln(w, "\nUsage: tunelab <command> [flags]\n\nCommands:")
	var names []string
	for n, c := range commands {
		if !c.hidden {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-10s %s\n", n, commands[n].summary)
	}
	fmt.Fprintln(w, "\nRun 'tunelab <command> -h' for a command's flags.")
}

// A usageError is a bad command line; it exits with status 2.
type usageError struct{ msg string }

func (u *usageError) Error() string { return u.msg }

func usagef(format string, a ...any) error {
	return &usageError{fmt.Sprintf(format, a...)}
}

// An exitError carries a specific exit status (e.g. 1 for verify mismatches).
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string { return e.err.Error() }
func (e *exitError) Unwrap() error { return e.err }

// errHelp is returned when -h was given: help was printed, exit 0.
var errHelp = errors.New("help requested")

// newFlags returns a flag set for command name. Its usage text, printed
// to e.stderr on -h, starts with the given synopsis lines.
func newFlags(e *env, name, synopsis string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard) // parseFlags reports parse errors in one line
	fs.Usage = func() {
		fs.SetOutput(e.stderr)
		fmt.Fprintf(e.stderr, "Usage: tunelab %s\n\nFlags:\n", synopsis)
		fs.PrintDefaults()
		fs.SetOutput(io.Discard)
	}
	return fs
}

// parseFlags parses args, printing the usage text and returning errHelp
// on -h, and turning a bad flag into a one-line usage error that points
// to -h. Positional arguments stay in fs.Args().
func parseFlags(fs *flag.FlagSet, args []string) error {
	usage := fs.Usage
	fs.Usage = func() {}
	err := fs.Parse(args)
	fs.Usage = usage
	switch {
	case errors.Is(err, flag.ErrHelp):
		usage()
		return errHelp
	case err != nil:
		return usagef("%s: %s (run 'tunelab %s -h' for its flags)", fs.Name(), strings.TrimSpace(err.Error()), fs.Name())
	}
	return nil
}

// parseNoArgs parses args as parseFlags does, for a command that takes
// no positional arguments: one is a usage error.
func parseNoArgs(fs *flag.FlagSet, args []string) error {
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	return noArgs(fs)
}

// noArgs rejects positional arguments for commands that take none.
func noArgs(fs *flag.FlagSet) error {
	if fs.NArg() > 0 {
		return usagef("%s: unexpected argument %q", fs.Name(), fs.Arg(0))
	}
	return nil
}
