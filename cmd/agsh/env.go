package main

import (
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
func notifyInterrupt(c chan<- os.Signal)        { signal.Notify(c, os.Interrupt, syscall.SIGTERM) }
func stopInterrupt(c chan<- os.Signal)          { signal.Stop(c) }
