package job

import (
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"golang.org/x/term"

	"github.com/oddl-go/oddl/oddl"
)

// ProgressPrinter shows training progress (Spec.Progress) on a writer: a
// bar redrawn in place when it is a terminal, a plain line every few
// seconds when it is not (a log file, a pipe, CI). A nil printer shows
// nothing.
type ProgressPrinter struct {
	w     io.Writer
	tty   bool
	every time.Duration
	last  time.Time
	phase string
	drawn bool // a bar is on the current line
}

// NewProgressPrinter returns a printer to w.
func NewProgressPrinter(w io.Writer) *ProgressPrinter {
	p := &ProgressPrinter{w: w, every: 5 * time.Second}
	if f, ok := w.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		p.tty, p.every = true, 200*time.Millisecond
	}
	p.last = time.Now()
	return p
}

// Update shows pr: at once for a new phase or the last sample, else when
// the last line is old enough.
func (p *ProgressPrinter) Update(pr oddl.Progress) {
	if p == nil {
		return
	}
	now := time.Now()
	finished := pr.Samples >= pr.Total
	if pr.Phase == p.phase && !finished && now.Sub(p.last) < p.every {
		return
	}
	newPhase := pr.Phase != p.phase
	p.phase, p.last = pr.Phase, now
	frac := 0.0
	if pr.Total > 0 {
		frac = float64(pr.Samples) / float64(pr.Total)
	}
	name := "init "
	if pr.Phase == "train" {
		name = fmt.Sprintf("epoch %d/%d", min(pr.Epoch+1, pr.Epochs), pr.Epochs)
	}
	eta := ""
	if pr.SamplesPerSecond > 0 && pr.Total > pr.Samples {
		eta = " ETA " + (time.Duration(float64(pr.Total-pr.Samples)/pr.SamplesPerSecond) * time.Second).Round(time.Second).String()
	}
	batchErr := ""
	if pr.Phase == "train" {
		// The classifier exists only from the joint phase on.
		batchErr = fmt.Sprintf("  batch error %4.1f%%", 100*pr.TrainError)
	}
	stats := fmt.Sprintf("%d/%d  objective %.4f%s  %5.0f samples/s%s",
		pr.Samples, pr.Total, pr.Average, batchErr, pr.SamplesPerSecond, eta)
	if !p.tty {
		fmt.Fprintf(p.w, "%s %5.1f%%  %s\n", strings.TrimSpace(name), 100*frac, stats)
		return
	}
	if newPhase && p.drawn {
		fmt.Fprintln(p.w)
	}
	const width = 24
	fill := int(frac * width)
	bar := strings.Repeat("=", fill)
	if fill < width {
		bar += ">" + strings.Repeat(" ", width-fill-1)
	}
	fmt.Fprintf(p.w, "\r%s [%s] %3.0f%%  %s\x1b[K", name, bar, 100*frac, stats)
	p.drawn = true
}

// Done ends the bar's line, so that what follows starts on its own.
func (p *ProgressPrinter) Done() {
	if p != nil && p.tty && p.drawn {
		fmt.Fprintln(p.w)
		p.drawn = false
	}
}
