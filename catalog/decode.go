package catalog

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/agsh-dev/agsh/internal/jsontext"
)

// errorBodyLimit bounds how much of a non-2xx body is read.
const errorBodyLimit = 1 << 20

// do sends r and decodes a 2xx answer into v, streaming with exact numbers;
// any other answer becomes an *Error. A value of an unexpected JSON type is
// skipped (its field stays zero) unless its path is one of the essential
// ones, which make the answer unusable.
func (c *Client) do(ctx context.Context, r *request, v answer, essential ...string) error {
	resp, b, err := c.send(ctx, r)
	if err != nil {
		return err
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return c.statusError(ctx, r, resp, b)
	}
	defer b.discard()
	var in io.Reader = b
	a, call := v.(*callAnswer)
	var data []byte
	if call {
		var err error
		if r.stream != nil && (resp.ContentLength < 0 || resp.ContentLength > streamMin) {
			var streamed bool
			if data, streamed, err = c.streamCall(ctx, r, resp, b, a); streamed {
				return err
			}
		} else {
			if resp.ContentLength > 0 && resp.ContentLength <= b.in.limit {
				b.in.hold() // read whole as declared: counted by the splice
			}
			data, err = readBody(b, resp.ContentLength, b.in.limit)
		}
		if err == nil {
			if rest, values, ok := a.splice(data, r.rows, b.in.held); ok && b.in.within(values) {
				return c.callCheckedShape(r, resp, a, rest, data)
			}
			*a = callAnswer{}
		}
		if err = b.in.countHeld(data, err); err != nil {
			if _, big := isTooLarge(err); big {
				return c.bodyError(ctx, r, resp, b, err)
			}
		}
		// Anything unusual takes the streaming path over the same bytes,
		// so that every message and status stays what it was.
		in = io.MultiReader(bytes.NewReader(data), errReader{err})
	}
	if ta, ok := v.(*toolsAnswer); ok {
		// The listing is decoded without reflection (listing.go); the
		// same bytes take the usual path when it is not sure.
		data, err := readBody(b, resp.ContentLength, b.in.limit)
		if err == nil && ta.decodeListing(data) {
			return c.refusal(r, resp, v)
		}
		if _, big := isTooLarge(err); big {
			return c.bodyError(ctx, r, resp, b, err)
		}
		in = io.MultiReader(bytes.NewReader(data), errReader{err})
	}
	dec := json.NewDecoder(in)
	dec.UseNumber()
	if err := dec.Decode(v); err != nil {
		var typ *json.UnmarshalTypeError
		if !errors.As(err, &typ) || !softTypeError(fieldPath(typ), essential) {
			return c.bodyError(ctx, r, resp, b, err)
		}
	}
	if call {
		return c.callChecked(r, resp, a, data)
	}
	return c.refusal(r, resp, v)
}

// callChecked finishes a decoded call answer: a refusal, or an answer that
// is not a call's answer (callShape), is an error.
func (c *Client) callChecked(r *request, resp *http.Response, a *callAnswer, data []byte) error {
	return c.callCheckedShape(r, resp, a, data, data)
}

// callCheckedShape is callChecked with the shape read from shape: the
// answer with its result replaced by null (splice), which callShape judges
// as it judges the answer itself, without walking the result again.
func (c *Client) callCheckedShape(r *request, resp *http.Response, a *callAnswer, shape, data []byte) error {
	if err := c.refusal(r, resp, a); err != nil {
		return err
	}
	if problem := callShape(shape); problem != "" {
		return c.fail(&Error{ErrCode: CodeBadResponse, Status: resp.StatusCode, Route: r.route(), Tool: r.tool,
			Message: fmt.Sprintf("deployment answered %s with %s but not a call's answer (%s): %s",
				r.route(), statusLine(resp), problem, snippet(data[:min(len(data), prefixCap)], c.opts.BearerToken))})
	}
	return nil
}

