package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"slices"
)

// Command is one subcommand of a Program.
type Command struct {
	Short string // one line for the list of commands
	// Run parses args (the arguments after the command's name) and does
	// the work. Output for the user goes to stdout, diagnostics to stderr.
	Run func(args []string, stdout, stderr io.Writer) error
}

// Program is a command of subcommands: "NAME <command> [flags]".
type Program struct {
	Name     string
	Commands map[string]Command
	// Check, if set, runs before the command; its error ends the run
	// with status 1 before the command starts.
	Check func() error
	// Status, if set, gives the exit status of a command's error when it
	// returns one above 0; else an error exits with 1, a UsageError with 2.
	Status func(error) int
}

// Usage writes the list of commands.
func (p Program) Usage(w io.Writer) {
	fmt.Fprintf(w, "usage: %s <command> [flags]\n\ncommands:\n", p.Name)
	for _, n := range slices.Sorted(maps.Keys(p.Commands)) {
		fmt.Fprintf(w, "  %-10s %s\n", n, p.Commands[n].Short)
	}
	fmt.Fprintf(w, "\nRun \"%s <command> -h\" for the flags of a command.\n", p.Name)
}

// Run executes the command line args and returns the exit status: 0 on
// success or -h, 2 for a usage error, 3 for a panic (a bug, told in one
// line), else 1 or what Status says. An error is printed as one line,
// "NAME COMMAND: error". A report that could not be written to stdout
// is an error too.
func (p Program) Run(args []string, stdout, stderr io.Writer) (status int) {
	if len(args) == 0 {
		fmt.Fprintf(stderr, "%s: no command given (run \"%s help\" for the commands)\n", p.Name, p.Name)
		return 2
	}
	name := args[0]
	if name == "help" || name == "-h" || name == "-help" || name == "--help" {
		p.Usage(stdout)
		return 0
	}
	c, ok := p.Commands[name]
	if !ok {
		fmt.Fprintf(stderr, "%s: unknown command %q (run \"%s help\" for the commands)\n", p.Name, name, p.Name)
		return 2
	}
	if p.Check != nil {
		if err := p.Check(); err != nil {
			fmt.Fprintf(stderr, "%s %s: %v\n", p.Name, name, err)
			return 1
		}
	}
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintf(stderr, "%s %s: internal error: %v\n", p.Name, name, r)
			status = 3
		}
	}()
	out := &CheckedWriter{W: stdout}
	err := c.Run(args[1:], out, stderr)
	if (err == nil || errors.Is(err, flag.ErrHelp)) && out.Err != nil {
		// A report lost on a full device or a closed stdout is a failure.
		err = fmt.Errorf("writing standard output: %w", out.Err)
	}
	if err == nil || errors.Is(err, flag.ErrHelp) {
		return 0
	}
	fmt.Fprintf(stderr, "%s %s: %v\n", p.Name, name, err)
	if p.Status != nil {
		if s := p.Status(err); s > 0 {
			return s
		}
	}
	if errors.As(err, new(UsageError)) {
		return 2
	}
	return 1
}
