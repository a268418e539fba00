package blas

import (
	"errors"
	"runtime"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/blas/gonum"

	"github.com/oddl-go/oddl/kernel"
)

func TestAvailable(t *testing.T) {
	got := Available()
	t.Logf("available: %v (kernel %s)", got, kernel.Name())
	want := []string{NativeName, GonumName}
	if openblasCompiled {
		want = []string{OpenBLASName, NativeName, GonumName}
	}
	if !slices.Equal(got, want) {
		t.Fatalf("Available() = %v, want %v", got, want)
	}
	for _, name := range got {
		impl, err := Lookup(name)
		if err != nil {
			t.Fatalf("Lookup(%q): %v", name, err)
		}
		if impl == nil {
			t.Fatalf("Lookup(%q) returned nil", name)
		}
		if n := Name(impl); n != name {
			t.Errorf("Name(Lookup(%q)) = %q", name, n)
		}
	}
}

func TestName(t *testing.T) {
	if got := Name(&gonum.Implementation{}); got != GonumName {
		t.Errorf("Name(*gonum.Implementation) = %q, want gonum", got)
	}
	if got := Name(&Native{}); got != NativeName {
		t.Errorf("Name(*Native) = %q, want native", got)
	}
	// A type of another package that satisfies the interface is no backend
	// of ours.
	type other struct{ gonum.Implementation }
	if got := Name(other{}); got != "" {
		t.Errorf("Name(other) = %q, want empty", got)
	}
}

func TestLookupErrors(t *testing.T) {
	for _, tc := range []struct {
		name     string
		sentinel error
		mention  []string
	}{
		{"mkl", ErrUnknown, []string{`"mkl"`, "gonum", "native", "openblas"}},
		{"", ErrUnknown, []string{`""`, "choices"}},
		{"Native", ErrUnknown, []string{`"Native"`}}, // names are case-sensitive
	} {
		impl, err := Lookup(tc.name)
		if err == nil || impl != nil {
			t.Errorf("Lookup(%q) = %v, %v; want nil and an error", tc.name, impl, err)
			continue
		}
		if !errors.Is(err, tc.sentinel) {
			t.Errorf("Lookup(%q) error %q does not match %v", tc.name, err, tc.sentinel)
		}
		for _, s := range tc.mention {
			if !strings.Contains(err.Error(), s) {
				t.Errorf("Lookup(%q) error %q does not mention %s", tc.name, err, s)
			}
		}
	}
	impl, err := Lookup(OpenBLASName)
	if openblasCompiled {
		if err != nil || impl == nil {
			t.Fatalf("Lookup(openblas) = %v, %v with openblas compiled in", impl, err)
		}
		return
	}
	if err == nil || impl != nil {
		t.Fatalf("Lookup(openblas) = %v, %v without openblas compiled in; want an error", impl, err)
	}
	if !errors.Is(err, ErrNotCompiled) {
		t.Errorf("Lookup(openblas) error %q does not match ErrNotCompiled", err)
	}
	hint := "-tags openblas"
	if openblasTag {
		hint = "CGO_ENABLED=1" // the tag is there; cgo is what is missing
	}
	for _, s := range []string{hint, "libopenblas-dev"} {
		if !strings.Contains(err.Error(), s) {
			t.Errorf("Lookup(openblas) error %q does not say how to get it (%s)", err, s)
		}
	}
}

func TestAutoChoice(t *testing.T) {
	t.Setenv(EnvVar, "")
	want := GonumName
	switch {
	case kernel.Name() != kernel.TierGo:
		want = NativeName
	case openblasCompiled:
		want = OpenBLASName
	}
	if got := DefaultName(); got != want {
		t.Errorf("DefaultName() = %q, want %q (kernel %s, available %v)", got, want, kernel.Name(), Available())
	}
	if got := Name(Default()); got != want {
		t.Errorf("Name(Default()) = %q, want %q", got, want)
	}
	if err := DefaultErr(); err != nil {
		t.Errorf("DefaultErr() = %v with ODDL_BLAS empty", err)
	}
	impl, name, err := Select("")
	if err != nil || name != want || Name(impl) != want {
		t.Errorf(`Select("") = %v, %q, %v; want %q`, impl, name, err, want)
	}
}

