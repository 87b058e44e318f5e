package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"time"

	"github.com/spf13/cobra"

	"github.com/envguard/envguard/api"
)

// healthCmd asks a running `envguard serve` for /healthz. It exists for
// container health checks: the image has no shell, curl or wget, so the
// binary checks itself (Docker's HEALTHCHECK reads exit 0 as healthy and 1
// as unhealthy).
func healthCmd(e *env) *cobra.Command {
	var addr string
	var timeout time.Duration
	c := &cobra.Command{
		Use:     "health [--addr 127.0.0.1:8080]",
		Short:   "Ask a running envguard serve for /healthz: exit 0 when it answers 200, 1 otherwise",
		Example: "  envguard health --addr 127.0.0.1:8080",
		Args:    cobra.NoArgs,
		RunE: func(c *cobra.Command, args []string) error {
			host, port, err := net.SplitHostPort(addr)
			if err != nil {
				return usageErr("--addr %q: %v", addr, err)
			}
			if timeout <= 0 {
				return usageErr("--timeout %v: want a positive duration, e.g. 3s", timeout)
			}
			// serve's --addr 0.0.0.0:8080 listens on every interface; the
			// check reaches it over loopback, so the same value works here.
			if ip := net.ParseIP(host); host == "" || ip != nil && ip.IsUnspecified() {
				host = "127.0.0.1"
			}
			url := "http://" + net.JoinHostPort(host, port) + "/healthz"
			ctx, cancel := context.WithTimeout(context.Background(), timeout)
			defer cancel()
			req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
			if err != nil {
				return usageErr("--addr %q: %v", addr, err)
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				if errors.Is(err, context.DeadlineExceeded) {
					err = fmt.Errorf("no answer within %v", timeout)
				}
				return &exitError{ExitFindings, fmt.Errorf("unhealthy: GET %s: %v", url, err)}
			}
			defer resp.Body.Close()
			body, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
			if resp.StatusCode != http.StatusOK {
				return &exitError{ExitFindings, fmt.Errorf("unhealthy: GET %s: %s %s", url, resp.Status, body)}
			}
			fmt.Fprintf(e.stdout, "healthy: GET %s: %s\n", url, resp.Status)
			return nil
		},
	}
	c.Flags().StringVar(&addr, "addr", api.DefaultAddr, "the `HOST:PORT` serve listens on (0.0.0.0 is reached over 127.0.0.1)")
	c.Flags().DurationVar(&timeout, "timeout", 3*time.Second, "how long to wait for the answer")
	return c
}
