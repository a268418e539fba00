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
	"io"
	"os"

	"github.com/oddl-go/oddl/cmd/oddl/internal/cli"
	"github.com/oddl-go/oddl/internal/kernel"
	"github.com/oddl-go/oddl/job"
)

// command is one subcommand of the CLI (cli.Command). Each lives in its
// own file and registers itself from an init function.
type command struct {
	name, short string
	run         func(args []string, stdout, stderr io.Writer) error
}

var commands = map[string]cli.Command{}

func register(c *command) {
	if _, dup := commands[c.name]; dup {
		panic("oddl: command registered twice: " + c.name)
	}
	commands[c.name] = cli.Command{Short: c.short, Run: c.run}
}

// usageError marks an error in the command line; it exits with status 2.
type usageError = job.UsageError

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run executes the command line and returns the exit status
// (cli.Program.Run). A kernel tier that was asked for and cannot run is
// refused, never replaced in silence by another.
func run(args []string, stdout, stderr io.Writer) int {
	return cli.Program{Name: "oddl", Commands: commands, Check: kernel.TierError, Status: status}.Run(args, stdout, stderr)
}

// status is 2 for a usageError, the signal's status for an
// interruptedError.
func status(err error) int {
	var ie interruptedError
	switch {
	case errors.As(err, new(usageError)):
		return 2
	case errors.As(err, &ie):
		return ie.status
	}
	return 0
}

// newFlagSet, setUsage, flagsSet, writeJSON and parseFlags are package
// cli's.
var (
	parseFlags = cli.Parse
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
