package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"

	"github.com/oddl-go/oddl/blas"
	"github.com/oddl-go/oddl/internal/kernel"
)

// Report formats for Report.Write.
const (
	FormatText     = "text"
	FormatJSON     = "json"
	FormatMarkdown = "markdown"
)

// Write writes the report in one of the formats: FormatText (the tables
// "oddl bench" prints), FormatJSON (one indented JSON object) or
// FormatMarkdown (WriteMarkdown).
func (r *Report) Write(w io.Writer, format string) error {
	switch format {
	case FormatText:
		return r.WriteText(w)
	case FormatJSON:
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(r)
	case FormatMarkdown:
		return r.WriteMarkdown(w)
	}
	return fmt.Errorf("bench: no report format %q (%s, %s or %s)", format, FormatText, FormatJSON, FormatMarkdown)
}

// TierProcess returns an Options.TierRun that measures a tier by running
// the "oddl bench" command again with ODDL_KERNEL set and reading its
// JSON report: the tier is chosen once, at start-up, so one process
// cannot time two tiers of the same routines. command makes the process
// of the oddl command with the arguments given (args start with "bench");
// its environment, when left nil, is this process's.
func TierProcess(command func(ctx context.Context, args ...string) (*exec.Cmd, error)) func(context.Context, TierRequest) (*Report, error) {
	return func(ctx context.Context, q TierRequest) (*Report, error) {
		args := []string{"bench", "-json", "-q", "-tiers=false", "-blas", blas.NativeName,
			"-only", strings.Join(q.Sections, ","), "-threads", strconv.Itoa(q.Threads)}
		if q.Quick {
			args = append(args, "-quick")
		}
		cmd, err := command(ctx, args...)
		if err != nil {
			return nil, err
		}
		if cmd.Env == nil {
			cmd.Env = os.Environ()
		}
		cmd.Env = append(cmd.Env, kernel.EnvVar+"="+q.Tier)
		var errb strings.Builder
		cmd.Stderr = &errb
		out, err := cmd.Output()
		if err != nil {
			msg := strings.TrimSpace(errb.String())
			if i := strings.LastIndexByte(msg, '\n'); i >= 0 {
				msg = msg[i+1:]
			}
			return nil, fmt.Errorf("%s=%s %s: %v: %s", kernel.EnvVar, q.Tier, strings.Join(args, " "), err, msg)
		}
		var r Report
		if err := json.Unmarshal(out, &r); err != nil {
			return nil, fmt.Errorf("%s=%s: the report is not JSON: %v", kernel.EnvVar, q.Tier, err)
		}
		return &r, nil
	}
}

// PrefixLog returns a writer for Options.Log that writes each Write (a
// whole line) to w after prefix.
func PrefixLog(w io.Writer, prefix string) io.Writer { return prefixLog{w, prefix} }

type prefixLog struct {
	w      io.Writer
	prefix string
}

func (p prefixLog) Write(b []byte) (int, error) {
	if _, err := io.WriteString(p.w, p.prefix); err != nil {
		return 0, err
	}
	return p.w.Write(b)
}
