package api

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strconv"
	"sync"

	vm "github.com/VictoriaMetrics/metrics"
)

// metrics are VictoriaMetrics/metrics sets of the service's own, served in
// the Prometheus text format. That library rather than Prometheus's own
// client because the CLI shares this binary: Go runs the init of every
// linked package on every `envguard validate`, and client_golang's (its
// default registry's Go and process collectors, procfs, protobuf) cost
// about a third of a CLI run's start-up.
//
// Each family is a set of its own so that /metrics keeps a HELP and TYPE
// line per family, which the library writes only without their text. The
// sets are private: two routers in one process (tests, the load
// benchmark) must not count into each other.
type metrics struct {
	families []*family

	requests *family // counters by route, method and status
	latency  *family // histograms by route
	findings *family // counters by rule code

	nvmlErrs  *vm.Counter
	rejected  *vm.Counter
	throttled *vm.Counter
	inFlight  *vm.Gauge
	waiting   *vm.Gauge
	panics    *vm.Counter
	// abandoned counts pipeline calls still running after their request
	// ended (deadline or client gone); they hold no validation slot.
	abandoned *vm.Gauge

	// Labelled series looked up per request without building their names.
	reqSeries sync.Map // requestKey → *vm.Counter
	latSeries sync.Map // route → *vm.PrometheusHistogram
	codes     sync.Map // rule code → *vm.Counter
}

// family is one metric name with its help, type and series.
type family struct {
	name, help, typ string
	set             *vm.Set
}

type requestKey struct {
	route, method string
	status        int
}

// latencyBuckets are the request-duration histogram's upper bounds, in
// seconds.
var latencyBuckets = []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10}

func newMetrics() *metrics {
	m := &metrics{}
	fam := func(name, typ, help string) *family {
		f := &family{name: name, help: help, typ: typ, set: vm.NewSet()}
		m.families = append(m.families, f)
		return f
	}
	m.requests = fam("envguard_http_requests_total", "counter", "HTTP requests by route pattern, method and status.")
	m.latency = fam("envguard_http_request_duration_seconds", "histogram", "HTTP request latency by route pattern.")
	m.findings = fam("envguard_findings_total", "counter", "Findings in the reports the service returned, by rule code.")
	m.nvmlErrs = fam("envguard_nvml_errors_total", "counter",
		"GPU probes that failed with an NVML error (not counting hosts without a driver).").counter()
	m.rejected = fam("envguard_http_rejected_total", "counter",
		"Requests answered 503 because every validation slot was busy.").counter()
	m.throttled = fam("envguard_http_throttled_total", "counter",
		"Requests answered 429 because their client already used its share of the validation slots.").counter()
	m.inFlight = fam("envguard_validations_in_flight", "gauge", "Validations, names and builds running now.").gauge()
	m.waiting = fam("envguard_validations_waiting", "gauge", "Validations, names and builds waiting for a slot.").gauge()
	m.panics = fam("envguard_http_panics_total", "counter", "Handler panics recovered and answered 500.").counter()
	m.abandoned = fam("envguard_validations_abandoned", "gauge",
		"Validations, names and builds still stopping after their request ended (deadline or client gone); they hold no slot.").gauge()
	return m
}

func (f *family) counter() *vm.Counter        { return f.set.NewCounter(f.name) }
func (f *family) gauge() *vm.Gauge            { return f.set.NewGauge(f.name, nil) }
func (f *family) series(labels string) string { return f.name + "{" + labels + "}" }

// request counts one answered request and its latency.
func (m *metrics) request(route, method string, status int, seconds float64) {
	k := requestKey{route, method, status}
	c, ok := m.reqSeries.Load(k)
	if !ok {
		// Label values are route patterns, methods from methodLabel and
		// status codes: none holds a quote or a backslash to escape.
		c, _ = m.reqSeries.LoadOrStore(k, m.requests.set.GetOrCreateCounter(m.requests.series(
			`method="`+method+`",route="`+route+`",status="`+strconv.Itoa(status)+`"`)))
	}
	c.(*vm.Counter).Inc()
	h, ok := m.latSeries.Load(route)
	if !ok {
		h, _ = m.latSeries.LoadOrStore(route, m.latency.set.GetOrCreatePrometheusHistogramExt(
			m.latency.series(`route="`+route+`"`), latencyBuckets))
	}
	h.(*vm.PrometheusHistogram).Update(seconds)
}

// handler serves the families, then the Go runtime's and the process's
// metrics (go_*, process_*).
func (m *metrics) handler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var out bytes.Buffer
		m.write(&out)
		vm.WriteProcessMetrics(&out)
		w.Header().Set("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
		_, _ = w.Write(out.Bytes())
	})
}

// write writes envguard's own families; one with no series yet is left
// out, as Prometheus's client does.
func (m *metrics) write(out *bytes.Buffer) {
	var b bytes.Buffer
	for _, f := range m.families {
		b.Reset()
		f.set.WritePrometheus(&b)
		if b.Len() == 0 {
			continue
		}
		out.WriteString("# HELP " + f.name + " " + f.help + "\n# TYPE " + f.name + " " + f.typ + "\n")
		out.Write(b.Bytes())
	}
}

func methodLabel(m string) string {
	switch m {
	case http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPut, http.MethodDelete,
		http.MethodPatch, http.MethodOptions:
		return m
	}
	return "other"
}

// observeReport counts the findings of a report by code. Decoding the
// report again costs far less than producing it, and keeps the Validator
// interface to one byte slice.
func (m *metrics) observeReport(report []byte) {
	var r struct {
		Findings []struct {
			Code string `json:"code"`
		} `json:"findings"`
	}
	if json.Unmarshal(report, &r) != nil {
		return
	}
	codes := make([]string, len(r.Findings))
	for i, f := range r.Findings {
		codes[i] = f.Code
	}
	m.ObserveFindings(codes)
}

// ObserveFindings counts findings by code. Codes that are not EGnnn are
// counted as "other" so that the label set stays bounded.
func (m *metrics) ObserveFindings(codes []string) {
	for _, c := range codes {
		if !isRuleCode(c) {
			c = "other"
		}
		v, ok := m.codes.Load(c)
		if !ok {
			v, _ = m.codes.LoadOrStore(c, m.findings.set.GetOrCreateCounter(m.findings.series(`code="`+c+`"`)))
		}
		v.(*vm.Counter).Inc()
	}
}

func isRuleCode(c string) bool {
	if len(c) != 5 || c[0] != 'E' || c[1] != 'G' {
		return false
	}
	for _, d := range c[2:] {
		if d < '0' || d > '9' {
			return false
		}
	}
	return true
}
