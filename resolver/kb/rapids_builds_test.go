package kb

import (
	"slices"
	"testing"
)

// A series row (extensions-6.yaml: libcudf 23.08) holds for every release
// of its major.minor series, in any spelling of the parts, and for a spec
// that pins the series alone; a release of another series gets none.
func TestExtensionSeriesRows(t *testing.T) {
	k := Default()
	for _, v := range []string{"23.08.00", "23.08.01", "23.8.0"} {
		rows := k.ExtensionBuildsOf("libcudf", v)
		if len(rows) != 1 || rows[0].Version != "23.08" || !rows[0].Series {
			t.Errorf("ExtensionBuildsOf(libcudf, %s) = %+v, want the 23.08 series row", v, rows)
		}
	}
	if rows := k.ExtensionBuildsOf("libcudf", "23.10.00"); len(rows) != 0 {
		t.Errorf("ExtensionBuildsOf(libcudf, 23.10.00) = %+v, want none", rows)
	}
	for _, s := range []string{"23.8", "23.08"} {
		rows := k.ExtensionSeriesBuilds("cudf", s)
		if len(rows) != 1 || !slices.Equal(rows[0].SASS, []string{"6.0", "7.0", "7.5", "8.0", "8.6", "9.0"}) || len(rows[0].PTX) != 0 {
			t.Errorf("ExtensionSeriesBuilds(cudf, %s) = %+v, want SASS 6.0 … 9.0 and no PTX", s, rows)
		}
	}
	// An exact-release row is not a series row.
	if rows := k.ExtensionSeriesBuilds("libcudf", "0.14"); len(rows) != 0 {
		t.Errorf("ExtensionSeriesBuilds(libcudf, 0.14) = %+v, want none (0.14.0 is an exact row)", rows)
	}
	for _, c := range []struct {
		release, series string
		want            bool
	}{
		{"22.08.01", "22.08", true}, {"22.8.0", "22.08", true}, {"22.08", "22.08", false},
		{"22.10.00", "22.08", false}, {"122.08.0", "22.08", false},
	} {
		if got := InSeries(c.release, c.series); got != c.want {
			t.Errorf("InSeries(%s, %s) = %v, want %v", c.release, c.series, got, c.want)
		}
	}
}

// librmm's rows say it has no GPU code of its own (0.14: host sources
// only; from 0.15: header-only), and libcudf 0.14.0's carry PTX.
func TestRAPIDSRows014(t *testing.T) {
	k := Default()
	rm := k.ExtensionBuildsOf("librmm", "0.14.0")
	if len(rm) != 1 || !rm[0].NoDeviceCode || !rm[0].ArchKnown || len(rm[0].SASS)+len(rm[0].PTX) != 0 {
		t.Errorf("librmm 0.14.0 rows = %+v, want one without device code", rm)
	}
	cf := k.ExtensionBuildsOf("libcudf", "0.14.0")
	if len(cf) != 1 || cf[0].Dist != "rapidsai-channel" || !slices.Equal(cf[0].PTX, []string{"7.5"}) || !slices.Contains(cf[0].CUDA, "10.1") {
		t.Errorf("libcudf 0.14.0 rows = %+v, want the rapidsai CUDA 10.x build with PTX 7.5", cf)
	}
}

// no_device_code states that the build has no SASS or PTX: with either, or
// without arch_known, the row contradicts itself and is refused; a series
// row's version must be major.minor.
func TestNoDeviceCodeAndSeriesRowsValidated(t *testing.T) {
	const row = `{name: librmm, version: "0.14.0", dist: rapidsai-channel, torch: [], cuda: ["10.0", "10.1", "10.2"], arch_known: true, no_device_code: true,`
	assertLoadRejects(t, "extensions-6.yaml", row,
		`{name: librmm, version: "0.14.0", dist: rapidsai-channel, torch: [], cuda: ["10.0", "10.1", "10.2"], arch_known: true, no_device_code: true, sass: ["7.0"],`,
		`extensions-6\.yaml:\d+: extension_builds\[\d+\]: no_device_code needs arch_known and no sass or ptx`)
	assertLoadRejects(t, "extensions-6.yaml", row,
		`{name: librmm, version: "0.14.0", dist: rapidsai-channel, torch: [], cuda: ["10.0", "10.1", "10.2"], arch_known: true,`,
		`extensions-6\.yaml:\d+: extension_builds\[\d+\]: arch_known without sass or ptx`)
	const series = `{name: librmm, version: "22.08", series: true,`
	assertLoadRejects(t, "extensions-6.yaml", series,
		`{name: librmm, version: "22.08.00", series: true,`,
		`extensions-6\.yaml:\d+: extension_builds\[\d+\]: a series row's version "22.08.00" is not major.minor`)
}