// refusal is the *Error of a decoded 2xx answer that carries an error code.
func (c *Client) refusal(r *request, resp *http.Response, v answer) error {
	if ref := v.refused(); len(ref.Error) > 0 && !bytes.Equal(ref.Error, []byte("null")) {
		env := envelopeFields{Error: jsonText(ref.Error), Message: jsonText(ref.Message)}
		return c.remote(r, resp.StatusCode, env)
	}
	return nil
}

// readBody reads a whole answer, sized by its Content-Length when known
// (a declared length is believed only up to limit, the answer's bound).
// Otherwise it reads in chunks and joins them once, so that a big answer
// costs twice its size at most, not the sum of a doubling buffer's steps.
func readBody(b io.Reader, size, limit int64) ([]byte, error) {
	if size > 0 && size <= limit {
		buf := bytes.NewBuffer(make([]byte, 0, size+bytes.MinRead))
		_, err := buf.ReadFrom(b)
		return buf.Bytes(), err
	}
	var chunks [][]byte
	total := 0
	next := 64 << 10
	var err error
	for err == nil {
		chunk := make([]byte, next)
		n := 0
		for n < len(chunk) && err == nil {
			var k int
			k, err = b.Read(chunk[n:])
			n += k
		}
		chunks = append(chunks, chunk[:n])
		total += n
		next = min(next*2, 8<<20)
	}
	if err == io.EOF {
		err = nil
	}
	if _, big := isTooLarge(err); big || len(chunks) == 1 {
		// An answer past its bound is not used (its message quotes the
		// body's first bytes, kept apart): it is not joined either.
		if big {
			return nil, err
		}
		return chunks[0], err
	}
	data := make([]byte, 0, total)
	for i, c := range chunks {
		data = append(data, c...)
		chunks[i] = nil
	}
	return data, err
}

// errReader returns err (io.EOF when nil) once its bytes are spent.
type errReader struct{ err error }

func (e errReader) Read([]byte) (int, error) {
	if e.err == nil {
		return 0, io.EOF
	}
	return 0, e.err
}

// splice decodes a call answer without encoding/json walking its result
// (for a 50 MB file text it walks the string byte by byte twice and copies
// it; a 100,000-row array it scans twice more): a string result is checked
// as encoding/json's scanner would, an object or array result by
// jsontext's reader (the same grammar), the rest of the envelope (with the
// result replaced by null, returned as rest) is decoded as usual, and
// Result is the result's bytes as received. It reports false, deciding
// nothing, for any answer it is not sure of: not an object, no or several
// result keys, another key that encoding/json would fold to "result", a
// result of another kind or nested near encoding/json's depth limit, any
// decoding error; the caller then decodes the whole answer the usual way.
// With rows set, an array result of objects is indexed as it is checked
// (Rows). With maxValues set (a held answer's bound, boundedReader.hold),
// values is the answer's count of values as the bound counts them, found
// by the same pass; past maxValues it is above it and ok may be false.
func (a *callAnswer) splice(data []byte, rows bool, maxValues int64) (rest []byte, values int64, ok bool) {
	start, end, idx, values, ok := resultSpan(data, rows, maxValues, a.fed)
	if !ok {
		return nil, values, false
	}
	if maxValues > 0 {
		values += valuesIn(data[:start]) + valuesIn(data[end:])
	}
	rest = make([]byte, 0, len(data)-(end-start)+4)
	rest = append(append(append(rest, data[:start]...), "null"...), data[end:]...)
	dec := json.NewDecoder(bytes.NewReader(rest))
	dec.UseNumber()
	if dec.Decode(a) != nil || jsontext.SkipSpace(rest, int(dec.InputOffset())) != len(rest) {
		*a = callAnswer{}
		return nil, values, false
	}
	a.Result = json.RawMessage(data[start:end:end])
	a.Checked = true // resultSpan checked it (jsontext.ValueEnd, IndexArray)
	a.Rows = idx
	return rest, values, true
}

// spliceDepth bounds the nesting of a result that splice reads: well
// inside encoding/json's limit (10,000 levels, the envelope's included),
// so that deeper results get encoding/json's own verdict.
const spliceDepth = 9000

