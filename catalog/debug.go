package catalog

import (
	"context"
	"io"
	"net/http"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode"
	"unicode/utf8"
)

// Seeing the wire (AGSH_DEBUG=api, docs/cli.md#seeing-the-wire): every
// request whose context carries a writer (WithDebug) is logged on it as it
// happens, and its answer when its headers arrive and when its body ends:
// method, URL, status, times, sizes, headers, and the bodies clipped to
// debugBodyCap. Nothing of a credential is written: the Authorization and
// Proxy-Authorization values are masked, the URL's password too, and a
// body is masked of every secret over the whole of it before it is clipped
// (the answer arrives masked already: the redacting transport is below
// this one), so a cut never leaves part of one. Every byte that is not
// printable text is escaped.

// debugBodyCap is how much of a body the log shows.
const debugBodyCap = 2 << 10

// debugKey holds a request's debug writer in its context.
type debugKey struct{}

// WithDebug is ctx whose requests are logged on w (nil: not logged). A
// request without one (completion's, say) is never logged.
func WithDebug(ctx context.Context, w io.Writer) context.Context {
	return context.WithValue(ctx, debugKey{}, w)
}

func debugWriter(ctx context.Context) io.Writer {
	w, _ := ctx.Value(debugKey{}).(io.Writer)
	return w
}

// debugTransport logs the requests of contexts that ask for it.
type debugTransport struct {
	base    http.RoundTripper
	secrets []string
	mu      *sync.Mutex
	seq     *atomic.Int64
}

func newDebugTransport(base http.RoundTripper, secrets []string) debugTransport {
	return debugTransport{base: base, secrets: secrets, mu: new(sync.Mutex), seq: new(atomic.Int64)}
}

func (t debugTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	w := debugWriter(req.Context())
	if w == nil {
		return t.base.RoundTrip(req)
	}
	id := "#" + strconv.FormatInt(t.seq.Add(1), 10)
	start := time.Now()
	var lines []string
	lines = append(lines, id+" > "+req.Method+" "+debugURL(req.URL))
	lines = append(lines, t.headerLines(id+" > ", req.Header)...)
	if req.GetBody != nil && req.ContentLength != 0 {
		if rc, err := req.GetBody(); err == nil {
			body, _ := io.ReadAll(newRedactReader(io.LimitReader(rc, 64<<20), t.secrets))
			_ = rc.Close()
			lines = append(lines, id+" > body "+debugSize(int64(len(body)))+": "+clipBody(body, int64(len(body))))
		}
	}
	t.write(w, lines)
	resp, err := t.base.RoundTrip(req)
	took := time.Since(start)
	if err != nil {
		t.write(w, []string{id + " < no answer after " + durText(took) + ": " + debugText(redactAll(err.Error(), t.secrets))})
		return resp, err
	}
	lines = []string{id + " < " + debugText(resp.Status) + " in " + durText(took)}
	lines = append(lines, t.headerLines(id+" < ", resp.Header)...)
	t.write(w, lines)
	resp.Body = &debugBody{rc: resp.Body, t: t, w: w, id: id, start: start}
	return resp, nil
}

// write writes one record's lines together.
func (t debugTransport) write(w io.Writer, lines []string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	_, _ = io.WriteString(w, "agsh: api: "+strings.Join(lines, "\nagsh: api: ")+"\n")
}

// headerLines are the headers, sorted, credentials masked.
func (t debugTransport) headerLines(prefix string, h http.Header) []string {
	names := make([]string, 0, len(h))
	for k := range h {
		names = append(names, k)
	}
	sort.Strings(names)
	var out []string
	for _, k := range names {
		for _, v := range h[k] {
			switch http.CanonicalHeaderKey(k) {
			case "Authorization", "Proxy-Authorization", "Cookie", "Set-Cookie":
				v = maskCredential(v)
			default:
				v = redactAll(v, t.secrets)
			}
			out = append(out, prefix+debugText(k)+": "+debugText(v))
		}
	}
	return out
}

// maskCredential keeps a credential header's scheme ("Bearer ***").
func maskCredential(v string) string {
	if scheme, _, ok := strings.Cut(v, " "); ok && scheme != "" && !strings.ContainsAny(scheme, "=;") {
		return scheme + " ***"
	}
	return "***"
}

