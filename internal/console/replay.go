package console

import (
	"context"
	"encoding/json"
	"errors"
	"sort"
	"strconv"
	"strings"

	"github.com/agsh-dev/agsh/catalog"
	"github.com/agsh-dev/agsh/internal/exitcode"
)

// Call is one call of a record: what :replay repeats.
type Call struct {
	ID, Tool string
	// Input is the call's input as recorded (nil when the deployment cut
	// it: Truncated).
	Input     json.RawMessage
	Truncated bool
	// Index is the event that asked for it.
	Index int64
}

// ReplayError is a :replay that finds no call to repeat.
type ReplayError struct {
	Msg  string
	Exit int
	// Code_ is the JSON error line's code ("": by Exit).
	Code_ string
}

func (e *ReplayError) Error() string { return e.Msg }

// ExitCode is the error's status: 3 (no such call; its input is not in the
// record), 2 (an ambiguous prefix).
func (e *ReplayError) ExitCode() int { return e.Exit }

// Code is the JSON error line's code.
func (e *ReplayError) Code() string {
	if e.Code_ != "" {
		return e.Code_
	}
	if e.Exit == exitcode.Usage {
		return "usage"
	}
	return "unknown_call"
}

// maxAmbiguous is how many ids an ambiguous prefix names.
const maxAmbiguous = 5

// FindCall finds the call id names in the record of session: the call of
// that id, else the one call whose id starts with it (as git takes an
// abbreviated hash). The record is read as it arrives.
func FindCall(ctx context.Context, c *catalog.Client, session, id string) (*Call, error) {
	var exact *Call
	var byPrefix []*Call
	seen := map[string]bool{}
	errFound := errors.New("found")
	consider := func(ev *catalog.Event, callID, tool string, input json.RawMessage, cut bool) error {
		switch {
		case callID == id:
			exact = newCall(ev, callID, tool, input, cut)
			return errFound
		case strings.HasPrefix(callID, id) && !seen[callID] && len(byPrefix) <= maxAmbiguous:
			seen[callID] = true
			byPrefix = append(byPrefix, newCall(ev, callID, tool, input, cut))
		}
		return nil
	}
	err := c.Record(ctx, session, func(ev *catalog.Event) error {
		switch ev.Type {
		case catalog.EventActionsRequested:
			for _, k := range ev.Fields().Calls {
				if err := consider(ev, k.CallID, k.ToolName, k.Input, k.InputTruncated); err != nil {
					return err
				}
			}
		case catalog.EventApprovalRequested:
			f := ev.Fields()
			return consider(ev, f.CallID, f.ToolName, f.Input, f.InputTruncated)
		}
		return nil
	}, nil)
	if err != nil && err != errFound {
		return nil, err
	}
	switch {
	case exact != nil:
		return exact, nil
	case len(byPrefix) == 1:
		return byPrefix[0], nil
	case len(byPrefix) > 1:
		ids := make([]string, 0, len(byPrefix))
		for _, k := range byPrefix[:min(len(byPrefix), maxAmbiguous)] {
			ids = append(ids, k.ID)
		}
		more := ""
		if len(byPrefix) > maxAmbiguous {
			more = ", …"
		}
		return nil, &ReplayError{Exit: exitcode.Usage, Msg: "call id " + strconv.Quote(id) + " is ambiguous in the record of session " +
			session + ": " + strings.Join(ids, ", ") + more + "; give more of it"}
	}
	return nil, &ReplayError{Exit: exitcode.Refused, Msg: "no call " + strconv.Quote(id) + " in the record of session " +
		session + "; :trace lists its calls"}
}

func newCall(ev *catalog.Event, id, tool string, input json.RawMessage, cut bool) *Call {
	k := &Call{ID: id, Tool: tool, Index: ev.Index, Truncated: cut || len(input) == 0 || string(input) == "null"}
	if !k.Truncated {
		k.Input = append(json.RawMessage(nil), input...)
	}
	return k
}

// CallIDs are the ids of the last max calls of the record, newest first,
// for completion.
func CallIDs(ctx context.Context, c *catalog.Client, session string, max int) ([]string, error) {
	order := map[string]int64{}
	n := int64(0)
	err := c.Record(ctx, session, func(ev *catalog.Event) error {
		if ev.Type != catalog.EventActionsRequested {
			return nil
		}
		for _, k := range ev.Fields().Calls {
			if k.CallID == "" {
				continue
			}
			n++
			order[k.CallID] = n
			if len(order) > 4*max {
				// Keep the newest max (flat memory on a long record).
				prune(order, max)
			}
		}
		return nil
	}, nil)
	prune(order, max)
	ids := make([]string, 0, len(order))
	for id := range order {
		ids = append(ids, id)
	}
	sort.Slice(ids, func(i, j int) bool { return order[ids[i]] > order[ids[j]] })
	return ids, err
}

// prune keeps the max newest entries of order.
func prune(order map[string]int64, max int) {
	if max < 1 {
		clear(order)
		return
	}
	if len(order) <= max {
		return
	}
	vals := make([]int64, 0, len(order))
	for _, v := range order {
		vals = append(vals, v)
	}
	sort.Slice(vals, func(i, j int) bool { return vals[i] > vals[j] })
	cut := vals[max-1]
	for k, v := range order {
		if v < cut {
			delete(order, k)
		}
	}
}
