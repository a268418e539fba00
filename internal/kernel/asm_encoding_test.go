package kernel

import (
	"bufio"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// xmmOperand matches an XMM register operand.
var xmmOperand = regexp.MustCompile(`\bX([0-9]|1[0-5])\b`)

// TestAssemblyVEXOnly checks that no instruction of the package's assembly
// touches an XMM register in its legacy SSE encoding. The kernels run
// between AVX code; a legacy SSE instruction there makes the processor
// switch the state of the upper halves of the vector registers, which on
// some x86 processors costs more than a whole kernel call on a short vector
// (a one-row update of 64 correlations, as the patch front end's coder
// makes). The VEX forms (VMOVQ, VMOVSD, ...) do the same work without it.
func TestAssemblyVEXOnly(t *testing.T) {
	files, err := filepath.Glob("*.s")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no assembly files found")
	}
	for _, name := range files {
		f, err := os.Open(name)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		for line := 1; sc.Scan(); line++ {
			text := sc.Text()
			if i := strings.Index(text, "//"); i >= 0 {
				text = text[:i]
			}
			text = strings.TrimSuffix(strings.TrimSpace(text), `\`)
			text = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(text), ";"))
			fields := strings.Fields(text)
			if len(fields) < 2 || strings.HasPrefix(fields[0], "#") || strings.HasSuffix(fields[0], ":") {
				continue
			}
			op := fields[0]
			if op == "TEXT" || op == "DATA" || op == "GLOBL" || strings.HasPrefix(op, "V") {
				continue
			}
			if xmmOperand.MatchString(strings.Join(fields[1:], " ")) {
				t.Errorf("%s:%d: %s uses an XMM register in its legacy SSE encoding; use its VEX form", name, line, op)
			}
		}
		if err := sc.Err(); err != nil {
			t.Fatal(err)
		}
		f.Close()
	}
}
