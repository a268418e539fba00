package blas

import (
	"errors"
	"runtime"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/blas/gonum"

	"github.com/oddl-go/oddl/internal/kernel"
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
	impl, err := Default()
	if err != nil || Name(impl) != want {
		t.Errorf("Default() = %v (%q), %v; want %q (kernel %s, available %v)", impl, Name(impl), err, want, kernel.Name(), Available())
	}
	impl, name, err := Select("")
	if err != nil || name != want || Name(impl) != want {
		t.Errorf(`Select("") = %v, %q, %v; want %q`, impl, name, err, want)
	}
	if r := AutoReason(); r == "" {
		t.Error("AutoReason() is empty")
	}
}

func TestEnvOverride(t *testing.T) {
	for _, name := range Available() {
		t.Setenv(EnvVar, name)
		impl, err := Default()
		if err != nil || Name(impl) != name {
			t.Errorf("ODDL_BLAS=%s: Default() = %q, %v", name, Name(impl), err)
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
	bad := []string{"bogus"}
	if !openblasCompiled {
		bad = append(bad, OpenBLASName)
	}
	for _, v := range bad {
		t.Setenv(EnvVar, v)
		// Default refuses the bad value, naming the variable, rather than
		// running another backend than the one asked for.
		impl, err := Default()
		if err == nil || impl != nil || !strings.Contains(err.Error(), EnvVar+"="+v) {
			t.Errorf("ODDL_BLAS=%s: Default() = %v, %v; want nil and an error naming %s", v, impl, err, EnvVar)
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
		impl, err := Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		def := Threads(impl)
		t.Logf("%s: %d threads", name, def)
		if def < 1 {
			t.Errorf("Threads(%s) = %d", name, def)
		}
		if name == GonumName && def != procs {
			t.Errorf("Threads(gonum) = %d, want GOMAXPROCS %d", def, procs)
		}
		_, bindable := impl.(Threaded)
		if bindable != (name == NativeName) {
			t.Errorf("%s implements Threaded: %v", name, bindable)
		}
		for _, n := range []int{1, 2, 3} {
			bound, err := Lookup(name, WithThreads(n))
			if err != nil {
				t.Fatal(err)
			}
			want := def // gonum and openblas: the option binds nothing
			if bindable {
				want = n
			}
			if got := Threads(bound); got != want {
				t.Errorf("Lookup(%s, WithThreads(%d)): Threads = %d, want %d", name, n, got, want)
			}
			if got := Threads(OnThreads(impl, n)); got != want {
				t.Errorf("OnThreads(%s, %d): Threads = %d, want %d", name, n, got, want)
			}
			// Binding one value leaves the others as they were.
			if got := Threads(impl); got != def {
				t.Errorf("after binding %s to %d threads the default value reports %d, want %d", name, n, got, def)
			}
		}
	}
	prev := openblasThreads()
	if err := SetOpenBLASThreads(1); openblasCompiled != (err == nil) || (err != nil && !errors.Is(err, ErrNotCompiled)) {
		t.Errorf("SetOpenBLASThreads(1) = %v with openblas compiled in: %v", err, openblasCompiled)
	}
	if openblasCompiled {
		if got := openblasThreads(); got != 1 {
			t.Errorf("after SetOpenBLASThreads(1) OpenBLAS runs %d threads", got)
		}
		_ = SetOpenBLASThreads(prev)
	}
}