func TestEnvOverride(t *testing.T) {
	for _, name := range Available() {
		t.Setenv(EnvVar, name)
		if got := DefaultName(); got != name {
			t.Errorf("ODDL_BLAS=%s: DefaultName() = %q", name, got)
		}
		if got := Name(Default()); got != name {
			t.Errorf("ODDL_BLAS=%s: Name(Default()) = %q", name, got)
		}
		if err := DefaultErr(); err != nil {
			t.Errorf("ODDL_BLAS=%s: DefaultErr() = %v", name, err)
		}
		// An explicit name beats the environment.
		other := GonumName
		if name == GonumName {
			other = NativeName
		}
		if _, got, err := Select(other); err != nil || got != other {
			t.Errorf("ODDL_BLAS=%s: Select(%q) = %q, %v", name, other, got, err)
		}
	}
}

func TestEnvInvalid(t *testing.T) {
	t.Setenv(EnvVar, "")
	auto := DefaultName()
	bad := []string{"bogus"}
	if !openblasCompiled {
		bad = append(bad, OpenBLASName)
	}
	for _, v := range bad {
		t.Setenv(EnvVar, v)
		// Default never fails: it ignores the bad value...
		if got := DefaultName(); got != auto {
			t.Errorf("ODDL_BLAS=%s: DefaultName() = %q, want the automatic %q", v, got, auto)
		}
		if Default() == nil {
			t.Errorf("ODDL_BLAS=%s: Default() = nil", v)
		}
		// ...and DefaultErr and Select report it, naming the variable.
		err := DefaultErr()
		if err == nil || !strings.Contains(err.Error(), EnvVar+"="+v) {
			t.Errorf("ODDL_BLAS=%s: DefaultErr() = %v; want an error naming %s", v, err, EnvVar)
		}
		impl, name, err := Select("")
		if err == nil || impl != nil || name != "" {
			t.Errorf(`ODDL_BLAS=%s: Select("") = %v, %q, %v; want an error`, v, impl, name, err)
		}
		// An explicit valid choice does not look at the variable.
		if _, name, err := Select(GonumName); err != nil || name != GonumName {
			t.Errorf("ODDL_BLAS=%s: Select(gonum) = %q, %v", v, name, err)
		}
	}
	if _, _, err := Select("bogus"); !errors.Is(err, ErrUnknown) {
		t.Errorf(`Select("bogus") error = %v, want ErrUnknown`, err)
	}
}

func TestThreads(t *testing.T) {
	procs := runtime.GOMAXPROCS(0)
	for _, name := range Available() {
		prev := Threads(name)
		if prev < 1 {
			t.Errorf("Threads(%q) = %d before any change", name, prev)
		}
		t.Logf("%s: %d threads", name, prev)
		if name == GonumName {
			if prev != procs {
				t.Errorf("Threads(gonum) = %d, want GOMAXPROCS %d", prev, procs)
			}
			if err := SetThreads(name, procs); err != nil {
				t.Errorf("SetThreads(gonum, GOMAXPROCS) = %v", err)
			}
			err := SetThreads(name, procs+1)
			if !errors.Is(err, ErrThreadsFixed) || !strings.Contains(err.Error(), "GOMAXPROCS") {
				t.Errorf("SetThreads(gonum, %d) = %v, want ErrThreadsFixed mentioning GOMAXPROCS", procs+1, err)
			}
			continue
		}
		for _, n := range []int{1, 2, 3} {
			if err := SetThreads(name, n); err != nil {
				t.Fatalf("SetThreads(%q, %d): %v", name, n, err)
			}
			if got := Threads(name); got != n {
				t.Errorf("after SetThreads(%q, %d): Threads = %d", name, n, got)
			}
		}
		if err := SetThreads(name, 0); err != nil {
			t.Fatalf("SetThreads(%q, 0): %v", name, err)
		}
		if got := Threads(name); got != procs {
			t.Errorf("after SetThreads(%q, 0): Threads = %d, want GOMAXPROCS %d", name, got, procs)
		}
		if err := SetThreads(name, prev); err != nil {
			t.Fatalf("restoring %s threads: %v", name, err)
		}
		if got := Threads(name); got != prev {
			t.Errorf("round trip: Threads(%q) = %d, want %d", name, got, prev)
		}
	}
	if err := SetThreads("bogus", 1); !errors.Is(err, ErrUnknown) {
		t.Errorf("SetThreads(bogus) = %v, want ErrUnknown", err)
	}
	if got := Threads("bogus"); got != 0 {
		t.Errorf("Threads(bogus) = %d, want 0", got)
	}
}
