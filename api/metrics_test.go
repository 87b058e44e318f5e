package api

import (
	"bytes"
	"strings"
	"testing"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
)

// TestMetricsExposition reads /metrics with Prometheus's own text parser:
// every family parses, keeps its HELP text and TYPE, and the counts,
// histogram buckets and gauges are what the requests made.
func TestMetricsExposition(t *testing.T) {
	ts := newTestServer(t, &fakeValidator{})
	body := []byte("name: x\ndependencies:\n  - pytorch  # finding EG207\n")
	for range 2 {
		if resp, b := ts.do("POST", "/v1/validate", "application/yaml", body); resp.StatusCode != 200 {
			t.Fatalf("validate: %d %s", resp.StatusCode, b)
		}
	}
	ts.do("GET", "/healthz", "", nil)
	ts.do("GET", "/no-such-page", "", nil)
	resp, m := ts.do("GET", "/metrics", "", nil)
	if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/plain; version=0.0.4") {
		t.Errorf("Content-Type = %q, want the Prometheus text format's", ct)
	}
	p := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := p.TextToMetricFamilies(bytes.NewReader(m))
	if err != nil {
		t.Fatalf("/metrics does not parse as the Prometheus text format: %v\n%s", err, m)
	}
	want := map[string]dto.MetricType{
		"envguard_http_requests_total":           dto.MetricType_COUNTER,
		"envguard_http_request_duration_seconds": dto.MetricType_HISTOGRAM,
		"envguard_findings_total":                dto.MetricType_COUNTER,
		"envguard_nvml_errors_total":             dto.MetricType_COUNTER,
		"envguard_http_rejected_total":           dto.MetricType_COUNTER,
		"envguard_validations_in_flight":         dto.MetricType_GAUGE,
		"envguard_http_panics_total":             dto.MetricType_COUNTER,
		"envguard_validations_abandoned":         dto.MetricType_GAUGE,
	}
	for name, typ := range want {
		f, ok := fams[name]
		if !ok {
			t.Errorf("no family %s", name)
			continue
		}
		if f.GetType() != typ || f.GetHelp() == "" {
			t.Errorf("%s: type %v help %q; want %v with a help text", name, f.GetType(), f.GetHelp(), typ)
		}
	}
	for _, name := range []string{"go_goroutines", "process_resident_memory_bytes"} {
		if _, ok := fams[name]; !ok {
			t.Errorf("no %s", name)
		}
	}
	labels := func(mt *dto.Metric) map[string]string {
		l := map[string]string{}
		for _, lp := range mt.GetLabel() {
			l[lp.GetName()] = lp.GetValue()
		}
		return l
	}
	counts := map[string]float64{}
	for _, mt := range fams["envguard_http_requests_total"].GetMetric() {
		l := labels(mt)
		counts[l["method"]+" "+l["route"]+" "+l["status"]] = mt.GetCounter().GetValue()
	}
	for k, n := range map[string]float64{"POST /v1/validate 200": 2, "GET /healthz 200": 1, "GET unmatched 404": 1} {
		if counts[k] != n {
			t.Errorf("requests_total %q = %v, want %v (all: %v)", k, counts[k], n, counts)
		}
	}
	var hist *dto.Histogram
	for _, mt := range fams["envguard_http_request_duration_seconds"].GetMetric() {
		if labels(mt)["route"] == "/v1/validate" {
			hist = mt.GetHistogram()
		}
	}
	if hist == nil {
		t.Fatal("no latency histogram for /v1/validate")
	}
	bs := hist.GetBucket()
	if hist.GetSampleCount() != 2 || len(bs) != len(latencyBuckets)+1 { // and +Inf
		t.Fatalf("latency histogram: %d samples in %d buckets, want 2 in %d", hist.GetSampleCount(), len(bs), len(latencyBuckets)+1)
	}
	if b := bs[len(bs)-2]; b.GetCumulativeCount() != 2 || b.GetUpperBound() != 10 {
		t.Errorf("bucket le=10 = %v, want both requests in it", b)
	}
	if f := fams["envguard_findings_total"].GetMetric(); len(f) != 1 || labels(f[0])["code"] != "EG207" || f[0].GetCounter().GetValue() != 2 {
		t.Errorf("findings_total = %v, want EG207 counted twice", f)
	}
}
