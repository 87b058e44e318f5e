package cli

import (
	"context"
	"log/slog"
	"os"
	"os/signal"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/envguard/envguard/api"
	"github.com/envguard/envguard/gpucheck"
	"github.com/envguard/envguard/report"
	"github.com/envguard/envguard/resolver/kb"
	"github.com/envguard/envguard/service"
)

// logFlushInterval is how late a log line of serve's may reach stderr.
const logFlushInterval = 100 * time.Millisecond

func serveCmd(e *env) *cobra.Command {
	var cfg api.Config
	var targetsFile, logFormat, kbFrom string
	var kbRefresh time.Duration
	c := &cobra.Command{
		Use:   "serve [--addr 127.0.0.1:8080]",
		Short: "Run the HTTP service: POST an environment.yml, get the JSON report; or open the web page at /",
		Example: "  envguard serve\n" +
			"  curl -s --data-binary @environment.yml -H 'Content-Type: application/yaml' localhost:8080/v1/validate\n" +
			"  open http://127.0.0.1:8080/ in a browser: paste an environment, see its findings on their lines",
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, args []string) error {
			if err := checkServeFlags(c, cfg); err != nil {
				return err
			}
			if err := cfg.Validate(); err != nil {
				return usageErr("%v", err)
			}
			if kbRefresh < 0 || (kbRefresh > 0 && kbRefresh < time.Minute) {
				return usageErr("--kb-refresh %v: want 0 (off) or at least 1m, e.g. 24h", kbRefresh)
			}
			k, err := e.knowledge()
			if err != nil {
				return err
			}
			rc, err := e.config()
			if err != nil {
				return err
			}
			m := &report.Machines{KB: k}
			if rc != nil {
				m.Targets = append(m.Targets, rc.Targets...)
			}
			if targetsFile != "" {
				src, err := os.ReadFile(targetsFile)
				if err != nil {
					return usageErr("--targets: %v", err)
				}
				ts, err := gpucheck.ParseTargets(targetsFile, src)
				if err != nil {
					return usageErr("%v", err)
				}
				m.Targets = append(m.Targets, ts...)
			}
			logs := newLogWriter(e.stderr, logFlushInterval)
			defer logs.Close()
			var h slog.Handler = slog.NewTextHandler(logs, nil)
			if logFormat == "json" {
				h = slog.NewJSONHandler(logs, nil)
			}
			cfg.Logger = slog.New(h)
			// Static GPU facts are read once here; memory and processes are
			// refreshed at most once a second by the probe.
			e.probe = gpucheck.NewLocalProbe()
			if st := e.probe.Static(); !st.Available {
				cfg.Logger.Info("no usable NVIDIA driver; target local will report it", slog.String("reason", st.Reason))
			}
			opts := service.Options{
				KB: k, Config: rc, Machines: m, Probe: e.probe, LookupEnv: e.lookupEnv,
				RulesList: RulesJSON(report.Catalog()),
			}
			var cur atomic.Pointer[kb.KB]
			if kbRefresh > 0 {
				cur.Store(k)
				opts.Knowledge = cur.Load
			}
			deps := service.Deps(opts)
			service.TuneGC(e.getenv)
			sigs := make(chan os.Signal, 2)
			signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
			defer signal.Stop(sigs)
			ctx := shutdownOnSignals(context.Background(), sigs, cfg.Logger, func(code int) {
				_ = logs.Flush()
				os.Exit(code)
			})
			if kbRefresh > 0 {
				t := time.NewTicker(kbRefresh)
				defer t.Stop()
				go e.kbRefresher(ctx, t.C, kbFrom, &cur, cfg.Logger)
			}
			if err := api.Serve(ctx, cfg, deps); err != nil {
				if ctx.Err() != nil {
					// The grace ran out with requests in flight: the server
					// did run, so this is no usage error.
					return &exitError{ExitShutdown, err}
				}
				return &exitError{ExitUsage, err}
			}
			return nil
		},
	}
	fl := c.Flags()
	fl.StringVar(&cfg.Addr, "addr", api.DefaultAddr, "listen on `HOST:PORT`")
	fl.StringVar(&cfg.TokenFile, "token-file", "", "require `FILE`'s bearer token (needed to bind anything but loopback)")
	fl.BoolVar(&cfg.Insecure, "insecure", false, "allow a non-loopback address without a token")
	fl.Int64Var(&cfg.MaxBody, "max-body", api.DefaultMaxBody, "largest request body in `BYTES` (413 above)")
	fl.IntVar(&cfg.MaxConcurrent, "max-concurrent", 0, "validations at once (default 2 × CPUs; 503 beyond)")
	fl.IntVar(&cfg.ClientShare, "client-share", 0, "validations at once for one client address (default a quarter of --max-concurrent; 429 beyond); behind a proxy that hides addresses, set it to --max-concurrent")
	fl.DurationVar(&cfg.RequestTimeout, "request-timeout", api.DefaultRequestTimeout, "per-request deadline")
	fl.DurationVar(&cfg.ShutdownGrace, "shutdown-grace", 10*time.Second, "how long requests in flight may finish on SIGTERM")
	fl.StringVar(&targetsFile, "targets", "", "targets `FILE` the service knows by name")
	fl.StringVar(&logFormat, "log-format", "text", "log format: text or json")
	fl.DurationVar(&kbRefresh, "kb-refresh", 0, "check for a newer signed knowledge base every `DURATION` (e.g. 24h) as kb update does; new requests use it once installed, a failed check keeps the last good one (0: off)")
	fl.StringVar(&kbFrom, "kb-from", DefaultKBURL, "where --kb-refresh looks: a bundle `URL` or FILE")
	return c
}

// checkServeFlags refuses values that would disable a limit rather than set
// one: a body limit or timeout of zero or less, a concurrency or a client's
// share below one.
func checkServeFlags(c *cobra.Command, cfg api.Config) error {
	fl := c.Flags()
	switch {
	case fl.Changed("max-body") && cfg.MaxBody <= 0:
		return usageErr("--max-body %d: want a positive number of bytes", cfg.MaxBody)
	case fl.Changed("max-concurrent") && cfg.MaxConcurrent < 1:
		return usageErr("--max-concurrent %d: want at least 1", cfg.MaxConcurrent)
	case fl.Changed("client-share") && cfg.ClientShare < 1:
		return usageErr("--client-share %d: want at least 1", cfg.ClientShare)
	case fl.Changed("request-timeout") && cfg.RequestTimeout <= 0:
		return usageErr("--request-timeout %v: want a positive duration, e.g. 30s", cfg.RequestTimeout)
	case fl.Changed("shutdown-grace") && cfg.ShutdownGrace < 0:
		return usageErr("--shutdown-grace %v: want zero or a positive duration", cfg.ShutdownGrace)
	}
	return nil
}

// shutdownOnSignals returns a context cancelled by the first signal (a
// graceful shutdown); a second signal during the grace exits at once with
// ExitShutdown, as an operator who presses Ctrl-C twice expects.
func shutdownOnSignals(parent context.Context, sigs <-chan os.Signal, log *slog.Logger, exit func(int)) context.Context {
	ctx, cancel := context.WithCancel(parent)
	go func() {
		select {
		case <-sigs:
		case <-parent.Done():
			cancel()
			return
		}
		cancel()
		if s, ok := <-sigs; ok {
			log.Warn("second signal during shutdown: exiting now", slog.String("signal", s.String()))
			exit(ExitShutdown)
		}
	}()
	return ctx
}
