//go:build linux

// Command init is the first and only process of the small Linux system
// that run.sh boots under an emulated AVX-512 CPU: it runs the command
// lines of /cmds one after the other, their output on the console, then
// powers the machine off.
//
// A line is a program and its arguments, split at spaces, or one of:
//
//	env NAME=VALUE   set NAME for the programs after it
//	hashtail FILE    print the SHA-256 of FILE less its first 256 and last
//	                 4 bytes (a model file less its run times and checksum)
package main

import (
	"crypto/sha256"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"time"
)

func main() {
	for _, m := range [][2]string{{"devtmpfs", "/dev"}, {"proc", "/proc"}, {"sysfs", "/sys"}} {
		os.MkdirAll(m[1], 0o755)
		if err := syscall.Mount(m[0], m[1], m[0], 0, ""); err != nil {
			fmt.Println("=== mount", m[1]+":", err)
		}
	}
	b, err := os.ReadFile("/cmds")
	if err != nil {
		fmt.Println("=== no commands:", err)
	}
	env := []string{"HOME=/", "TMPDIR=/tmp"}
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		fmt.Println("=== RUN:", line)
		switch {
		case f[0] == "env" && len(f) == 2:
			env = append(env, f[1])
		case f[0] == "hashtail" && len(f) == 2:
			b, err := os.ReadFile(f[1])
			if err != nil || len(b) < 260 {
				fmt.Println("=== EXIT: hashtail:", err, len(b), "bytes")
				continue
			}
			fmt.Printf("hashtail %s %x\n", f[1], sha256.Sum256(b[256:len(b)-4]))
		default:
			c := exec.Command(f[0], f[1:]...)
			c.Stdout, c.Stderr = os.Stdout, os.Stdout
			c.Env = env
			fmt.Println("=== EXIT:", c.Run())
		}
	}
	fmt.Println("=== ALL DONE")
	// Let the serial console drain before the power goes.
	time.Sleep(3 * time.Second)
	syscall.Sync()
	syscall.Reboot(syscall.LINUX_REBOOT_CMD_POWER_OFF)
}
