package console

import (
	"context"
	"errors"

	"github.com/agsh-dev/agsh/catalog"
)

// readAhead reads session id's record as Client.Record does, in a goroutine
// of its own that also decodes each event's data, and hands the events
// with their data to each, in order, on the caller's goroutine: reading
// and decoding the record overlap with what each does with it (a trace's
// rows, an export's lines), so a long record uses both of a machine's
// cores. Notes come to note on the caller's goroutine too, in their place
// among the events. What is read ahead is bounded: a few batches of at
// most readAheadEvents events and readAheadBytes bytes (one event bigger
// than that is a batch of its own). An error of each stops the read and is
// returned.
//
// prepare, when set, runs on the reading goroutine for each event (its
// data decoded) and what it answers is handed to each with the event: the
// command lines of a trace's calls, made while the caller writes the rows
// before them. Nothing else may call what prepare calls meanwhile.
func readAhead(ctx context.Context, c *catalog.Client, id string, note func(string),
	prepare func(ev *catalog.Event, f *catalog.EventData) []string,
	each func(ev *catalog.Event, f *catalog.EventData, prepared []string) error) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	batches := make(chan *aheadBatch, readAheadBatches)
	// free holds the batches the caller is done with, for the reader to
	// fill again (nothing each is handed outlives its call).
	free := make(chan *aheadBatch, readAheadBatches+2)
	done := make(chan error, 1)
	go func() {
		fresh := func() *aheadBatch {
			select {
			case b := <-free:
				b.items, b.arena = b.items[:0], b.arena[:0]
				return b
			default:
				return &aheadBatch{items: make([]aheadItem, 0, readAheadEvents)}
			}
		}
		b := fresh()
		send := func() bool {
			select {
			case batches <- b:
				b = fresh()
				return true
			case <-ctx.Done():
				return false
			}
		}
		err := c.Record(ctx, id, func(ev *catalog.Event) error {
			b.add(ev)
			if prepare != nil {
				it := &b.items[len(b.items)-1]
				it.prepared = prepare(&it.ev, &it.f)
			}
			if (len(b.items) >= readAheadEvents || len(b.arena) >= readAheadBytes) && !send() {
				return errStopped
			}
			return nil
		}, func(s string) {
			b.items = append(b.items, aheadItem{note: s, isNote: true})
		})
		if len(b.items) > 0 {
			send()
		}
		done <- err
		close(batches)
	}()
	var eachErr error
	for b := range batches {
		if eachErr != nil {
			continue // drain: the reader stops at its next send
		}
		for i := range b.items {
			it := &b.items[i]
			if it.isNote {
				if note != nil {
					note(it.note)
				}
				continue
			}
			if err := each(&it.ev, &it.f, it.prepared); err != nil {
				eachErr = err
				cancel()
				break
			}
		}
		clear(b.items)
		select {
		case free <- b:
		default:
		}
	}
	err := <-done
	if eachErr != nil {
		return eachErr
	}
	if errors.Is(err, errStopped) {
		return nil
	}
	return err
}

// Bounds of what readAhead holds.
const (
	readAheadBatches = 4
	readAheadEvents  = 512
	readAheadBytes   = 1 << 20
)

// errStopped ends a read whose consumer stopped.
var errStopped = errors.New("stopped")

// aheadBatch is events read ahead, their bytes copied into one arena.
type aheadBatch struct {
	items []aheadItem
	arena []byte
}

// aheadItem is an event with its decoded data, or a note.
type aheadItem struct {
	ev       catalog.Event
	f        catalog.EventData
	prepared []string
	note     string
	isNote   bool
}

// add copies ev (valid only during Record's call) into the batch and
// decodes its data from the copy.
func (b *aheadBatch) add(ev *catalog.Event) {
	if len(b.arena)+len(ev.Raw) > cap(b.arena) {
		// A new arena (twice the size, or the event's): the old one stays
		// with the items that point into it.
		b.arena = make([]byte, 0, max(min(2*cap(b.arena), 2*readAheadBytes), 64<<10, len(ev.Raw)))
	}
	start := len(b.arena)
	b.arena = append(b.arena, ev.Raw...)
	cp := *ev
	cp.Raw = b.arena[start:len(b.arena):len(b.arena)]
	if len(ev.Data) > 0 {
		// Data is a part of Raw: the same part of the copy.
		if off := cap(ev.Raw) - cap(ev.Data); off >= 0 && off+len(ev.Data) <= len(cp.Raw) {
			cp.Data = cp.Raw[off : off+len(ev.Data)]
		} else if again, ok := catalog.ParseEvent(cp.Raw); ok {
			cp.Data = again.Data
		} else {
			cp.Data = nil
		}
	}
	b.items = append(b.items, aheadItem{ev: cp})
	it := &b.items[len(b.items)-1]
	it.f = it.ev.Fields()
}
