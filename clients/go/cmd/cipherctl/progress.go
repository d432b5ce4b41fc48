package main

import (
	"fmt"
	"io"
	"os"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"
)

// progress shows how much of the input is done: a bar on a terminal, a line every few seconds otherwise.
type progress struct {
	bar   *progressbar.ProgressBar
	out   io.Writer
	size  int64
	last  time.Time
	every time.Duration
	// detail, when set, adds to each progress line (fpe rewrap's counts by version).
	detail func() string
}

func newProgress(stderr io.Writer, size int64) *progress {
	p := &progress{out: stderr, size: size, every: 2 * time.Second, last: time.Now()}
	if f, ok := stderr.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		p.bar = progressbar.NewOptions64(size, progressbar.OptionSetWriter(stderr), progressbar.OptionShowBytes(true),
			progressbar.OptionSetDescription("rewrap"), progressbar.OptionThrottle(100*time.Millisecond),
			progressbar.OptionClearOnFinish())
	}
	return p
}

func (p *progress) update(offset, records int64) {
	if p.bar != nil {
		p.bar.Set64(offset)
		return
	}
	if time.Since(p.last) >= p.every {
		p.last = time.Now()
		detail := ""
		if p.detail != nil {
			detail = ", " + p.detail()
		}
		fmt.Fprintf(p.out, "rewrap: %d records, %d%% of the input%s\n", records, percent(offset, p.size), detail)
	}
}

func (p *progress) finish() {
	if p.bar != nil {
		p.bar.Finish()
	}
}

func percent(part, whole int64) int64 {
	if whole == 0 {
		return 100
	}
	return part * 100 / whole
}
