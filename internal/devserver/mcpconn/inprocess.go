package mcpconn

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agsh-dev/agsh/internal/devserver/mcpconn/internal/datadog"
)

// The connection names of the built-in connections.
const (
	datadogConnection = "datadog"
	echoConnection    = "echo"
)

// inProcess serves srv over the SDK's in-memory transport and makes a client
// session with it, under the connection name.
func inProcess(ctx context.Context, name string, srv *mcp.Server) (*conn, error) {
	serverEnd, clientEnd := mcp.NewInMemoryTransports()
	ss, err := srv.Connect(ctx, &plainTransport{inner: serverEnd}, nil)
	if err != nil {
		return nil, err
	}
	cs, capture, err := dial(ctx, clientEnd)
	if err != nil {
		_ = ss.Close()
		return nil, err
	}
	return &conn{name: name, session: cs, capture: capture, cleanup: func() error {
		_ = ss.Close()
		return nil
	}}, nil
}

// startDatadog starts the built-in datadog connection over a fresh seeded
// store; its tools' connector is datadog too.
func startDatadog(ctx context.Context) (*conn, error) {
	c, err := inProcess(ctx, datadogConnection, datadog.NewServer(datadog.NewStore()))
	if err != nil {
		return nil, err
	}
	c.nameOf = func(mcpName string) (string, string) { return datadogConnection, mcpName }
	return c, nil
}
