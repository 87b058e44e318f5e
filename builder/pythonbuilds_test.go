package builder

import (
	"errors"
	"strings"
	"testing"
)

// Where the knowledge base says which Pythons a distribution built a
// release for (torch_python_builds), the builder picks among those: the
// release's newest Python may be one the distribution never built.
func TestBuildPicksADistributionsPython(t *testing.T) {
	tests := []struct {
		name   string
		req    Request
		python string
		why    string
	}{
		{"conda-forge built 2.9.1 for 3.10–3.13, not the release's 3.14",
			Request{Framework: "pytorch", Version: "2.9", Via: "conda-forge"}, "3.13",
			"Python 3.13 is the newest conda-forge built torch 2.9.1 for"},
		{"the pytorch channel never built 2.0.0's CUDA packages for 3.11",
			Request{Framework: "pytorch", Version: "2.0.0", Via: "conda"}, "3.10",
			"Python 3.10 is the newest the pytorch conda channel built torch 2.0.0 for"},
		{"the same release from pip keeps the release's newest",
			Request{Framework: "pytorch", Version: "2.0.0", Via: "pip"}, "3.11",
			"Python 3.11 is the newest torch 2.0.0 supports"},
		{"conda-forge's list agrees with the release's: no special wording",
			Request{Framework: "pytorch", Version: "2.10", Via: "conda-forge"}, "3.14",
			"Python 3.14 is the newest torch 2.10.0 supports"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := mustBuild(t, tt.req)
			y := string(res.YAML)
			if res.Python != tt.python || !strings.Contains(y, "  - python="+tt.python+"\n") {
				t.Errorf("Python %s, want %s:\n%s", res.Python, tt.python, y)
			}
			if why := strings.Join(res.Why, "\n"); !strings.Contains(why, tt.why) {
				t.Errorf("header lacks %q:\n%s", tt.why, why)
			}
			if res.Report.Summary.Errors > 0 {
				t.Errorf("the file does not validate:\n%s", y)
			}
		})
	}
}

// A Python that was asked for is kept, and the distribution that never
// built it is refused with EG204's reason.
func TestBuildKeepsAnAskedPython(t *testing.T) {
	_, err := Build(Request{Framework: "pytorch", Version: "2.9", Via: "conda-forge", Python: "3.14"})
	var be *Error
	if !errors.As(err, &be) {
		t.Fatalf("got %v; want a build error", err)
	}
	for _, s := range []string{"never built for Python 3.14 on conda-forge", "EG204"} {
		if !strings.Contains(err.Error(), s) {
			t.Errorf("error lacks %q: %v", s, err)
		}
	}
}
