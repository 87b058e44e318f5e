package api

import (
	"encoding/json"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"net/http"
)

// metrics live in a private registry: two routers in one process (tests,
// the load benchmark) must not collide on the global one.
type metrics struct {
	reg      *prometheus.Registry
	requests *prometheus.CounterVec
	latency  *prometheus.HistogramVec
	findings *prometheus.CounterVec
	nvmlErrs prometheus.Counter
	rejected prometheus.Counter
	inFlight prometheus.Gauge
	panics   prometheus.Counter
	// abandoned counts pipeline calls still running after their request
	// ended (deadline or client gone); they hold no validation slot.
	abandoned prometheus.Gauge
}

func newMetrics() *metrics {
	m := &metrics{
		reg: prometheus.NewRegistry(),
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "envguard_http_requests_total",
			Help: "HTTP requests by route pattern, method and status.",
		}, []string{"route", "method", "status"}),
		latency: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "envguard_http_request_duration_seconds",
			Help:    "HTTP request latency by route pattern.",
			Buckets: []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10},
		}, []string{"route"}),
		findings: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "envguard_findings_total",
			Help: "Findings in the reports the service returned, by rule code.",
		}, []string{"code"}),
		nvmlErrs: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "envguard_nvml_errors_total",
			Help: "GPU probes that failed with an NVML error (not counting hosts without a driver).",
		}),
		rejected: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "envguard_http_rejected_total",
			Help: "Requests answered 503 because every validation slot was busy.",
		}),
		inFlight: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "envguard_validations_in_flight",
			Help: "Validations, names and builds running now.",
		}),
		panics: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "envguard_http_panics_total",
			Help: "Handler panics recovered and answered 500.",
		}),
		abandoned: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "envguard_validations_abandoned",
			Help: "Validations, names and builds still stopping after their request ended (deadline or client gone); they hold no slot.",
		}),
	}
	m.reg.MustRegister(m.requests, m.latency, m.findings, m.nvmlErrs, m.rejected, m.inFlight, m.panics, m.abandoned,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}

func (m *metrics) handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{})
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
		m.findings.WithLabelValues(c).Inc()
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