// resultSpan finds the span of a top-level "result" member whose value is
// a valid JSON string, object or array. Other values are skipped, not
// checked: they are left for encoding/json. With rows set, an array of
// objects is indexed in the same pass (offsets into the result's bytes).
// values counts the result's values (CountedEnd), up to maxValues (0: no
// bound).
func resultSpan(data []byte, rows bool, maxValues int64, fed *fedArray) (start, end int, idx *jsontext.Rows, values int64, ok bool) {
	found := false
	_, ok = jsontext.Members(data, 0, func(key []byte, i int) (int, bool) {
		key = key[1 : len(key)-1]
		exact := string(key) == "result"
		if !exact && (bytes.EqualFold(key, []byte("result")) || bytes.ContainsFunc(key, func(r rune) bool {
			return r == '\\' || r >= utf8.RuneSelf
		})) {
			return 0, false
		}
		if !exact || i >= len(data) {
			return jsontext.SpanEnd(data, i)
		}
		if c := data[i]; found || c != '"' && c != '{' && c != '[' {
			return 0, false
		}
		if c := data[i]; c == '[' && rows {
			var ve int
			var n int64
			var r *jsontext.Rows
			if fed != nil && fed.at == i && fed.maxValues == maxValues {
				ve, n, r, ok = fed.feed.Result(data[i:]) // IndexArray's, begun as the bytes arrived
			} else {
				ve, n, r, ok = jsontext.IndexArray(data[i:], 0, spliceDepth, maxValues)
			}
			if values = n; ok {
				found, start, end, idx = true, i, i+ve, r
			}
			return i + ve, ok
		}
		ve, n, ok := jsontext.CountedEnd(data, i, spliceDepth, maxValues)
		if values = n; ok {
			found, start, end = true, i, ve
		}
		return ve, ok
	})
	if !ok || !found {
		return 0, 0, nil, values, false
	}
	return start, end, idx, values, true
}

// bodyError explains a 2xx body that could not be decoded.
func (c *Client) bodyError(ctx context.Context, r *request, resp *http.Response, b *body, err error) *Error {
	if ctx.Err() != nil {
		return c.interrupted(ctx, r, true)
	}
	e := &Error{ErrCode: CodeBadResponse, Status: resp.StatusCode, Route: r.route(), Tool: r.tool, Err: err}
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	if big, ok := isTooLarge(err); ok {
		e.Message = c.tooLargeText(r, big)
		return c.fail(e)
	}
	switch {
	case b.expired.Load():
		e.ErrCode = CodeTimeout
		e.Message = fmt.Sprintf("deployment did not answer: its answer to %s did not arrive whole within %s",
			r.route(), c.opts.GetTimeout)
	case b.timedOut.Load() && !r.get():
		e.ErrCode = CodeTimeout
		e.Message = fmt.Sprintf("deployment stopped answering: its answer to %s stalled for %s after it began; "+
			"the call may have completed on the deployment", r.route(), c.opts.StallTimeout)
	case b.timedOut.Load():
		e.ErrCode = CodeTimeout
		e.Message = fmt.Sprintf("deployment did not answer: its answer to %s stalled for %s",
			r.route(), c.opts.HeaderTimeout)
	case errors.Is(err, io.EOF) && len(b.prefix) == 0:
		e.Message = fmt.Sprintf("deployment answered %s with %s and an empty body", r.route(), statusLine(resp))
	case errors.Is(err, io.ErrUnexpectedEOF) || isReset(err) || isNetError(err):
		e.Message = fmt.Sprintf("the answer to %s was cut short after %s (%s)",
			r.route(), sizeText(resp, b), causeText(err))
	case errors.As(err, &typ):
		e.Message = fmt.Sprintf("deployment answered %s with an unexpected shape (%s): %s",
			r.route(), typeText(typ), snippet(b.prefix, c.opts.BearerToken))
	case !errors.As(err, &syn):
		e.Message = fmt.Sprintf("deployment answered %s with an unexpected shape (%s): %s",
			r.route(), strings.TrimPrefix(err.Error(), "json: "), snippet(b.prefix, c.opts.BearerToken))
	default:
		e.Message = fmt.Sprintf("deployment answered %s with %s (%s), not the expected JSON: %s",
			r.route(), statusLine(resp), contentType(resp), snippet(b.prefix, c.opts.BearerToken))
	}
	return c.fail(e)
}

