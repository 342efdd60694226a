package cli

import (
	"net/http"
	"runtime/debug"
	"strings"

	"github.com/agsh-dev/agsh/catalog"
)

// The HTTP policy (redirects, downgrade refusal, answer redaction, answer
// bounds) lives in catalog; this file wires the run's secrets and
// environment into it.

// httpClient is the run's HTTP client: every answer has the run's secrets
// masked before agsh decodes it; HTTP/2 is off while GODEBUG names
// http2debug (its frame logs print headers and bodies).
func (a *app) httpClient() *http.Client {
	return catalog.NewHTTPClientWith(catalog.HTTPPolicy{Secrets: a.secrets, Proxy: &a.proxy,
		NoHTTP2: strings.Contains(a.getenv("GODEBUG"), "http2debug"), Debug: a.debug})
}

// newClient is catalog.New with the run's answer bounds
// (AGSH_MAX_ANSWER_BYTES); a password in the target URL becomes a secret of
// the run like the token; a credential about to go over plain http:// off
// loopback gets one warning line.
func (a *app) newClient(target string, o catalog.Options) (*catalog.Client, error) {
	if p := catalog.URLSecrets(target); p != nil {
		a.setSecrets(p...)
		o.HTTPClient = a.httpClient() // masks it in every answer too
	}
	if v := strings.TrimSpace(a.getenv(maxAnswerVar)); v != "" {
		n, ok := catalog.ParseByteSize(v)
		if !ok {
			return nil, &catalog.Error{ErrCode: catalog.CodeUsage,
				Message: maxAnswerVar + "=" + v + " is not a size in bytes (such as 134217728 or 128MiB)"}
		}
		o.MaxAnswerBytes, o.MaxListingBytes, o.MaxStreamedBytes = n, n, n
	}
	if a.answerBound > 0 {
		o.MaxAnswerBytes, o.MaxListingBytes, o.MaxStreamedBytes = a.answerBound, a.answerBound, a.answerBound
	}
	o.LimitHint = "set " + maxAnswerVar + " (bytes) to raise it"
	if a.getenv("GOMEMLIMIT") == "" {
		// agsh holds a whole answer, a few copies of it at peak (unless its
		// text streams: docs/rendering.md#streaming-large-text-results):
		// collect garbage before the heap doubles past a few answers' worth,
		// so that the largest answer stays well under 1 GiB.
		debug.SetMemoryLimit(max(512<<20, 4*max(o.MaxAnswerBytes, catalog.DefaultMaxAnswerBytes)))
	}
	c, err := catalog.New(target, o)
	if err == nil {
		if w := c.PlainHTTPWarning(); w != "" {
			a.message(a.errOut, "agsh: ", w)
		}
	}
	return c, err
}

const maxAnswerVar = "AGSH_MAX_ANSWER_BYTES"

var redactURL = catalog.RedactURL
