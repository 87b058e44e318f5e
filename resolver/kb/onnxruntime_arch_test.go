package kb

import (
	"slices"
	"testing"
)

// TestOnnxruntimeGPUArchRows: every onnxruntime-gpu release row carries the
// architectures its tag's Python packaging pipeline builds the Linux wheel
// for (extensions-10.yaml): the CMakeLists' SASS-only list for nvcc 11.0 up
// to 1.8.1, 37;50;52;60;61;70;75;80 (SASS and PTX) from 1.9.0 to 1.14.1,
// and 52;60;61;70;75;80 (SASS and PTX) from 1.15.0 to 1.16.3 and from
// 1.19.0 to 1.20.1.
func TestOnnxruntimeGPUArchRows(t *testing.T) {
	k := Default()
	cmakeOwn := []string{"3.7", "5.0", "5.2", "6.0", "7.0", "8.0"}
	list37 := []string{"3.7", "5.0", "5.2", "6.0", "6.1", "7.0", "7.5", "8.0"} // 1.9 … 1.14
	list52 := []string{"5.2", "6.0", "6.1", "7.0", "7.5", "8.0"}               // 1.15 … 1.20
	for _, tt := range []struct {
		version, cuda string
		sass, ptx     []string
	}{
		{"1.7.0", "11.0", cmakeOwn, nil},
		{"1.8.0", "11.0", cmakeOwn, nil},
		{"1.8.1", "11.0", cmakeOwn, nil},
		{"1.9.0", "11.4", list37, list37},
		{"1.10.0", "11.4", list37, list37},
		{"1.11.0", "11.4", list37, list37},
		{"1.11.1", "11.4", list37, list37},
		{"1.13.1", "11.6", list37, list37},
		{"1.14.0", "11.6", list37, list37},
		{"1.14.1", "11.6", list37, list37},
		{"1.15.0", "11.8", list52, list52},
		{"1.15.1", "11.8", list52, list52},
		{"1.16.0", "11.8", list52, list52},
		{"1.16.3", "11.8", list52, list52},
		{"1.19.0", "12", list52, list52},
		{"1.19.2", "12", list52, list52},
		{"1.20.0", "12", list52, list52},
		{"1.20.1", "12", list52, list52},
	} {
		rows := k.ExtensionBuildsOf("onnxruntime-gpu", tt.version)
		if len(rows) != 1 {
			t.Errorf("onnxruntime-gpu %s: %d rows, want one (the package index's wheel)", tt.version, len(rows))
			continue
		}
		r := rows[0]
		if r.Dist != "pypi" || !r.ArchKnown || !slices.Equal(r.CUDA, []string{tt.cuda}) || !slices.Equal(r.SASS, tt.sass) || !slices.Equal(r.PTX, tt.ptx) {
			t.Errorf("onnxruntime-gpu %s: dist %s, arch_known %v, cuda %v, sass %v, ptx %v; want pypi, true, [%s], %v, %v",
				tt.version, r.Dist, r.ArchKnown, r.CUDA, r.SASS, r.PTX, tt.cuda, tt.sass, tt.ptx)
		}
	}
	// No row for a release no read source says the package index holds a
	// GPU wheel of, nor for those whose wheel CUDA the sources disagree on.
	for _, v := range []string{"1.7.1", "1.8.2", "1.12.0", "1.12.1", "1.17.0", "1.18.0"} {
		if rows := k.ExtensionBuildsOf("onnxruntime-gpu", v); len(rows) != 0 {
			t.Errorf("onnxruntime-gpu %s: %d rows, want none", v, len(rows))
		}
	}
}
