package experiments

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/oddl-go/oddl/job"
	"github.com/oddl-go/oddl/oddl"
)

// TestStreamTableFillAndCheck: what is unset gets the defaults of a full
// or a quick table, what is set stays; atoms beyond oddl's limit and a
// bad deformation are usage errors naming the flags.
func TestStreamTableFillAndCheck(t *testing.T) {
	full := StreamTable{LargeK: -1}
	full.Fill(false)
	quick := StreamTable{LargeK: -1}
	quick.Fill(true)
	if !reflect.DeepEqual(full.Sizes, []int{60000, 250000, 1000000, 4000000}) || full.K != 960 || full.LargeK != 2560 {
		t.Errorf("full: %+v", full)
	}
	if !reflect.DeepEqual(quick.Sizes, []int{20000, 60000}) || quick.K != 240 || quick.LargeK != 0 {
		t.Errorf("quick: %+v", quick)
	}
	set := StreamTable{Sizes: []int{100}, K: 60, LargeK: 0}
	set.Fill(false)
	if !reflect.DeepEqual(set.Sizes, []int{100}) || set.K != 60 || set.LargeK != 0 {
		t.Errorf("set values changed: %+v", set)
	}
	if err := (&StreamTable{K: 60, Deform: "default"}).Check(); err != nil {
		t.Errorf("good table: %v", err)
	}
	for _, tc := range []struct {
		t    StreamTable
		want string
	}{
		{StreamTable{K: oddl.MaxAtoms + 1, Deform: "default"}, "-k "},
		{StreamTable{K: 60, LargeK: oddl.MaxAtoms + 1, Deform: "default"}, "-stream-large-k"},
		{StreamTable{K: 60, Deform: "bogus=1"}, "-deform: "},
	} {
		err := tc.t.Check()
		if err == nil || !strings.Contains(err.Error(), tc.want) || !errors.As(err, new(job.UsageError)) {
			t.Errorf("%+v: %v, want a usage error with %q", tc.t, err, tc.want)
		}
	}
}
