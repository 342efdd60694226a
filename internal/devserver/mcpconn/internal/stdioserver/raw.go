package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"strings"
)

// runRaw is the -raw mode: a hand-written JSON-RPC server, so that tests
// control every byte of standard output. Its flags:
//
//	-noisy      print log lines on standard output, plain text and JSON
//	            records that are not JSON-RPC, before and between answers
//	-once FILE  refuse to start (exit 1) when FILE exists, else create it:
//	            the first start works and a restart fails until FILE goes
//
// Its tools: echo (answers its arguments as text), crash (exits without
// answering), lookup (answers JSON-RPC error -32603 "Relation not found",
// as a knowledge-graph server does), panic (exits as a crashed Go program:
// a 2 KB "panic:" line, then kilobytes of goroutine stacks), tasky
// (execution.taskSupport "required"), maybe_task ("optional").
func runRaw(args []string) {
	noisy := false
	for i := 0; i < len(args); i++ {
		switch args[i] {
		case "-noisy":
			noisy = true
		case "-once":
			i++
			if _, err := os.Stat(args[i]); err == nil {
				fmt.Fprintln(os.Stderr, "stdioserver: already ran once")
				os.Exit(1)
			}
			_ = os.WriteFile(args[i], []byte("ran\n"), 0o644)
		}
	}
	out := bufio.NewWriter(os.Stdout)
	say := func(line string) {
		out.WriteString(line + "\n")
		out.Flush()
	}
	if noisy {
		say("stdioserver 1.0 listening on stdio")
		say(`{"level":"info","msg":"starting","pid":` + fmt.Sprint(os.Getpid()) + `}`)
		say("")
		say("\x1b[32mready\x1b[0m")
	}
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 0, 64<<10), 16<<20)
	for in.Scan() {
		var req struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params json.RawMessage `json:"params"`
		}
		if json.Unmarshal(in.Bytes(), &req) != nil || len(req.ID) == 0 {
			continue // a notification, or noise
		}
		if noisy {
			say("handling " + req.Method)
			say(`{"level":"debug","msg":"request","method":"` + req.Method + `"}`)
		}
		answer := func(result string) {
			say(`{"jsonrpc":"2.0","id":` + string(req.ID) + `,"result":` + result + `}`)
		}
		switch req.Method {
		case "initialize":
			var p struct {
				ProtocolVersion string `json:"protocolVersion"`
			}
			_ = json.Unmarshal(req.Params, &p)
			v, _ := json.Marshal(p.ProtocolVersion)
			answer(`{"protocolVersion":` + string(v) + `,"capabilities":{"tools":{}},"serverInfo":{"name":"stdioserver-raw","version":"test"}}`)
		case "tools/list":
			answer(`{"tools":[` +
				`{"name":"echo","inputSchema":{"type":"object"}},` +
				`{"name":"crash","inputSchema":{"type":"object"}},` +
				`{"name":"lookup","inputSchema":{"type":"object"}},` +
				`{"name":"panic","inputSchema":{"type":"object"}},` +
				`{"name":"tasky","inputSchema":{"type":"object"},"execution":{"taskSupport":"required"}},` +
				`{"name":"maybe_task","inputSchema":{"type":"object"},"execution":{"taskSupport":"optional"}}]}`)
		case "tools/call":
			var p struct {
				Name      string          `json:"name"`
				Arguments json.RawMessage `json:"arguments"`
			}
			_ = json.Unmarshal(req.Params, &p)
			switch p.Name {
			case "crash":
				fmt.Fprintln(os.Stderr, "stdioserver: crashing on purpose")
				os.Exit(3)
			case "lookup":
				say(`{"jsonrpc":"2.0","id":` + string(req.ID) + `,"error":{"code":-32603,"message":"Relation not found","data":{"relation":"knows"}}}`)
			case "panic":
				var b strings.Builder
				b.WriteString("panic: runtime error: invalid memory address or nil pointer dereference while reading the relation")
				for b.Len() < 2048 {
					b.WriteString(" store entry")
				}
				b.WriteString(" end\n[signal SIGSEGV: segmentation violation code=0x1 addr=0x0 pc=0x4a2f1c]\n\ngoroutine 1 [running]:\n")
				for i := 0; b.Len() < 12<<10; i++ {
					fmt.Fprintf(&b, "main.frame%d(...)\n\t/src/store/graph.go:%d +0x%x\n", i, 100+i, 16*i)
				}
				fmt.Fprint(os.Stderr, b.String())
				os.Exit(2)
			case "echo", "maybe_task":
				text, _ := json.Marshal(strings.TrimSpace(string(p.Arguments)) + " pid " + fmt.Sprint(os.Getpid()))
				answer(`{"content":[{"type":"text","text":` + string(text) + `}]}`)
			default:
				say(`{"jsonrpc":"2.0","id":` + string(req.ID) + `,"error":{"code":-32601,"message":"tool needs a task"}}`)
			}
		case "ping":
			answer(`{}`)
		default:
			say(`{"jsonrpc":"2.0","id":` + string(req.ID) + `,"error":{"code":-32601,"message":"method not found"}}`)
		}
	}
}