// statusError turns a non-2xx answer into an *Error: the envelope's code
// when there is one; else by status, probing for mounted agents on a 404.
func (c *Client) statusError(ctx context.Context, r *request, resp *http.Response, b *body) *Error {
	raw, err := io.ReadAll(io.LimitReader(b, errorBodyLimit))
	b.discard()
	if err != nil && ctx.Err() != nil {
		return c.interrupted(ctx, r, true)
	}
	if resp.StatusCode == http.StatusProxyAuthRequired {
		// Only a proxy asks for proxy credentials (a plain http:// target
		// through a proxy gets its answer from the proxy itself).
		return c.proxyAuth(r, c.proxyHost(resp.Request.URL), resp.StatusCode)
	}
	if env, ok := parseEnvelope(raw); ok {
		if resp.StatusCode == http.StatusNotFound && r.feature != "" &&
			env.Error != CodeUnknownSession && env.Error != CodeUnknownCall {
			return c.notExposed(r)
		}
		if resp.StatusCode == http.StatusNotFound && r.records && env.Error == codeRouteNotFound {
			return c.noRecords(r)
		}
		if resp.StatusCode == http.StatusNotFound && r.probe && env.Error == codeRouteNotFound {
			// The host answers, but no route of an agent is there: the
			// target's path names no agent (e.g. …/executor/v1).
			return c.notAnAgent(ctx)
		}
		return c.remote(r, resp.StatusCode, env)
	}
	status := resp.StatusCode
	switch {
	case status == http.StatusNotFound && r.sessions:
		return c.fail(&Error{ErrCode: CodeNoSessionsRoute, Status: status, Route: r.route(),
			Message: "the deployment at " + c.display + " has no " + r.route() +
				" route, so agsh cannot find its latest session; pass " + SettingSession.mark() + " or " +
				SettingContinuationToken.mark()})
	case status == http.StatusNotFound && r.probe:
		return c.notAnAgent(ctx)
	case status == http.StatusNotFound && r.records:
		return c.noRecords(r)
	case status == http.StatusNotFound && r.feature != "":
		return c.notExposed(r)
	case status == http.StatusUnauthorized:
		return c.remote(r, status, envelopeFields{Error: CodeUnauthorized})
	case status == http.StatusForbidden:
		return c.remote(r, status, envelopeFields{Error: CodeForbidden})
	case !r.get() && status >= 300 && status <= 399:
		// A 3xx net/http did not follow (no Location, or not a redirect
		// status): the call did not run either.
		return c.fail(&Error{ErrCode: CodeBadResponse, Status: status, Route: r.route(), Tool: r.tool,
			Exit: ExitUnreachable, Message: (&redirectError{post: true, status: status}).text(r)})
	}
	return c.fail(&Error{ErrCode: CodeBadResponse, Status: status, Route: r.route(), Tool: r.tool,
		Exit: exitForStatus(status),
		Message: fmt.Sprintf("deployment answered %s with %s (%s): %s",
			r.route(), statusLine(resp), contentType(resp), snippet(raw, c.opts.BearerToken))})
}

// noRecords is the error of a deployment without a record route.
func (c *Client) noRecords(r *request) *Error {
	return c.fail(&Error{ErrCode: CodeNoRecords, Status: http.StatusNotFound, Route: r.route(),
		Message: "this deployment does not expose session records (" + r.route() +
			" answered 404)"})
}

// notExposed is the error of a console route the deployment does not have.
func (c *Client) notExposed(r *request) *Error {
	return c.fail(&Error{ErrCode: CodeNotExposed, Status: http.StatusNotFound, Route: r.route(),
		Message: "this deployment does not expose " + r.feature + " (" + r.route() + " answered 404)"})
}

