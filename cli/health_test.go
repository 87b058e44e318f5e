package cli

import (
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func TestHealth(t *testing.T) {
	status := http.StatusOK
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/healthz" {
			http.NotFound(w, r)
			return
		}
		w.WriteHeader(status)
		_, _ = w.Write([]byte(`{"status":"ok"}`))
	}))
	defer srv.Close()
	_, port, _ := net.SplitHostPort(srv.Listener.Addr().String())

	code, out, errOut := egRun(t, "", "health", "--addr", "127.0.0.1:"+port)
	if code != 0 || !strings.Contains(out, "healthy: GET http://127.0.0.1:"+port+"/healthz: 200") {
		t.Errorf("healthy server: exit %d\n%s%s", code, out, errOut)
	}
	// serve's --addr 0.0.0.0:PORT works unchanged: the check goes over loopback.
	if code, _, errOut := egRun(t, "", "health", "--addr", "0.0.0.0:"+port); code != 0 {
		t.Errorf("0.0.0.0: exit %d: %s", code, errOut)
	}

	status = http.StatusServiceUnavailable
	code, _, errOut = egRun(t, "", "health", "--addr", "127.0.0.1:"+port)
	if code != 1 || !strings.Contains(errOut, "unhealthy") || !strings.Contains(errOut, "503") {
		t.Errorf("503: exit %d: %s", code, errOut)
	}

	srv.Close()
	code, _, errOut = egRun(t, "", "health", "--addr", "127.0.0.1:"+port)
	if code != 1 || !strings.Contains(errOut, "unhealthy: GET http://127.0.0.1:"+port+"/healthz") {
		t.Errorf("nothing listening: exit %d: %s", code, errOut)
	}

	if code, _, errOut := egRun(t, "", "health", "--addr", "nonsense"); code != 2 || !strings.Contains(errOut, `--addr "nonsense"`) {
		t.Errorf("bad --addr: exit %d: %s", code, errOut)
	}
}
