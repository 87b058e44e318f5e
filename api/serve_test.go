package api

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

// TestShutdownFinishesInFlight cancels Serve's context while a validation
// runs: the request still gets its report, new connections are refused, and
// Serve returns nil.
func TestShutdownFinishesInFlight(t *testing.T) {
	entered := make(chan struct{})
	release := make(chan struct{})
	v := ValidatorFuncs{ValidateFunc: func(ctx context.Context, req ValidateRequest) ([]byte, error) {
		close(entered)
		<-release
		return (&fakeValidator{}).Validate(ctx, req)
	}}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := "http://" + ln.Addr().String()
	logs := &syncBuffer{}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	served := make(chan error, 1)
	go func() {
		served <- ServeListener(ctx, ln, Config{ShutdownGrace: 5 * time.Second, Logger: slog.New(slog.NewTextHandler(logs, nil))}, Deps{Validator: v})
	}()

	type result struct {
		status int
		body   []byte
		err    error
	}
	got := make(chan result, 1)
	go func() {
		resp, err := http.Post(addr+"/v1/validate", "application/yaml", bytes.NewReader([]byte("name: inflight\n")))
		if err != nil {
			got <- result{err: err}
			return
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		got <- result{resp.StatusCode, b, err}
	}()
	<-entered
	cancel()
	// Shutdown closes the listener first; wait until it has.
	deadline := time.Now().Add(30 * time.Second)
	for {
		c, err := net.DialTimeout("tcp", ln.Addr().String(), 100*time.Millisecond)
		if err != nil {
			break
		}
		c.Close()
		if time.Now().After(deadline) {
			t.Fatal("still accepting connections after cancel")
		}
		time.Sleep(10 * time.Millisecond)
	}
	select {
	case err := <-served:
		t.Fatalf("Serve returned %v with a request in flight", err)
	default:
	}
	close(release)
	r := <-got
	if r.err != nil || r.status != 200 || !bytes.Contains(r.body, []byte(`"inflight"`)) {
		t.Errorf("in-flight request: %d %s %v", r.status, r.body, r.err)
	}
	select {
	case err := <-served:
		if err != nil {
			t.Errorf("Serve: %v", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("Serve did not return after the request finished")
	}
}

// TestShutdownGraceExpires: a request that outlives the grace period is
// cut off and Serve says so.
func TestShutdownGraceExpires(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	entered := make(chan struct{})
	v := ValidatorFuncs{ValidateFunc: func(ctx context.Context, req ValidateRequest) ([]byte, error) {
		close(entered)
		<-release
		return nil, errors.New("unreachable")
	}}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() {
		served <- ServeListener(ctx, ln, Config{ShutdownGrace: 100 * time.Millisecond, Logger: slog.New(slog.DiscardHandler)}, Deps{Validator: v})
	}()
	go func() {
		resp, err := http.Post("http://"+ln.Addr().String()+"/v1/validate", "application/yaml", bytes.NewReader([]byte("name: x\n")))
		if err == nil {
			resp.Body.Close()
		}
	}()
	<-entered
	cancel()
	select {
	case err := <-served:
		if err == nil {
			t.Error("Serve returned nil though a request was cut off")
		}
	case <-time.After(30 * time.Second):
		t.Fatal("Serve did not return after its grace period")
	}
}

// TestServe listens on a real loopback address, answers a validation sent
// to the address it logs, and stops on cancel.
func TestServe(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	logs := &syncBuffer{}
	served := make(chan error, 1)
	go func() {
		served <- Serve(ctx, Config{Addr: "127.0.0.1:0", Logger: slog.New(slog.NewJSONHandler(logs, nil))}, Deps{Validator: &fakeValidator{}})
	}()
	// The port is the system's choice; Serve logs it before it serves.
	var addr string
	for deadline := time.Now().Add(30 * time.Second); addr == ""; time.Sleep(5 * time.Millisecond) {
		for _, l := range strings.Split(logs.String(), "\n") {
			var line struct{ Msg, Addr string }
			if json.Unmarshal([]byte(l), &line) == nil && line.Msg == "serving" {
				addr = line.Addr
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("no \"serving\" line with the address:\n%s", logs.String())
		}
	}
	resp, err := http.Post("http://"+addr+"/v1/validate", "application/yaml", strings.NewReader("name: served\ndependencies:\n  - python=3.10  # finding EG207\n"))
	if err != nil {
		t.Fatalf("POST to the served address %s: %v", addr, err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "application/json" ||
		!bytes.Contains(b, []byte(`"served"`)) || !bytes.Contains(b, []byte(`"EG207"`)) || resp.Header.Get("X-Request-Id") == "" {
		t.Errorf("POST /v1/validate on %s: %d %q %s", addr, resp.StatusCode, resp.Header.Get("Content-Type"), b)
	}
	cancel()
	select {
	case err := <-served:
		if err != nil {
			t.Errorf("Serve: %v", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("Serve did not stop on cancel")
	}
	if _, err := net.DialTimeout("tcp", addr, time.Second); err == nil {
		t.Errorf("%s still accepts connections after Serve returned", addr)
	}
	// A port already taken is an error, not a hang.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	if err := Serve(context.Background(), Config{Addr: ln.Addr().String()}, Deps{}); err == nil {
		t.Error("Serve on a taken port returned nil")
	}
}
