package main

import (
	"errors"
	"fmt"
	"os"
	"strings"
)

// selectRefuses says why select cannot pass the train flag name (with the
// value val) to its runs, nil if it can: select sets some flags itself
// (what it compares on, how it reads the report), and its runs may write
// nothing and must all read the same data, so no flag may name an output
// or data that a first run would use up (a pipe, a FIFO, stdin).
func selectRefuses(name, val string) error {
	switch name {
	case "validate":
		return errors.New("train flag -validate cannot be given to select: its own -validate sets the held-out share")
	case "validate-grid", "validate-keep":
		return fmt.Errorf("train flag -%s cannot be given to select: select sets it for each run", name)
	case "json", "o", "resume", "stream", "test", "cpuprofile", "memprofile", "plot", "checkpoint", "resume-new-data":
		return fmt.Errorf("train flag -%s cannot be given to select", name)
	case "data":
		for _, p := range strings.Split(val, ",") {
			if fi, err := os.Stat(p); err == nil && !fi.IsDir() && !fi.Mode().IsRegular() {
				return fmt.Errorf("-data %s is not a regular file: select reads the data once for each run; save it to a file first", val)
			}
		}
	}
	return nil
}
