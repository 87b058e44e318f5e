package api

import "net/http"

// statusWriter remembers the status and the size of a response, for the
// request log, the metrics and the recoverer (which must not write a 500
// over a response already started).
//
// Other interfaces of the connection's writer (Flusher, Hijacker, read and
// write deadlines) are reached through Unwrap by http.ResponseController,
// as net/http intends for wrappers; Flush is kept on the type itself for
// code that asserts http.Flusher.
type statusWriter struct {
	http.ResponseWriter
	status int // 0 until the header is written
	bytes  int
}

func (w *statusWriter) WriteHeader(code int) {
	if code >= 100 && code <= 199 && code != http.StatusSwitchingProtocols {
		// An informational answer; the final status is still to come.
		w.ResponseWriter.WriteHeader(code)
		return
	}
	if w.status == 0 {
		w.status = code
		w.ResponseWriter.WriteHeader(code)
	}
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.WriteHeader(http.StatusOK)
	}
	n, err := w.ResponseWriter.Write(b)
	w.bytes += n
	return n, err
}

func (w *statusWriter) Flush() {
	if w.status == 0 {
		w.WriteHeader(http.StatusOK)
	}
	_ = http.NewResponseController(w.ResponseWriter).Flush()
}

func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
