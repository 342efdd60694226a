package devserver

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"

	"github.com/agsh-dev/agsh/internal/wire"
)

// fault is one armed failure for the next Count requests of a route.
type fault struct {
	// Principal armed the fault; it applies only to that principal's
	// requests.
	Principal    string
	Method, Path string
	Count        int
	Status       int
	DelayMs      int
	HangMs       int
	Body         []byte // nil: no replacement body
	Truncate     bool
}

// faultSet holds an agent's armed faults, first armed first used.
type faultSet struct {
	mu     sync.Mutex
	faults []*fault
}

// take consumes one use of the first fault principal armed for the route,
// or returns nil.
func (fs *faultSet) take(principal, method, path string) *fault {
	path = strings.TrimSuffix(path, "/")
	fs.mu.Lock()
	defer fs.mu.Unlock()
	for i, f := range fs.faults {
		if f.Principal != principal || f.Method != method || f.Path != path {
			continue
		}
		f.Count--
		if f.Count <= 0 {
			fs.faults = append(fs.faults[:i], fs.faults[i+1:]...)
		}
		return f
	}
	return nil
}

func (fs *faultSet) add(f *fault) {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	fs.faults = append(fs.faults, f)
}

// clear removes the faults principal armed and says how many.
func (fs *faultSet) clear(principal string) int {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	kept := fs.faults[:0]
	for _, f := range fs.faults {
		if f.Principal != principal {
			kept = append(kept, f)
		}
	}
	n := len(fs.faults) - len(kept)
	clear(fs.faults[len(kept):])
	fs.faults = kept
	return n
}

// faultBody is the body of POST /v1/dev/faults.
type faultBody struct {
	Route    string          `json:"route"`
	Count    *int            `json:"count"`
	Status   int             `json:"status"`
	DelayMs  int             `json:"delayMs"`
	HangMs   int             `json:"hangMs"`
	Body     json.RawMessage `json:"body"`
	Truncate bool            `json:"truncate"`
}

// list describes the faults principal armed (bodies by their size).
func (fs *faultSet) list(principal string) []map[string]any {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	out := []map[string]any{}
	for _, f := range fs.faults {
		if f.Principal != principal {
			continue
		}
		out = append(out, map[string]any{"route": f.Method + " " + f.Path, "count": f.Count, "status": f.Status,
			"delayMs": f.DelayMs, "hangMs": f.HangMs, "bodyBytes": len(f.Body), "truncate": f.Truncate})
	}
	return out
}

// serveFaults answers POST /v1/dev/faults (arm one), GET (list the armed
// ones) and DELETE (clear them), each for the caller's own faults only.
func (a *agent) serveFaults(c *reqCtx) {
	if c.r.Method == http.MethodGet || c.r.Method == http.MethodHead {
		writeJSON(c.w, http.StatusOK, map[string]any{"ok": true, "faults": a.faults.list(c.principal)})
		return
	}
	if c.r.Method == http.MethodDelete {
		n := a.faults.clear(c.principal)
		writeJSON(c.w, http.StatusOK, map[string]any{"ok": true, "cleared": n})
		return
	}
	var body faultBody
	if err := decodeBody(c, maxFaultBody, &body, false); err != nil {
		writeError(c.w, err)
		return
	}
	f, issue := a.parseFault(body)
	if issue != nil {
		e := errorf(http.StatusBadRequest, wire.CodeInvalidInput, "invalid fault: "+pathKey(issue.Path)+": "+issue.Message)
		e.body.Issues = []wire.Issue{*issue}
		writeError(c.w, e)
		return
	}
	f.Principal = c.principal
	a.faults.add(f)
	writeJSON(c.w, http.StatusOK, map[string]any{"ok": true, "route": f.Method + " " + f.Path, "count": f.Count})
}

// parseFault checks an armed fault. The route is "METHOD /path" under the
// agent mount; a path that repeats the mount (/executor/v1/…) is accepted.
func (a *agent) parseFault(b faultBody) (*fault, *wire.Issue) {
	bad := func(field, format string, args ...any) (*fault, *wire.Issue) {
		return nil, &wire.Issue{Path: []any{field}, Message: fmt.Sprintf(format, args...)}
	}
	method, path, ok := strings.Cut(strings.TrimSpace(b.Route), " ")
	path = strings.TrimSpace(path)
	if !ok || method == "" || !strings.HasPrefix(path, "/") {
		return bad("route", `expected "METHOD /path", such as "POST /v1/tools/read"`)
	}
	if i := strings.IndexAny(path, "?#"); i >= 0 {
		path = path[:i]
	}
	path = strings.TrimPrefix(path, "/"+a.slug)
	if !strings.HasPrefix(path, "/") {
		path = "/" + path
	}
	f := &fault{Method: strings.ToUpper(method), Path: strings.TrimSuffix(path, "/"), Count: 1,
		Status: b.Status, DelayMs: b.DelayMs, HangMs: b.HangMs, Truncate: b.Truncate}
	if b.Count != nil {
		if *b.Count < 1 {
			return bad("count", "must be at least 1")
		}
		f.Count = *b.Count
	}
	if b.Status != 0 && (b.Status < 100 || b.Status > 599) {
		return bad("status", "must be an HTTP status between 100 and 599")
	}
	if b.DelayMs < 0 || b.DelayMs > 600_000 {
		return bad("delayMs", "must be between 0 and 600000")
	}
	if b.HangMs < 0 || b.HangMs > 600_000 {
		return bad("hangMs", "must be between 0 and 600000")
	}
	if raw := bytes.TrimSpace(b.Body); len(raw) > 0 && !bytes.Equal(raw, []byte("null")) {
		if raw[0] == '"' {
			f.Body = unquote(raw)
			if f.Body == nil {
				return bad("body", "not a valid JSON string")
			}
		} else {
			f.Body = append([]byte(nil), raw...) // a JSON value given as is
		}
	}
	if f.Status == 0 && f.Body == nil && f.DelayMs == 0 && f.HangMs == 0 && !f.Truncate {
		return bad("status", "a fault needs at least one of status, body, delayMs, hangMs, truncate")
	}
	return f, nil
}

// unquote returns the bytes of a JSON string the decoder already checked;
// nil if it is not one. A string without escapes (a big raw body, usually)
// is sliced rather than decoded a second time.
func unquote(raw []byte) []byte {
	if len(raw) >= 2 && raw[0] == '"' && raw[len(raw)-1] == '"' && bytes.IndexByte(raw, '\\') < 0 {
		return raw[1 : len(raw)-1 : len(raw)-1]
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return nil
	}
	return []byte(s)
}
