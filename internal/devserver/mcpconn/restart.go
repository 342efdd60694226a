package mcpconn

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agsh-dev/agsh/internal/devserver/tool"
)

// A connection whose session ends (the server exited, closed its output,
// wrote a line the SDK refused) is marked dead. Its tools stay listed. The
// next call restarts it — one attempt, serialized, within the start-up
// budget — and goes ahead on the new session; when the attempt fails, the
// call answers 502 connection_failed, and calls until the backoff has passed
// answer so at once. The backoff starts at Config.RestartBackoff and
// doubles up to maxRestartBackoff; a restart that works resets it.

// Restart backoff bounds.
const (
	DefaultRestartBackoff = time.Second
	maxRestartBackoff     = time.Minute
)

// enableRestart makes c restartable with start (a fresh connection to the
// same server) and starts watching its session.
func (c *conn) enableRestart(start func(ctx context.Context) (*conn, error), backoff time.Duration, logf func(string, ...any)) {
	c.mu.Lock()
	c.restart, c.logf = start, logf
	c.minWait, c.backoff = backoff, backoff
	session := c.session
	c.mu.Unlock()
	go c.watch(session)
}

// watch marks the connection dead when session ends without being closed.
func (c *conn) watch(session *mcp.ClientSession) {
	err := session.Wait()
	c.awaitExit()
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed || c.session != session || c.dead {
		return
	}
	c.markDeadLocked(describeEnd(err))
}

// exitWait is how long a dead connection's process gets to exit, so that
// its last standard error lines are in the report.
const exitWait = time.Second

// awaitExit waits a moment for the server's process to exit.
func (c *conn) awaitExit() {
	c.mu.Lock()
	exited := c.exited
	c.mu.Unlock()
	if exited == nil {
		return
	}
	select {
	case <-exited:
	case <-time.After(exitWait):
	}
}

// markDeadLocked records why the connection died and ends what is left of
// it. Callers hold mu.
func (c *conn) markDeadLocked(why string) {
	c.dead = true
	if c.stderr != nil {
		why = withStderr(errors.New(why), c.stderr).Error()
	}
	c.deadWhy = why
	if c.cleanup != nil {
		_ = c.cleanup()
	}
	if c.logf != nil {
		c.logf("mcp %s: the connection ended (%s); its tools stay listed and it restarts on the next call", c.name, why)
	}
}

// describeEnd says why a session ended.
func describeEnd(err error) string {
	if err == nil || errors.Is(err, io.EOF) || errors.Is(err, mcp.ErrConnectionClosed) {
		return "the server closed its output or exited"
	}
	return err.Error()
}

// ended reports whether a failed call failed because session ended.
func (c *conn) ended(session *mcp.ClientSession, err error) bool {
	if errors.Is(err, mcp.ErrConnectionClosed) || errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return true
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.dead && c.session == session
}

// failedDuringCall marks the connection dead (if the watcher has not yet)
// and answers the 502 of the call it broke.
func (c *conn) failedDuringCall(session *mcp.ClientSession, err error) error {
	c.awaitExit()
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return fmt.Errorf("connection %s is closed: %v", c.name, err)
	}
	if c.session == session && !c.dead {
		c.markDeadLocked(describeEnd(err))
	}
	msg := fmt.Sprintf("connection %s ended during the call (%s)", c.name, c.deadWhy)
	if c.restart != nil {
		msg += "; it restarts on the next call"
	}
	return connectionFailed(msg)
}

// live returns the connection's session, restarting it first when it
// died; a connection that cannot be restarted now answers 502.
func (c *conn) live(ctx context.Context) (*mcp.ClientSession, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return nil, fmt.Errorf("connection %s is closed: %v", c.name, mcp.ErrConnectionClosed)
	}
	if !c.dead {
		return c.session, nil
	}
	if c.restart == nil {
		return nil, connectionFailed(fmt.Sprintf("connection %s is down (%s)", c.name, c.deadWhy))
	}
	if wait := time.Until(c.nextTry); wait > 0 {
		return nil, connectionFailed(fmt.Sprintf("connection %s is down (%s); the next restart is tried in %s",
			c.name, c.deadWhy, wait.Round(100*time.Millisecond)))
	}
	c.logf("mcp %s: restarting", c.name)
	nc, err := c.restart(context.WithoutCancel(ctx))
	if err != nil {
		wait := c.backoff
		c.nextTry = time.Now().Add(wait)
		c.backoff = min(2*c.backoff, maxRestartBackoff)
		c.deadWhy = "restarting failed: " + err.Error()
		c.logf("mcp %s: restarting failed: %v; the next attempt comes with a call after %s", c.name, err, wait)
		return nil, connectionFailed(fmt.Sprintf("connection %s is down; restarting it failed: %v", c.name, err))
	}
	old := c.session
	go func() { _ = old.Close() }() // ended already; this frees what is left of it
	c.session, c.capture, c.pid, c.cleanup, c.stderr, c.exited = nc.session, nc.capture, nc.pid, nc.cleanup, nc.stderr, nc.exited
	c.dead, c.deadWhy, c.nextTry, c.backoff = false, "", time.Time{}, c.minWait
	go c.watch(nc.session)
	c.logf("mcp %s: restarted", c.name)
	return c.session, nil
}

// connectionFailed is the 502 connection_failed answer.
func connectionFailed(msg string) error {
	return &tool.StatusError{Status: http.StatusBadGateway, Code: tool.CodeConnectionFailed, Message: msg}
}
