// Command oddl trains, evaluates and benchmarks online discriminative
// dictionary learning models.
//
// Usage:
//
//	oddl <command> [flags]
//
// Run "oddl help" for the list of commands.
package main

import (
	"embed"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"

	"github.com/oddl-go/oddl/internal/cli"
	"github.com/oddl-go/oddl/internal/kernel"
)

// command is one subcommand of the CLI. Each lives in its own file and
// registers itself from an init function.
type command struct {
	name  string
	short string
	// run parses args (the arguments after the command name) and does the
	// work. Output for the user goes to stdout, diagnostics to stderr.
	run func(args []string, stdout, stderr io.Writer) error
}

var commands = map[string]*command{}

func register(c *command) {
	if _, dup := commands[c.name]; dup {
		panic("oddl: command registered twice: " + c.name)
	}
	commands[c.name] = c
}

// usageError marks an error in the command line; it exits with status 2.
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

func usage(w io.Writer) {
	fmt.Fprint(w, "usage: oddl <command> [flags]\n\ncommands:\n")
	for _, n := range slices.Sorted(maps.Keys(commands)) {
		fmt.Fprintf(w, "  %-10s %s\n", n, commands[n].short)
	}
	fmt.Fprint(w, "\nRun \"oddl <command> -h\" for the flags of a command.\n")
}

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run executes the command line and returns the exit status.
func run(args []string, stdout, stderr io.Writer) (status int) {
	if len(args) == 0 {
		fmt.Fprintln(stderr, `oddl: no command given (run "oddl help" for the commands)`)
		return 2
	}
	name := args[0]
	if name == "help" || name == "-h" || name == "-help" || name == "--help" {
		usage(stdout)
		return 0
	}
	c, ok := commands[name]
	if !ok {
		fmt.Fprintf(stderr, "oddl: unknown command %q (run \"oddl help\" for the commands)\n", name)
		return 2
	}
	if err := kernel.TierError(); err != nil {
		// A tier that was asked for and cannot run is refused, never
		// replaced in silence by another.
		fmt.Fprintf(stderr, "oddl %s: %v\n", name, err)
		return 1
	}
	defer func() {
		// A panic is a bug in oddl; still, the user gets one line and a
		// non-zero status rather than a stack dump.
		if r := recover(); r != nil {
			fmt.Fprintf(stderr, "oddl %s: internal error: %v\n", name, r)
			status = 3
		}
	}()
	out := &cli.CheckedWriter{W: stdout}
	err := c.run(args[1:], out, stderr)
	if (err == nil || errors.Is(err, flag.ErrHelp)) && out.Err != nil {
		// A report lost on a full device or a closed stdout is a failure.
		err = fmt.Errorf("writing standard output: %w", out.Err)
	}
	switch {
	case err == nil:
		return 0
	case errors.Is(err, flag.ErrHelp):
		return 0
	}
	fmt.Fprintf(stderr, "oddl %s: %v\n", name, err)
	var ue usageError
	var ce cli.UsageError
	var ie interruptedError
	switch {
	case errors.As(err, &ue), errors.As(err, &ce):
		return 2
	case errors.As(err, &ie):
		return ie.status
	}
	return 1
}

// newFlagSet, setUsage, flagsSet and writeJSON are package cli's.
var (
	newFlagSet = cli.NewFlagSet
	setUsage   = cli.SetUsage
	flagsSet   = cli.Given
	writeJSON  = cli.WriteJSON
)

// helpFiles hold the text of each command's -h between the synopsis and
// the flags.
//
//go:embed help/*.txt
var helpFiles embed.FS

// help returns the -h text of the command name, help/NAME.txt.
func help(name string) string {
	b, err := helpFiles.ReadFile("help/" + name + ".txt")
	if err != nil {
		panic("oddl: no help text for " + name)
	}
	return string(b)
}

// parseFlags is cli.Parse with its usage errors as usageError.
func parseFlags(fs *flag.FlagSet, args []string) error {
	err := cli.Parse(fs, args)
	var ue cli.UsageError
	if errors.As(err, &ue) {
		return usageError{ue.Err}
	}
	return err
}
