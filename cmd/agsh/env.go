package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"
)

// env is what agsh reads from its process: the environment, files (the
// stored login) and the home directory. Only cmd/agsh touches the real one.
type env interface {
	Getenv(string) string
	ReadFile(string) ([]byte, error)
	HomeDir() string
}

type osEnv struct{}

func (osEnv) Getenv(k string) string            { return os.Getenv(k) }
func (osEnv) ReadFile(p string) ([]byte, error) { return os.ReadFile(p) }
func (osEnv) HomeDir() string                   { h, _ := os.UserHomeDir(); return h }
func (osEnv) LookupEnv(k string) (string, bool) { return os.LookupEnv(k) }

// interruptible returns ctx cancelled by the first Ctrl-C (or SIGTERM):
// the call in flight is abandoned and the run ends with status 130.
func interruptible(ctx context.Context) (context.Context, context.CancelFunc) {
	return signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
}
