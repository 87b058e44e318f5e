package api

import (
	"context"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"os"
	"time"
)

// Server timeouts. The write timeout leaves room past the request deadline
// for the JSON 504 to go out.
const (
	readHeaderTimeout = 5 * time.Second
	readTimeout       = 30 * time.Second
	idleTimeout       = 60 * time.Second
	writeSlack        = 5 * time.Second
)

// Serve listens on cfg.Addr and serves until ctx is cancelled (the CLI
// cancels on SIGINT/SIGTERM), then stops accepting and lets requests in
// flight finish for up to cfg.ShutdownGrace.
func Serve(ctx context.Context, cfg Config, deps Deps) error {
	if err := cfg.Validate(); err != nil {
		return err
	}
	cfg = cfg.withDefaults()
	ln, err := net.Listen("tcp", cfg.Addr)
	if err != nil {
		return err
	}
	return ServeListener(ctx, ln, cfg, deps)
}

// ServeListener is Serve on a listener the caller opened (tests, the load
// benchmark on 127.0.0.1:0). It closes ln.
func ServeListener(ctx context.Context, ln net.Listener, cfg Config, deps Deps) error {
	cfg = cfg.withDefaults()
	srv := newHTTPServer(NewRouter(deps, cfg), cfg)
	cfg.Logger.Info("serving", slog.String("addr", ln.Addr().String()),
		slog.Bool("token", cfg.TokenFile != ""), slog.Int64("max_body", cfg.MaxBody),
		slog.Int("max_concurrent", cfg.MaxConcurrent), slog.Duration("request_timeout", cfg.RequestTimeout))

	for _, w := range configWarnings(cfg) {
		cfg.Logger.Warn(w)
	}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	cfg.Logger.Info("shutting down", slog.Duration("grace", cfg.ShutdownGrace))
	sctx, cancel := context.WithTimeout(context.Background(), cfg.ShutdownGrace)
	defer cancel()
	err := srv.Shutdown(sctx)
	if errors.Is(err, context.DeadlineExceeded) {
		// Requests still running past the grace period are cut off.
		_ = srv.Close()
		err = errors.New("shutdown: requests still in flight after " + cfg.ShutdownGrace.String() + " were cut off")
	}
	if serr := <-errc; serr != nil && !errors.Is(serr, http.ErrServerClosed) && err == nil {
		err = serr
	}
	return err
}

func newHTTPServer(h http.Handler, cfg Config) *http.Server {
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: readHeaderTimeout,
		ReadTimeout:       readTimeout,
		WriteTimeout:      cfg.RequestTimeout + writeSlack,
		IdleTimeout:       idleTimeout,
		MaxHeaderBytes:    64 << 10,
		ErrorLog:          slog.NewLogLogger(cfg.Logger.Handler(), slog.LevelWarn),
	}
}

// configWarnings says what is allowed but probably unintended: a public
// address without a token (--insecure), a token file others can read.
func configWarnings(cfg Config) []string {
	var out []string
	if host, _, err := net.SplitHostPort(cfg.Addr); err == nil && !IsLoopback(host) && cfg.TokenFile == "" && cfg.Insecure {
		out = append(out, "serving "+cfg.Addr+" without a token (--insecure): anyone who can reach it can use it")
	}
	if cfg.TokenFile != "" {
		if st, err := os.Stat(cfg.TokenFile); err == nil && st.Mode().Perm()&0o004 != 0 {
			out = append(out, "token file "+cfg.TokenFile+" is readable by every user of this machine (chmod 600 it)")
		}
	}
	return out
}
