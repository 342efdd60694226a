// Package spin shows the REPL's spinner for a one-shot call that takes a
// while (docs/cli.md#output-streams): on standard error, only on a terminal,
// after a delay, erased when the call ends so that nothing of it stays.
package spin

import (
	"io"
	"sync"
	"time"

	"github.com/charmbracelet/bubbles/spinner"
)

// Label follows the spinner, as in the REPL.
const Label = "running… Ctrl-C cancels"

// erase returns to the start of the line and clears it.
const erase = "\r\x1b[K"

// Start shows the spinner on w (a terminal) once delay has passed, a frame
// every interval, until the returned stop is called; stop erases it and
// returns only when nothing more will be written.
func Start(w io.Writer, delay, interval time.Duration) (stop func()) {
	return StartLabel(w, delay, interval, Label)
}

// StartLabel is Start with another label ("connecting to …").
func StartLabel(w io.Writer, delay, interval time.Duration, label string) (stop func()) {
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		timer := time.NewTimer(delay)
		defer timer.Stop()
		select {
		case <-done:
			return
		case <-timer.C:
		}
		frames := spinner.MiniDot.Frames
		tick := time.NewTicker(interval)
		defer tick.Stop()
		for i := 0; ; i++ {
			_, _ = io.WriteString(w, erase+frames[i%len(frames)]+" "+label)
			select {
			case <-done:
				_, _ = io.WriteString(w, erase)
				return
			case <-tick.C:
			}
		}
	}()
	var once sync.Once
	return func() {
		once.Do(func() {
			close(done)
			wg.Wait()
		})
	}
}
