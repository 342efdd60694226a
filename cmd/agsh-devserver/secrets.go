package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/agsh-dev/agsh/internal/devserver"
)

// Environment variables that carry secrets, so they need not be on the
// command line (where ps shows them to every local user).
const (
	envTokens = "AGSH_DEVSERVER_TOKENS"  // bearer tokens, separated by white space or commas
	envCPKeys = "AGSH_DEVSERVER_CP_KEYS" // control-plane keys, KEY=TEAMID[,TEAMID…], separated by white space
)

// takeSecretEnv reads the secret variables and removes them from the
// process's environment, so that the programs the server starts (MCP
// servers, git) do not inherit the tokens and keys; the getenv it returns
// answers them from what it read, and anything else from the environment.
func takeSecretEnv() func(string) string {
	saved := map[string]string{}
	for _, k := range []string{envTokens, envCPKeys} {
		if v, ok := os.LookupEnv(k); ok {
			saved[k] = v
			_ = os.Unsetenv(k)
		}
	}
	return func(k string) string {
		if v, ok := saved[k]; ok {
			return v
		}
		return os.Getenv(k)
	}
}

// maxSecretFile bounds what a token or key file may hold.
const maxSecretFile = 1 << 20

// secretLines reads a file of one secret per line: surrounding space is
// trimmed, blank lines and lines starting with '#' are skipped. Errors
// name the file and the line, never its content.
func secretLines(flag, path string) ([]string, error) {
	f, err := os.Open(path)
	if err != nil {
		var pe *os.PathError
		if errors.As(err, &pe) {
			return nil, fmt.Errorf("%s %s: %v", flag, path, pe.Err)
		}
		return nil, fmt.Errorf("%s %s: %v", flag, path, err)
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxSecretFile+1))
	if err != nil {
		return nil, fmt.Errorf("%s %s: %v", flag, path, err)
	}
	if len(b) > maxSecretFile {
		return nil, fmt.Errorf("%s %s: larger than %d bytes", flag, path, maxSecretFile)
	}
	var out []string
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 0, 4096), maxSecretFile)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		out = append(out, line)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s %s: the file holds no entry (one per line; # starts a comment)", flag, path)
	}
	return out, nil
}

// tokenFile reads a --bearer-token-file: one token per line.
func tokenFile(path string) ([]string, error) {
	lines, err := secretLines("--bearer-token-file", path)
	if err != nil {
		return nil, err
	}
	for i, l := range lines {
		if strings.ContainsAny(l, " \t") {
			return nil, fmt.Errorf("--bearer-token-file %s: entry %d holds a space (one token per line)", path, i+1)
		}
	}
	return lines, nil
}

// envTokenList splits AGSH_DEVSERVER_TOKENS.
func envTokenList(v string) []string {
	return strings.FieldsFunc(v, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' || r == '\n' || r == '\r' })
}

// keySpecs parses control-plane key entries (KEY=TEAMID[,TEAMID…]) from a
// file's lines or the environment; where names the source in errors.
func keySpecs(where string, specs []string) ([]devserver.APIKey, error) {
	var keys []devserver.APIKey
	for i, spec := range specs {
		k, err := devserver.ParseKeyFlag(spec)
		if err != nil {
			return nil, fmt.Errorf("%s: entry %d: %s", where, i+1, strings.TrimPrefix(err.Error(), "--cp-key: "))
		}
		keys = append(keys, k)
	}
	return keys, nil
}

// secretsFromFilesAndEnv adds the tokens and keys of --bearer-token-file,
// --cp-key-file and the environment to o.
func secretsFromFilesAndEnv(o *options, tokenFiles, keyFiles []string, getenv func(string) string) error {
	for _, p := range tokenFiles {
		toks, err := tokenFile(p)
		if err != nil {
			return err
		}
		o.BearerTokens = append(o.BearerTokens, toks...)
	}
	if v := getenv(envTokens); strings.TrimSpace(v) != "" {
		o.BearerTokens = append(o.BearerTokens, envTokenList(v)...)
	}
	var keys []devserver.APIKey
	for _, p := range keyFiles {
		lines, err := secretLines("--cp-key-file", p)
		if err != nil {
			return err
		}
		ks, err := keySpecs("--cp-key-file "+p, lines)
		if err != nil {
			return err
		}
		keys = append(keys, ks...)
	}
	if v := getenv(envCPKeys); strings.TrimSpace(v) != "" {
		ks, err := keySpecs(envCPKeys, strings.Fields(v))
		if err != nil {
			return err
		}
		keys = append(keys, ks...)
	}
	if len(keys) > 0 {
		o.ControlPlane = o.ControlPlane.Merge(devserver.ControlPlane{Keys: keys})
	}
	return nil
}
