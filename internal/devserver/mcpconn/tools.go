package mcpconn

import (
	"context"
	"sync"
	"time"

	"github.com/agsh-dev/agsh/internal/devserver/tool"
)

// nameSet hands out advertised names: the first tool to claim a name keeps
// it, and a later one is reported and left out (two connections whose
// prefixes meet, or names equal once cut to 64 characters).
type nameSet struct {
	owner map[string]string
	logf  func(format string, args ...any)
}

func newNameSet(logf func(string, ...any)) *nameSet {
	return &nameSet{owner: map[string]string{}, logf: logf}
}

// claim reports whether t may use its name.
func (n *nameSet) claim(t *tool.Tool, mcpName string) bool {
	who := "connection " + t.Source.Connection + ", MCP tool " + mcpName
	if prev, ok := n.owner[t.Name]; ok {
		n.logf("mcp %s: tool %q is left out: its name %s is already taken by %s", t.Source.Connection, mcpName, t.Name, prev)
		return false
	}
	n.owner[t.Name] = who
	return true
}

// tools lists the connection's tools and makes the deployment's tools of
// them.
func (c *conn) tools(ctx context.Context, names *nameSet) ([]*tool.Tool, error) {
	listed, err := c.listTools(ctx)
	if err != nil {
		return nil, err
	}
	return c.makeTools(listed, names), nil
}

// makeTools makes the deployment's tools of listed MCP tools, in the order
// the server listed them, leaving out names already taken.
func (c *conn) makeTools(listed []listedTool, names *nameSet) []*tool.Tool {
	out := make([]*tool.Tool, 0, len(listed))
	for _, lt := range listed {
		t := c.makeTool(lt)
		if t.Name == "" || !names.claim(t, lt.Name) {
			continue
		}
		out = append(out, t)
	}
	return out
}

// started is the outcome of starting one --mcp server.
type started struct {
	spec   stdioSpec
	conn   *conn
	listed []listedTool
	err    error
}

// startAll starts every --mcp server in parallel, each with its own
// start-up budget covering the handshake and the listing, and answers the
// outcomes in flag order.
func startAll(ctx context.Context, specs []stdioSpec, timeout time.Duration) []started {
	out := make([]started, len(specs))
	var wg sync.WaitGroup
	for i, spec := range specs {
		wg.Go(func() {
			out[i] = startOne(ctx, spec, timeout)
		})
	}
	wg.Wait()
	return out
}

// startOne starts and lists one --mcp server.
func startOne(ctx context.Context, spec stdioSpec, timeout time.Duration) started {
	r := started{spec: spec}
	deadline := time.Now().Add(timeout)
	c, err := startStdio(ctx, spec, timeout)
	if err != nil {
		r.err = err
		return r
	}
	lctx, cancel := context.WithDeadline(ctx, deadline)
	defer cancel()
	listed, err := c.listTools(lctx)
	if err != nil {
		_ = c.close()
		r.err = err
		return r
	}
	r.conn, r.listed = c, listed
	return r
}
