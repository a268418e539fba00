package cli

import (
	"bytes"
	"errors"
	"flag"
	"io"
	"strings"
	"testing"
)

// TestParseMakesOneLineUsageErrors: a bad flag or a leftover argument is
// a UsageError pointing to -h and prints nothing; -h prints the usage.
func TestParseMakesOneLineUsageErrors(t *testing.T) {
	var out bytes.Buffer
	fs := NewFlagSet("x", &out)
	n := fs.Int("n", 1, "a count")
	SetUsage(fs, &out, "oddl x [-n N]", "Does x.\n")
	var ue UsageError
	if err := Parse(fs, []string{"-n", "z"}); !errors.As(err, &ue) || !strings.Contains(err.Error(), `(run "oddl x -h" for the flags)`) || out.Len() != 0 {
		t.Errorf("bad value: err %v, printed %q", err, out.String())
	}
	if err := Parse(fs, []string{"-n", "3", "extra"}); !errors.As(err, &ue) || err.Error() != `unexpected argument "extra"` || *n != 3 {
		t.Errorf("leftover argument: err %v, n %d", err, *n)
	}
	if err := Parse(fs, []string{"-h"}); !errors.Is(err, flag.ErrHelp) || !strings.HasPrefix(out.String(), "usage: oddl x [-n N]\n\nDoes x.\n\n  -n int") {
		t.Errorf("-h: err %v, printed %q", err, out.String())
	}
	if g := Given(fs); !g["n"] || len(g) != 1 {
		t.Errorf("Given: %v", g)
	}
}

// TestScoreChecksTheWeights: negative, NaN and infinite weights are usage
// errors naming the flag; good ones pass.
func TestScoreChecksTheWeights(t *testing.T) {
	for _, args := range [][]string{{"-residual-weight", "-1"}, {"-collaborative", "NaN"}, {"-residual-weight", "+Inf"}} {
		fs := NewFlagSet("x", io.Discard)
		s := AddScore(fs)
		if err := Parse(fs, args); err != nil {
			t.Fatal(err)
		}
		var ue UsageError
		if err := s.Check(); !errors.As(err, &ue) || !strings.HasPrefix(err.Error(), args[0]+" ") {
			t.Errorf("%v: err %v", args, err)
		}
	}
	fs := NewFlagSet("x", io.Discard)
	s := AddScore(fs)
	if err := Parse(fs, []string{"-residual-weight", "0.5", "-collaborative", "0"}); err != nil || s.Check() != nil {
		t.Errorf("good weights refused: %v %v", err, s.Check())
	}
}

type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errors.New("full") }

// TestCheckedWriterKeepsTheFirstError: the error of a lost write stays.
func TestCheckedWriterKeepsTheFirstError(t *testing.T) {
	c := &CheckedWriter{W: failWriter{}}
	c.Write([]byte("a"))
	if c.Err == nil || c.Err.Error() != "full" {
		t.Errorf("Err = %v", c.Err)
	}
}
