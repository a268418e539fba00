package bench

import (
	"context"
	"strings"
	"testing"
)

// The test binary carries no VCS stamp, so BuildCommit asks git: in a
// checkout it names a revision, one line without spaces.
func TestBuildCommitOneWord(t *testing.T) {
	c := BuildCommit(context.Background())
	if strings.ContainsAny(c, " \n\t") {
		t.Fatalf("commit %q is not one word", c)
	}
}