// redactAll masks every secret in s.
func redactAll(s string, secrets []string) string {
	for _, sec := range secrets {
		s = redact(s, sec)
	}
	return s
}

// debugURL is u with its password masked.
func debugURL(u *url.URL) string {
	c := *u
	if c.User != nil {
		if _, ok := c.User.Password(); ok {
			c.User = url.UserPassword(c.User.Username(), "***")
		}
	}
	return debugText(c.String())
}

// debugBody logs the answer's body when it ends: its size, the time since
// the request, its first debugBodyCap bytes.
type debugBody struct {
	rc    io.ReadCloser
	t     debugTransport
	w     io.Writer
	id    string
	start time.Time
	head  []byte
	n     int64
	once  sync.Once
}

func (b *debugBody) Read(p []byte) (int, error) {
	n, err := b.rc.Read(p)
	if room := debugBodyCap + utf8.UTFMax - len(b.head); room > 0 && n > 0 {
		b.head = append(b.head, p[:min(n, room)]...)
	}
	b.n += int64(n)
	if err != nil {
		end := "ended"
		if err != io.EOF {
			end = "broke off (" + debugText(redactAll(err.Error(), b.t.secrets)) + ")"
		}
		b.log(end)
	}
	return n, err
}

func (b *debugBody) Close() error {
	b.log("closed")
	return b.rc.Close()
}

func (b *debugBody) log(how string) {
	b.once.Do(func() {
		line := b.id + " < body " + debugSize(b.n) + " " + how + " after " + durText(time.Since(b.start))
		if b.n > 0 {
			line += ": " + clipBody(b.head, b.n)
		}
		b.t.write(b.w, []string{line})
	})
}

// clipBody is a body's first debugBodyCap bytes as one escaped line, with
// what was left out said; total is the body's size.
func clipBody(b []byte, total int64) string {
	cut := len(b) > debugBodyCap || total > int64(len(b))
	if len(b) > debugBodyCap {
		b = b[:debugBodyCap]
		for i := 0; i < utf8.UTFMax && len(b) > 0 && !utf8.Valid(b[max(0, len(b)-utf8.UTFMax):]); i++ {
			b = b[:len(b)-1] // a character the cut split
		}
	}
	s := debugText(string(b))
	if cut {
		s += "… (" + strconv.Itoa(len(b)) + " of " + strconv.FormatInt(total, 10) + " bytes shown)"
	}
	return s
}

// debugText escapes what is not printable text: control characters
// (newlines and tabs included, so a body is one line), invalid UTF-8, the
// bidi controls and the zero-width characters.
func debugText(s string) string {
	var b strings.Builder
	for len(s) > 0 {
		r, size := utf8.DecodeRuneInString(s)
		switch {
		case r == utf8.RuneError && size <= 1:
			b.WriteString(`\x`)
			b.WriteString(strconv.FormatUint(uint64(s[0])|0x100, 16)[1:])
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\r':
			b.WriteString(`\r`)
		case invisible(r) || !unicode.IsPrint(r) && r != ' ':
			q := strconv.QuoteToASCII(string(r))
			b.WriteString(q[1 : len(q)-1])
		default:
			b.WriteRune(r)
		}
		s = s[size:]
	}
	return b.String()
}

// invisible reports the characters that change how text around them shows
// without showing themselves: bidi controls, zero-width characters.
func invisible(r rune) bool {
	switch {
	case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069, r == 0x200e, r == 0x200f, r == 0x061c:
		return true
	case r >= 0x200b && r <= 0x200d, r == 0x2060, r == 0xfeff:
		return true
	}
	return false
}

// debugSize is "512 B", "1.5 KiB", "3.2 MiB".
func debugSize(n int64) string {
	switch {
	case n < 1<<10:
		return strconv.FormatInt(n, 10) + " B"
	case n < 1<<20:
		return strconv.FormatFloat(float64(n)/(1<<10), 'f', 1, 64) + " KiB"
	}
	return strconv.FormatFloat(float64(n)/(1<<20), 'f', 1, 64) + " MiB"
}

// durText is a duration rounded for reading: 850µs, 12.3ms, 1.52s.
func durText(d time.Duration) string {
	switch {
	case d < time.Millisecond:
		return d.Round(time.Microsecond).String()
	case d < time.Second:
		return d.Round(100 * time.Microsecond).String()
	}
	return d.Round(10 * time.Millisecond).String()
}
