package main

import (
	"context"
	"os"
	"os/exec"
	"testing"
)

// runMainEnv makes the test binary act as the oddl command, for the
// commands that run this program again (bench, for the other kernel tiers).
const runMainEnv = "ODDL_TEST_RUN_MAIN"

func TestMain(m *testing.M) {
	if os.Getenv(runMainEnv) == "1" {
		os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
	}
	selfCommand = func(ctx context.Context, args ...string) (*exec.Cmd, error) {
		cmd := exec.CommandContext(ctx, os.Args[0], args...)
		cmd.Env = append(os.Environ(), runMainEnv+"=1")
		return cmd, nil
	}
	os.Exit(m.Run())
}
