package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/agsh-dev/agsh/catalog"
	"github.com/agsh-dev/agsh/generated"
	"github.com/agsh-dev/agsh/generated/inputgen"
	"github.com/agsh-dev/agsh/internal/devserver"
	"github.com/agsh-dev/agsh/internal/testcorpus"
	"github.com/agsh-dev/agsh/interp/syntax"
)

// TestEchoRoundTrip: for every tool of the corpus served by the development
// server's echo connection, inputs generated within the domain of
// docs/mapping.md#the-round-trip-property, written as flags and sent by the
// real agsh (one script through the shell), come back from the echoing MCP
// server exactly as generated.
func TestEchoRoundTrip(t *testing.T) {
	t.Parallel()
	testcorpus.Each(t, testEchoRoundTrip)
}

func testEchoRoundTrip(t *testing.T, set testcorpus.Set) {
	echo := testcorpus.Folders(t, set.Dir)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	srv, stop, err := devserver.Build(ctx, devserver.Options{Addr: "127.0.0.1:0", Root: t.TempDir(), EchoTools: echo})
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { srv.Close(); stop() }()
	planner := srv.AgentURL("planner")
	client, err := catalog.New(planner, catalog.Options{})
	if err != nil {
		t.Fatal(err)
	}
	tools, err := client.Tools(ctx, catalog.Binding{})
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(1, 2))
	var script strings.Builder
	var want []map[string]any
	var names []string
	for _, te := range tools {
		if te.Source.Connection != "echo" {
			continue
		}
		d, err := client.Tool(ctx, te.Name, catalog.Binding{})
		if err != nil {
			t.Fatal(err)
		}
		cmd, err := generated.Build(d.InputSchema, generated.BuildOptions{})
		if err != nil {
			t.Fatalf("%s: %v", te.Name, err)
		}
		if cmd.FreeForm {
			continue
		}
		for i := 0; i < 2; i++ {
			in, err := inputgen.Generate(d.InputSchema, r)
			if err != nil {
				continue
			}
			argv, err := inputgen.Argv(cmd, in)
			if err != nil {
				t.Fatalf("%s: argv: %v", te.Name, err)
			}
			script.WriteString(syntax.Quote(te.Name, true))
			for _, a := range argv {
				script.WriteString(" " + syntax.Quote(a, false))
			}
			script.WriteString(" --output json\n")
			want = append(want, in)
			names = append(names, te.Name)
		}
	}
	if min := len(testcorpus.Files(t, set.Dir)); len(want) < min {
		t.Fatalf("only %d echo calls generated for %d tool definitions", len(want), min)
	}
	// The corpus holds writes: the script runs unattended, so --yes.
	c := agshCommand("--yes", "--target", planner)
	c.Stdin = strings.NewReader(script.String())
	var out, errb bytes.Buffer
	c.Stdout, c.Stderr = &out, &errb
	if err := c.Run(); err != nil {
		t.Fatalf("agsh: %v\n%s", err, errb.String())
	}
	dec := json.NewDecoder(&out)
	dec.UseNumber()
	for i, w := range want {
		var got map[string]any
		if err := dec.Decode(&got); err != nil {
			t.Fatalf("call %d (%s): %v", i, names[i], err)
		}
		if !reflect.DeepEqual(got, w) {
			gj, _ := json.Marshal(got)
			wj, _ := json.Marshal(w)
			t.Errorf("%s: echoed %s, sent %s", names[i], gj, wj)
		}
	}
	if _, err := dec.Token(); err != io.EOF {
		t.Errorf("more output than calls: %v", err)
	}
	t.Logf("%d calls over %d tools round-tripped", len(want), len(tools))
}
