// Package catalog talks to one agent-sdk deployment: targets and credentials,
// the HTTP client, the tolerant decoding of the wire's answers, session
// binding, the tool listing and detail, and invocation. Errors carry the
// HTTP status and the envelope's code.
//
// The wire's shapes are internal/wire's, which the development deployment
// encodes too; catalog names them (Session, ToolDetail, …) and keeps the
// routes and fields it assumes of them. It imports nothing else of agsh
// but the leaf packages. It reads no environment and no file by itself:
// cmd/agsh passes a getenv function and a file reader.
//
// # A run
//
//	t, err := catalog.ParseTarget(flagOrEnv)        // URL or production name
//	hc := catalog.NewHTTPClient()                    // one keep-alive client per run
//	opts := catalog.Options{HTTPClient: hc, BearerToken: bearer}
//	target := t.URL
//	if t.Name != "" {
//		cred, err := catalog.LookupCredential(bearer, os.Getenv, os.ReadFile, home)
//		base, team, err := catalog.Resolve(ctx, apiURL, t.Name, teamFlag, cred, hc)
//		target, opts.BearerToken, opts.CredentialSource = base, cred.Token, cred.Source
//		opts.Query = catalog.TeamQuery(team)
//	}
//	c, err := catalog.New(target, opts)
//	detail, bind, err := c.ToolBound(ctx, name, explicit) // detail ∥ sessions
//	res, err := c.Call(ctx, name, input, bind)
//	fmt.Fprintln(stderr, catalog.SessionLine(bind, res.SessionID))
//
// A shell binds once at launch with Bind and passes the binding to Tools,
// Tool and Call for the whole run.
//
// # Errors
//
// Every failure is an *Error with ExitCode (docs/cli.md#exit-status: 2 usage and
// not-an-agent, 3 refused, 4 authentication, 5 unreachable/timeout/bad
// answer, 130 interrupted) and Code (the envelope's code, or agsh's own).
// Its text says what to do next, names URLs without userinfo, and never
// contains the bearer token, even when the server echoes it.
//
// # Requests
//
// A GET is bounded by Options.HeaderTimeout (30 s) to its response headers
// and for each pause of its body, by Options.GetTimeout (60 s) as a whole,
// and retried twice on a connection reset, a timeout, 502, 503 and 504
// (backoff 100 ms, 300 ms). A POST has no time limit and is never retried,
// but its body may not stall for Options.StallTimeout (60 s). Every answer
// is bounded in bytes after decompression (Options.MaxAnswerBytes, 128 MiB,
// for calls; Options.MaxListingBytes, 16 MiB, for the rest). Cancelling the
// context aborts any request at once. Answers are stream-decoded with exact
// numbers; a call's answer is a success only when it is one JSON object
// with "ok" absent or true and a "result" or a boolean "isError".
//
// # HTTP policy
//
// NewHTTPClientWith (policy.go) makes the run's one HTTP client: the
// credential goes only to the exact origin it was meant for, a POST follows
// only a same-origin 307/308, https:// never redirects down to http://
// off loopback, secrets are masked in every answer in every JSON spelling,
// and HTTP/2 can be turned off (GODEBUG=http2debug logs frames unredacted).
//
// # Assumptions
//
// routes.go holds every assumed route, query field, status rule and answer
// decoder of the deployment; production.go every assumption about
// production names. A capture of a live server corrects one of them.
package catalog
