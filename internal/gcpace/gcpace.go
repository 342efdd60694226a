// Package gcpace sets the garbage collector's pace for a run of agsh when
// it is imported (by cmd/agsh only).
package gcpace

import (
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync/atomic"
)

// The collector's pace. A script of a thousand small commands keeps a few
// MiB live, and at the default GOGC the collector ran every 4 MiB
// allocated. While the live heap is small agsh lets the heap grow to five
// times it (at least 16 MiB) before collecting, so that a one-shot command
// rarely collects after its start-up; a script (ScriptPace) grows it to
// 2.5 times (at least 6 MiB): 400 bought a script no CPU for 8 MiB more
// resident (docs/shell.md#the-cost-of-a-command). The first collection
// that finds more than smallHeap live (a big answer held) restores the
// default for the rest of the run, so a big value costs twice itself at
// most, as before. GOGC set in the environment is left alone.

const (
	smallHeapGC  = 400
	scriptHeapGC = 150
	smallHeap    = 16 << 20
)

// ScreenPace restores the default pace for a full-screen view (:top) that
// runs until quit and replaces its heap at every refresh (10,000 sessions
// keep some 12 MiB live: at 400 the heap grew to 75 MiB between
// collections, 100 MiB resident), unless GOGC was set or a big live heap
// restored it already.
func ScreenPace() {
	if gcTuned.Swap(false) {
		debug.SetGCPercent(100)
	}
}

// ScriptPace sets the small-heap pace of a script, unless GOGC was set or
// a big live heap restored the default already.
func ScriptPace() {
	if gcTuned.Load() {
		debug.SetGCPercent(scriptHeapGC)
	}
}

// gcTuned: the small-heap pace is on (it is turned off once).
var gcTuned atomic.Bool

func init() { tune() }

// tune sets the small-heap pace unless GOGC set another than the default
// (the runtime read it; agsh reads no environment outside cmd/agsh).
func tune() {
	if prev := debug.SetGCPercent(smallHeapGC); prev != 100 {
		debug.SetGCPercent(prev)
		return
	}
	gcTuned.Store(true)
	watchHeap()
}

// watchHeap checks the live heap after the next collection: a cleanup runs
// once the sentinel is collected, and arms the next one.
func watchHeap() {
	sentinel := new([32]byte) // not a tiny allocation (those share a block)
	runtime.AddCleanup(sentinel, func(struct{}) {
		if !gcTuned.Load() {
			return
		}
		if liveHeap() > smallHeap {
			gcTuned.Store(false)
			debug.SetGCPercent(100)
			return
		}
		watchHeap()
	}, struct{}{})
}

// liveHeap is the heap the last collection found live, in bytes.
func liveHeap() uint64 {
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return s[0].Value.Uint64()
}
