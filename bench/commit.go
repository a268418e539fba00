package bench

import (
	"context"
	"os/exec"
	"runtime/debug"
	"strings"
	"time"
)

// BuildCommit names the source this program was built from: the VCS
// revision Go stamped into it (with "-dirty" for uncommitted changes), else
// what "git describe" says of the working directory, else "".
func BuildCommit(ctx context.Context) string {
	if info, ok := debug.ReadBuildInfo(); ok {
		var rev, dirty string
		for _, s := range info.Settings {
			switch s.Key {
			case "vcs.revision":
				rev = s.Value
			case "vcs.modified":
				if s.Value == "true" {
					dirty = "-dirty"
				}
			}
		}
		if rev != "" {
			return rev[:min(len(rev), 12)] + dirty
		}
	}
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, "git", "describe", "--always", "--dirty", "--tags").Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}