// remote is the *Error of an envelope refusal.
func (c *Client) remote(r *request, status int, env envelopeFields) *Error {
	session := env.SessionID
	if session == "" {
		session = r.session
	}
	e := &Error{ErrCode: env.Error, Status: status, Message: env.Message, Remote: true,
		Available: env.Available, Issues: env.Issues, SessionID: session, Tool: r.tool, Route: r.route(),
		CallID: r.call}
	if env.Error == "" && status == http.StatusUnauthorized {
		e.ErrCode = CodeUnauthorized
	}
	if e.ErrCode == CodeUnauthorized || e.ErrCode == CodeForbidden && c.opts.BearerToken != "" {
		e.Message = c.authHint(e.Message)
	}
	return c.fail(e)
}

// authHint adds where the refused credential came from.
func (c *Client) authHint(msg string) string {
	var from string
	switch {
	case c.opts.BearerToken == "":
		from = "no credential was sent"
	case c.opts.CredentialSource != "":
		from = "credential from " + c.opts.CredentialSource
	default:
		return msg
	}
	if msg == "" {
		return from
	}
	return msg + " (" + from + ")"
}

// jsonText is a JSON string's value, or any other JSON value's text; "" for
// missing or null.
func jsonText(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	return string(raw)
}

// tooLargeText says which answer went past which bound, and what raises it.
func (c *Client) tooLargeText(r *request, big *TooLargeError) string {
	msg := "the answer to " + r.route() + " is larger than " + limitText(big.Limit) + ", agsh's limit for one answer"
	if big.Values > 0 {
		msg = "the answer to " + r.route() + " holds more than " + itoa(int(big.Values)) +
			" JSON values, agsh's limit for one answer of up to " + limitText(big.Limit)
	}
	if c.opts.LimitHint != "" {
		msg += "; " + c.opts.LimitHint
	}
	return msg
}

// limitText is "128 MiB (134217728 bytes)".
func limitText(n int64) string {
	if s := byteSize(n); !strings.HasSuffix(s, " bytes") {
		return s + " (" + strconv.FormatInt(n, 10) + " bytes)"
	}
	return byteSize(n)
}

func statusLine(resp *http.Response) string {
	if t := http.StatusText(resp.StatusCode); t != "" {
		return fmt.Sprintf("%d %s", resp.StatusCode, t)
	}
	return fmt.Sprint(resp.StatusCode)
}

func contentType(resp *http.Response) string {
	ct := resp.Header.Get("Content-Type")
	if ct == "" {
		return "no content type"
	}
	if mt, _, err := mime.ParseMediaType(ct); err == nil {
		return clipText(mt, maxCauseText)
	}
	return clipText(strings.TrimSpace(ct), maxCauseText)
}

func sizeText(resp *http.Response, b *body) string {
	got := fmt.Sprintf("%d bytes", b.read)
	if resp.ContentLength > 0 {
		return fmt.Sprintf("%s of %d", got, resp.ContentLength)
	}
	return got
}

func typeText(e *json.UnmarshalTypeError) string {
	where := fieldPath(e)
	if where == "" {
		where = "the answer"
	}
	return fmt.Sprintf("%s is a JSON %s", where, e.Value)
}

// softTypeError reports a type error that decoding skipped: not on an
// essential path, and not inside a "source" (Source's own decoder stops
// the whole decoding on a wrong type, leaving the rest undecoded).
func softTypeError(path string, essential []string) bool {
	if slices.Contains(essential, path) {
		return false
	}
	for _, el := range strings.Split(path, ".") {
		if el == "source" {
			return false
		}
	}
	return true
}

// fieldPath is the JSON path of a type error ("tools", "tool.name"),
// without the names of the embedded Go types that lead Field.
func fieldPath(e *json.UnmarshalTypeError) string {
	parts := strings.Split(e.Field, ".")
	for len(parts) > 0 && parts[0] != "" && parts[0][0] >= 'A' && parts[0][0] <= 'Z' {
		parts = parts[1:]
	}
	return strings.Join(parts, ".")
}
