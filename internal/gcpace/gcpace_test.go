package gcpace

import (
	"runtime"
	"runtime/debug"
	"testing"
)

// TestTune: the collector runs at the small-heap pace until a collection
// finds a big live heap, then at the default pace; a GOGC other than the
// default is left alone.
func TestTune(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	defer gcTuned.Store(false)

	gcTuned.Store(false)
	debug.SetGCPercent(50) // as GOGC=50 would
	tune()
	if got := debug.SetGCPercent(100); got != 50 || gcTuned.Load() {
		t.Fatalf("GOGC=50: the pace became %d", got)
	}

	tune()
	runtime.GC()
	if got := debug.SetGCPercent(smallHeapGC); got != smallHeapGC || !gcTuned.Load() {
		t.Fatalf("small heap: the pace is %d, want %d", got, smallHeapGC)
	}

	ScriptPace()
	if got := debug.SetGCPercent(scriptHeapGC); got != scriptHeapGC || !gcTuned.Load() {
		t.Fatalf("a script: the pace is %d, want %d", got, scriptHeapGC)
	}

	big := make([]byte, 2*smallHeap)
	for i := 0; i < 1000 && gcTuned.Load(); i++ {
		runtime.GC()
		runtime.Gosched()
	}
	runtime.KeepAlive(big)
	if got := debug.SetGCPercent(100); got != 100 || gcTuned.Load() {
		t.Fatalf("a big live heap: the pace is still %d", got)
	}
	ScriptPace()
	if got := debug.SetGCPercent(100); got != 100 {
		t.Fatalf("a script after a big live heap: the pace is %d", got)
	}
}

// TestScreenPace: a full-screen view restores the default pace; GOGC set
// is left alone.
func TestScreenPace(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	defer gcTuned.Store(false)

	debug.SetGCPercent(100)
	gcTuned.Store(false)
	tune()
	ScreenPace()
	if got := debug.SetGCPercent(100); got != 100 || gcTuned.Load() {
		t.Fatalf("the screen's pace is %d (tuned %v), want 100", got, gcTuned.Load())
	}
	debug.SetGCPercent(50) // as GOGC=50 would
	ScreenPace()
	if got := debug.SetGCPercent(100); got != 50 {
		t.Fatalf("GOGC=50: the screen's pace became %d", got)
	}
}
