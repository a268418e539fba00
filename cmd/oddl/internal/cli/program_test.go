package cli

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
)

// TestProgramRunStatuses: each way a command ends gives its exit status
// and at most one line on stderr.
func TestProgramRunStatuses(t *testing.T) {
	odd := errors.New("odd")
	p := Program{Name: "x", Commands: map[string]Command{
		"ok":    {Short: "fine", Run: func(_ []string, out, _ io.Writer) error { io.WriteString(out, "hi\n"); return nil }},
		"fail":  {Run: func([]string, io.Writer, io.Writer) error { return errors.New("broke") }},
		"usage": {Run: func([]string, io.Writer, io.Writer) error { return Usagef("-n: bad") }},
		"odd":   {Run: func([]string, io.Writer, io.Writer) error { return odd }},
		"panic": {Run: func([]string, io.Writer, io.Writer) error { panic("bug") }},
	}, Status: func(err error) int {
		if errors.Is(err, odd) {
			return 7
		}
		return 0
	}}
	for _, tc := range []struct {
		args   []string
		status int
		stderr string
	}{
		{[]string{"ok"}, 0, ""},
		{[]string{"fail"}, 1, "x fail: broke\n"},
		{[]string{"usage"}, 2, "x usage: -n: bad\n"},
		{[]string{"odd"}, 7, "x odd: odd\n"},
		{[]string{"panic"}, 3, "x panic: internal error: bug\n"},
		{[]string{"nosuch"}, 2, "x: unknown command \"nosuch\" (run \"x help\" for the commands)\n"},
		{nil, 2, "x: no command given (run \"x help\" for the commands)\n"},
	} {
		var out, errw bytes.Buffer
		if s := p.Run(tc.args, &out, &errw); s != tc.status || errw.String() != tc.stderr {
			t.Errorf("%v: status %d, stderr %q; want %d, %q", tc.args, s, errw.String(), tc.status, tc.stderr)
		}
	}
	var errw bytes.Buffer
	if s := p.Run([]string{"ok"}, failWriter{}, &errw); s != 1 || !strings.Contains(errw.String(), "writing standard output: full") {
		t.Errorf("lost stdout: status %d, stderr %q", s, errw.String())
	}
	var out bytes.Buffer
	if s := p.Run([]string{"help"}, &out, &errw); s != 0 || !strings.Contains(out.String(), "  ok         fine\n") {
		t.Errorf("help: status %d, %q", s, out.String())
	}
	p.Check = func() error { return errors.New("no tier") }
	errw.Reset()
	if s := p.Run([]string{"ok"}, &out, &errw); s != 1 || errw.String() != "x ok: no tier\n" {
		t.Errorf("failed check: status %d, stderr %q", s, errw.String())
	}
}
