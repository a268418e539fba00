package main

import (
	"os"
	"testing"
)

// runMainEnv makes the test binary act as the oddl command: the commands
// that run this program again (bench, for the other kernel tiers) then
// find the test binary as os.Executable and get the command line.
const runMainEnv = "ODDL_TEST_RUN_MAIN"

func TestMain(m *testing.M) {
	if os.Getenv(runMainEnv) == "1" {
		os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
	}
	os.Setenv(runMainEnv, "1")
	os.Exit(m.Run())
}
