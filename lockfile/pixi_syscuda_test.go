package lockfile

import "testing"

// TestPixiManifestSystemCUDA: Env.SystemCUDA is the highest
// [system-requirements] cuda among the features of the environment read,
// and nil for an environment none of whose features declares one.
func TestPixiManifestSystemCUDA(t *testing.T) {
	src := []byte(`[workspace]
channels = ["conda-forge"]
platforms = ["linux-64"]

[dependencies]
pytorch = "2.5.1.*"

[feature.gpu.system-requirements]
cuda = "12"

[feature.new.system-requirements]
cuda = "12.4"

[environments]
gpu = ["gpu"]
both = ["gpu", "new"]
`)
	for _, tt := range []struct {
		env, want string
		line      int
	}{{"default", "", 0}, {"gpu", "12", 9}, {"both", "12.4", 12}} {
		env := ReadPixiManifest("pixi.toml", src, Options{Environment: tt.env, Platform: "linux-64"})
		got, line := "", 0
		if env.SystemCUDA != nil {
			got, line = env.SystemCUDA.Value, env.SystemCUDA.Pos.Line
		}
		if got != tt.want || line != tt.line {
			t.Errorf("%s: SystemCUDA = %q at line %d, want %q at line %d", tt.env, got, line, tt.want, tt.line)
		}
	}
}
