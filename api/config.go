package api

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"os"
	"runtime"
	"strings"
	"time"
)

// Defaults of Config.
const (
	DefaultAddr           = "127.0.0.1:8080"
	DefaultMaxBody        = 1 << 20 // 1 MiB: real environment files are a few KiB
	DefaultRequestTimeout = 10 * time.Second
	DefaultQueueWait      = 100 * time.Millisecond
	DefaultBodyTimeout    = 5 * time.Second // 1 MiB at under 2 Mbit/s
	DefaultShutdownGrace  = 10 * time.Second
)

// Config configures the service. The zero value serves on loopback with
// the defaults above.
type Config struct {
	// Addr is host:port to listen on. Anything but a loopback host needs
	// TokenFile, or Insecure.
	Addr string
	// TokenFile holds the bearer token clients must send
	// (Authorization: Bearer TOKEN) to /v1/* and /metrics. /healthz,
	// /readyz and /openapi.yaml stay open so that probes and clients
	// discovering the API need no secret.
	TokenFile string
	// Insecure allows a non-loopback Addr without a token.
	Insecure bool
	// MaxBody is the largest request body in bytes (413 above it).
	MaxBody int64
	// MaxConcurrent bounds the validations (and names and builds) running
	// at once; more wait QueueWait for a slot, then get 503 with
	// Retry-After. Default: 2 × GOMAXPROCS.
	MaxConcurrent int
	// ClientShare is the most slots one client (one remote address, an
	// IPv6 /64) holds at once; its requests past that wait behind its own,
	// and it may have twice as many in progress before it is answered 429
	// at once. Default: a quarter of MaxConcurrent, rounded up, so that one
	// client keeps at most half the CPUs busy (MaxConcurrent is 2 × CPUs).
	// Behind a proxy that hides the clients' addresses every request is
	// one client's: set it to MaxConcurrent there.
	ClientShare int
	// QueueWait is how long a request waits for a slot; default 100ms.
	QueueWait time.Duration
	// RequestTimeout is the deadline of every request's context (504).
	RequestTimeout time.Duration
	// BodyTimeout bounds the reading of a request body (408 past it; the
	// request deadline bounds it too). Bodies are read before a validation
	// slot is taken, so a slow client holds a connection, never a slot.
	BodyTimeout time.Duration
	// ShutdownGrace is how long Serve lets requests in flight finish.
	ShutdownGrace time.Duration
	// Logger receives structured logs; default slog.Default().
	Logger *slog.Logger
}

func (c Config) withDefaults() Config {
	if c.Addr == "" {
		c.Addr = DefaultAddr
	}
	if c.MaxBody <= 0 {
		c.MaxBody = DefaultMaxBody
	}
	if c.MaxConcurrent <= 0 {
		c.MaxConcurrent = 2 * runtime.GOMAXPROCS(0)
	}
	if c.ClientShare <= 0 {
		c.ClientShare = (c.MaxConcurrent + 3) / 4
	}
	c.ClientShare = min(c.ClientShare, c.MaxConcurrent)
	if c.QueueWait < 0 {
		c.QueueWait = 0
	} else if c.QueueWait == 0 {
		c.QueueWait = DefaultQueueWait
	}
	if c.RequestTimeout <= 0 {
		c.RequestTimeout = DefaultRequestTimeout
	}
	if c.BodyTimeout <= 0 {
		c.BodyTimeout = DefaultBodyTimeout
	}
	if c.ShutdownGrace <= 0 {
		c.ShutdownGrace = DefaultShutdownGrace
	}
	if c.Logger == nil {
		c.Logger = slog.Default()
	}
	return c
}

// Validate says what is wrong with the configuration, before anything
// listens: an address that does not parse, a non-loopback address without a
// token, a token file that cannot be read or is empty.
func (c Config) Validate() error {
	c = c.withDefaults()
	host, _, err := net.SplitHostPort(c.Addr)
	if err != nil {
		return fmt.Errorf("serve: address %q: %v (want host:port, e.g. %s)", c.Addr, err, DefaultAddr)
	}
	if c.TokenFile != "" {
		if _, err := readToken(c.TokenFile); err != nil {
			return fmt.Errorf("serve: %w", err)
		}
	} else if !IsLoopback(host) && !c.Insecure {
		return fmt.Errorf("serve: address %q is reachable from other machines: give a token file (--token-file) or, knowingly, --insecure", c.Addr)
	}
	return nil
}

// IsLoopback reports whether host names only this machine. An empty host
// listens on every interface, so it is not loopback.
func IsLoopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(strings.Trim(host, "[]"))
	return ip != nil && ip.IsLoopback()
}

// readToken returns the SHA-256 of the token in path: the router keeps only
// the digest, and comparing digests gives constant-time comparison whatever
// the token's length.
func readToken(path string) ([32]byte, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return [32]byte{}, fmt.Errorf("token file: %w", err)
	}
	tok := strings.TrimSpace(string(b))
	if tok == "" {
		return [32]byte{}, errors.New("token file " + path + " is empty")
	}
	if strings.ContainsAny(tok, " \t\r\n") {
		return [32]byte{}, errors.New("token file " + path + " holds more than one word; it must hold just the token")
	}
	return sha256.Sum256([]byte(tok)), nil
}
