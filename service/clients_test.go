package service_test

import (
	"net"
	"net/http"
	"sync"
	"testing"
	"time"
)

var (
	loopbackOnce sync.Once
	loopbackErr  error
)

// clientFrom returns an HTTP client whose connections come from ip, an
// address of 127.0.0.0/8 other than 127.0.0.1. The service tells clients
// apart by their remote address, and every test client would otherwise be
// the one client 127.0.0.1. Linux routes all of 127.0.0.0/8 to loopback;
// where a system does not, the test is skipped.
func clientFrom(t testing.TB, ip string, conns int) *http.Client {
	t.Helper()
	loopbackOnce.Do(func() {
		var ln net.Listener
		if ln, loopbackErr = net.Listen("tcp", "127.0.0.2:0"); loopbackErr == nil {
			ln.Close()
		}
	})
	if loopbackErr != nil {
		t.Skipf("needs 127.0.0.0/8 on loopback to tell clients apart: %v", loopbackErr)
	}
	d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(ip)}, Timeout: 5 * time.Second}
	tr := &http.Transport{DialContext: d.DialContext, MaxIdleConnsPerHost: conns, DisableCompression: true}
	t.Cleanup(tr.CloseIdleConnections)
	return &http.Client{Transport: tr}
}
