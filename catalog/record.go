package catalog

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"strconv"
	"strings"
)

// The record routes (docs/wire.md#session-records-and-console-routes):
// GET /v1/session/{id}/events, the whole record, and GET
// /v1/session/{id}/stream?startIndex=N, the record live. Both are read as
// they arrive (eventread.go): a GET of the record is bounded per event and
// for each pause of its body (Options.HeaderTimeout), not as a whole; a
// stream has no time limit at all (an agent may think for an hour), only
// the context's.

// sessionRoute is "/v1/session/{id}" + suffix, the id path-escaped.
func sessionRoute(id, suffix string) string {
	return pathSession + "/" + url.PathEscape(id) + suffix
}

// RecordURL is the URL of session id's record on the target (its …/events
// route; docs/wire.md#session-records-and-console-routes), for a person to
// read: the target's display form, no credential.
func (c *Client) RecordURL(id string) string {
	return strings.TrimSuffix(c.display, "/") + sessionRoute(id, suffixEvents)
}

// Record reads the record of session id (GET /v1/session/{id}/events) and
// calls each with every event in index order; the *Event is valid only
// during the call (copy what is kept). note receives notes about events
// skipped (too large, not JSON, out of order), one line each, untrusted
// text quoted. An error from each stops the read and is returned as it is.
//
// Refusals: 404 unknown_session (exit 3), 403 (exit 4); a 404 that is not
// the envelope, or is not_found, means the deployment has no record route
// (CodeNoRecords, exit 3).
func (c *Client) Record(ctx context.Context, id string, each func(*Event) error, note func(string)) error {
	if err := checkSessionID(id); err != nil {
		return err
	}
	r := &request{method: http.MethodGet, root: c.base, path: sessionRoute(id, suffixEvents), session: id,
		records: true}
	return c.readEvents(ctx, r, -1, each, note)
}

// Follow reads the live record of session id from index start on (GET
// /v1/session/{id}/stream?startIndex=start) and calls each with every
// event as it arrives, in index order (see Record). It returns nil when
// the deployment ends the stream, an *Error when the connection fails or
// ctx is cancelled (CodeInterrupted), or each's error. The caller
// reconnects from the last index + 1.
func (c *Client) Follow(ctx context.Context, id string, start int64, each func(*Event) error, note func(string)) error {
	if err := checkSessionID(id); err != nil {
		return err
	}
	if start < 0 {
		start = 0
	}
	r := &request{method: http.MethodGet, root: c.base, path: sessionRoute(id, suffixStream), session: id,
		records: true, live: true, query: url.Values{queryStartIndex: {strconv.FormatInt(start, 10)}}}
	return c.readEvents(ctx, r, start, each, note)
}

// readEvents sends r and reads its body's events; floor ≥ 0 drops the
// events below it (a stream replays from the index asked).
func (c *Client) readEvents(ctx context.Context, r *request, floor int64, each func(*Event) error, note func(string)) error {
	resp, b, err := c.send(ctx, r)
	if err != nil {
		return err
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return c.statusError(ctx, r, resp, b)
	}
	// Closed, not drained: a stream left early may never end.
	defer b.Close()
	var eachErr error
	er := newEventReader(b, func(ev *Event) error {
		if err := each(ev); err != nil {
			eachErr = err
			return err
		}
		return nil
	}, note)
	if c.maxSkip > 0 {
		er.maxSkip = c.maxSkip
	}
	if floor >= 0 {
		er.floor = floor
		er.last = floor - 1
		err = er.readLines()
	} else {
		err = er.readBody()
	}
	er.finish()
	if eachErr != nil {
		return eachErr
	}
	if err == nil && er.enveloped {
		switch {
		case er.refusal || er.envelope.Error != "":
			return c.remote(r, resp.StatusCode, er.envelope)
		case !er.hasEvents:
			return c.missing(r, "events")
		}
	}
	if err == nil {
		return nil
	}
	return c.eventsError(ctx, r, resp, b, er, err)
}

// eventsError explains a record's body that could not be read to its end.
func (c *Client) eventsError(ctx context.Context, r *request, resp *http.Response, b *body, er *eventReader, err error) error {
	if ctx.Err() != nil {
		return c.interrupted(ctx, r, true)
	}
	after := "before its first event"
	if er.last >= 0 && er.count > 0 {
		after = "after event " + strconv.FormatInt(er.last, 10)
	}
	e := &Error{ErrCode: CodeBadResponse, Status: resp.StatusCode, Route: r.route(), Err: err}
	switch {
	case errors.Is(err, errEndlessLine):
		e.Message = "the answer to " + r.route() + " has a line of more than " + byteSize(er.maxSkip) +
			" without a line break; agsh stopped reading it " + after
	case errors.Is(err, errMalformed):
		e.Message = "the answer to " + r.route() + " is not the JSON of a record " + after + ": " +
			snippet(b.prefix, c.opts.BearerToken)
	case b.timedOut.Load():
		e.ErrCode = CodeTimeout
		e.Message = "deployment stopped answering: its answer to " + r.route() + " stalled for " +
			c.opts.HeaderTimeout.String() + " " + after
	default:
		e.ErrCode = CodeUnreachable
		e.Message = "the answer to " + r.route() + " was cut short " + after + " (" + causeText(err) + ")"
	}
	return c.fail(e)
}

// checkSessionID refuses an id no route can carry (a usage error).
func checkSessionID(id string) error {
	if _, ok := SessionIDOK(id); !ok {
		return usageError("%q is not a session id", clipText(id, 80))
	}
	return nil
}

// IsNoRecords reports the error of a deployment without the record routes.
func IsNoRecords(err error) bool { return IsCode(err, CodeNoRecords) }
