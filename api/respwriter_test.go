package api

import (
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
)

// TestStatusWriter: the status and size are the ones sent, a later
// WriteHeader does not change them, and http.ResponseController reaches
// the connection through Unwrap (readBody sets read deadlines that way).
func TestStatusWriter(t *testing.T) {
	var sw *statusWriter
	var deadlineErr, flushErr error
	done := make(chan struct{})
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// The flush sends the answer before the handler returns: the test
		// reads what the handler recorded only once it has.
		defer close(done)
		sw = &statusWriter{ResponseWriter: w}
		rc := http.NewResponseController(sw)
		deadlineErr = rc.SetReadDeadline(time.Now().Add(time.Minute))
		sw.WriteHeader(http.StatusAccepted)
		sw.WriteHeader(http.StatusTeapot) // ignored, as net/http does
		_, _ = sw.Write([]byte("hello"))
		flushErr = rc.Flush()
	}))
	defer ts.Close()
	resp, err := http.Get(ts.URL)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	<-done
	if resp.StatusCode != http.StatusAccepted || sw.status != http.StatusAccepted || sw.bytes != 5 {
		t.Errorf("sent %d; recorded status %d, %d bytes; want 202 and 5", resp.StatusCode, sw.status, sw.bytes)
	}
	if deadlineErr != nil || flushErr != nil {
		t.Errorf("ResponseController through the wrapper: deadline %v, flush %v", deadlineErr, flushErr)
	}

	// A body written without a header is a 200.
	rec := httptest.NewRecorder()
	w := &statusWriter{ResponseWriter: rec}
	_, _ = w.Write([]byte("x"))
	if w.status != http.StatusOK || rec.Code != http.StatusOK {
		t.Errorf("implicit status = %d (recorder %d), want 200", w.status, rec.Code)
	}
}

// TestHeadAnswersLikeGet: HEAD on a GET route gets the GET answer's status
// and headers without a body; HEAD where no GET route exists is a 405.
func TestHeadAnswersLikeGet(t *testing.T) {
	ts := newTestServer(t, &fakeValidator{})
	// openapi.yaml declares no HEAD operations, so these go around the
	// test client that holds every answer to it.
	for path, want := range map[string]int{"/healthz": http.StatusOK, "/v1/validate": http.StatusMethodNotAllowed, "/nowhere": http.StatusNotFound} {
		resp, err := http.Head(ts.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != want || len(b) != 0 || resp.Header.Get("Content-Type") != "application/json" {
			t.Errorf("HEAD %s = %d %q with %d body bytes, want %d application/json and no body", path, resp.StatusCode, resp.Header.Get("Content-Type"), len(b), want)
		}
	}
}
