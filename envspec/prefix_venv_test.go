package envspec

import (
	"path/filepath"
	"strings"
	"testing"
)

// pipOf maps each distribution read to its version and System.
func pipOf(env *Env) map[string]string {
	out := map[string]string{}
	for _, p := range env.Pip {
		out[p.Installed.Name] = p.Installed.Version + "/" + p.Installed.System
	}
	return out
}

// A venv made with --system-site-packages sees its base interpreter's
// packages after its own (issue 27, point 4): a Debian base's
// dist-packages, or a base's lib/pythonX.Y/site-packages; the venv's own
// distributions and torch shadow the base's.
func TestReadPrefixVenvSystemSitePackages(t *testing.T) {
	root := t.TempDir()
	// A Debian base: /usr with dist-packages.
	usr := filepath.Join(root, "usr")
	writeFile(t, filepath.Join(usr, "lib", "python3.11", "os.py"), "")
	deb := filepath.Join(usr, "lib", "python3", "dist-packages")
	distInfo(t, deb, "torch", "1.13.0a0+gitunknown", "", "")
	writeFile(t, filepath.Join(deb, "torch", "version.py"), "__version__ = '1.13.0a0+gitunknown'\ncuda = None\n")
	distInfo(t, deb, "numpy", "1.24.2", "debian", "")
	distInfo(t, deb, "scipy", "1.10.1", "", "")
	// Debian's pip installs into /usr/local: no system package.
	distInfo(t, filepath.Join(usr, "local", "lib", "python3.11", "dist-packages"), "requests", "2.31.0", "pip", "")
	// A base of its own (/opt/python) with site-packages.
	opt := filepath.Join(root, "opt", "python")
	osp := filepath.Join(opt, "lib", "python3.12", "site-packages")
	distInfo(t, osp, "torch", "2.5.1", "pip", "")
	writeFile(t, filepath.Join(osp, "torch", "version.py"), "__version__ = '2.5.1+cu124'\ncuda = '12.4'\n")

	venv := func(cfg string, own ...string) string {
		t.Helper()
		dir := t.TempDir()
		writeFile(t, filepath.Join(dir, "pyvenv.cfg"), cfg)
		py := "3.11"
		if strings.Contains(cfg, "3.12") {
			py = "3.12"
		}
		sp := filepath.Join(dir, "lib", "python"+py, "site-packages")
		writeFile(t, filepath.Join(sp, ".keep"), "")
		for _, o := range own {
			name, version, _ := strings.Cut(o, "==")
			distInfo(t, sp, name, version, "pip", "")
			if name == "torch" {
				writeFile(t, filepath.Join(sp, "torch", "version.py"), "__version__ = '"+version+"'\ncuda = '12.1'\n")
			}
		}
		return dir
	}
	cases := []struct {
		name, cfg string
		own       []string
		pip       map[string]string
		torch     string // version/System
		notes     string // a word every note must hold ("" for none)
	}{
		{"debian base", "home = " + filepath.Join(usr, "bin") + "\ninclude-system-site-packages = true\nversion = 3.11.2\n", nil,
			map[string]string{"torch": "1.13.0a0+gitunknown/debian", "numpy": "1.24.2/debian", "scipy": "1.10.1/debian", "requests": "2.31.0/"},
			"1.13.0a0+gitunknown/debian", ""},
		{"the venv's own shadow the base's", "home = " + filepath.Join(usr, "bin") + "\ninclude-system-site-packages = True\nversion = 3.11.2\n",
			[]string{"numpy==2.0.1", "torch==2.3.1+cu121"},
			map[string]string{"torch": "2.3.1+cu121/", "numpy": "2.0.1/", "scipy": "1.10.1/debian", "requests": "2.31.0/"},
			"2.3.1+cu121/", ""},
		{"site-packages base, virtualenv's base-prefix", "home = /nowhere/bin\nbase-prefix = " + opt + "\ninclude-system-site-packages = true\nversion_info = 3.12.4.final.0\n", nil,
			map[string]string{"torch": "2.5.1/"}, "2.5.1+cu124/", ""},
		{"off", "home = " + filepath.Join(usr, "bin") + "\ninclude-system-site-packages = false\nversion = 3.11.2\n", nil,
			map[string]string{}, "", ""},
		{"a base without sites says so", "home = " + filepath.Join(root, "missing", "bin") + "\ninclude-system-site-packages = true\nversion = 3.11.2\n", nil,
			map[string]string{}, "", "no site-packages"},
		{"no home says so", "include-system-site-packages = true\nversion = 3.11.2\n", nil,
			map[string]string{}, "", "names no base interpreter"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			env, err := ReadPrefix(venv(c.cfg, c.own...))
			if err != nil {
				t.Fatal(err)
			}
			got := pipOf(env)
			if len(got) != len(c.pip) {
				t.Errorf("distributions %v, want %v", got, c.pip)
			}
			for n, v := range c.pip {
				if got[n] != v {
					t.Errorf("%s = %q, want %q (all: %v)", n, got[n], v, got)
				}
			}
			torch := ""
			if env.Torch != nil {
				torch = env.Torch.Version + "/" + env.Torch.System
			}
			if torch != c.torch {
				t.Errorf("torch %q, want %q", torch, c.torch)
			}
			if c.notes == "" && len(env.Notes) > 0 {
				t.Errorf("notes %q, want none", env.Notes)
			}
			if c.notes != "" && (len(env.Notes) != 1 || !strings.Contains(env.Notes[0], c.notes)) {
				t.Errorf("notes %q, want one saying %q", env.Notes, c.notes)
			}
		})
	}
}

// A system prefix labels what Debian installed: INSTALLER debian, or none
// in the system's dist-packages; /usr/local's are pip's (issue 27).
func TestReadPrefixSystemPackageManager(t *testing.T) {
	usr := filepath.Join(t.TempDir(), "usr")
	writeFile(t, filepath.Join(usr, "lib", "python3.11", "os.py"), "")
	deb := filepath.Join(usr, "lib", "python3", "dist-packages")
	distInfo(t, deb, "numpy", "1.24.2", "", "")
	distInfo(t, deb, "six", "1.16.0", "debian", "")
	distInfo(t, deb, "wheel", "0.38.4", "pip", "")
	local := filepath.Join(usr, "local", "lib", "python3.11", "dist-packages")
	distInfo(t, local, "torch", "2.1.0a0+32f93b1", "", "")
	writeFile(t, filepath.Join(local, "torch", "version.py"), "__version__ = '2.1.0a0+32f93b1'\ncuda = '12.2'\n")
	distInfo(t, local, "attrs", "23.1.0", "debian", "")
	env, err := ReadPrefix(usr)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"numpy": "1.24.2/debian", "six": "1.16.0/debian", "wheel": "0.38.4/",
		"torch": "2.1.0a0+32f93b1/", "attrs": "23.1.0/debian"}
	got := pipOf(env)
	for n, v := range want {
		if got[n] != v {
			t.Errorf("%s = %q, want %q", n, got[n], v)
		}
	}
	if env.Torch == nil || env.Torch.System != "" {
		t.Errorf("torch %+v: /usr/local's torch is no system package", env.Torch)
	}
}

func TestParsePyvenvCfg(t *testing.T) {
	cases := []struct {
		in   string
		want pyvenvCfg
		err  string
	}{
		{"home = /usr/bin\ninclude-system-site-packages = false\nversion = 3.11.4\n", pyvenvCfg{Version: "3.11.4", Home: "/usr/bin"}, ""},
		{"home=/usr/bin\nInclude-System-Site-Packages = TRUE\nversion_info = 3.12.1.final.0\nuv = 0.4.0\n", pyvenvCfg{Version: "3.12.1", Home: "/usr/bin", SystemSite: true}, ""},
		{"home = C:\\Python312\r\ninclude-system-site-packages = true\r\nversion = 3.12.1\r\n", pyvenvCfg{Version: "3.12.1", Home: "C:\\Python312", SystemSite: true}, ""},
		{"base-prefix = /opt/py\nversion = 3.10.2\nversion = 3.9.1\n", pyvenvCfg{Version: "3.10.2", BasePrefix: "/opt/py"}, ""},
		{"include-system-site-packages = yes\n", pyvenvCfg{}, ""},
		{"no equals sign here\n# comment\n", pyvenvCfg{}, ""},
		{"home = " + strings.Repeat("x", maxPathBytes+1) + "\n", pyvenvCfg{}, "gives a home of"},
		{"home = /a\x00b\n", pyvenvCfg{}, "NUL"},
	}
	for _, c := range cases {
		got, err := parsePyvenvCfg([]byte(c.in))
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%q: error %v, want %q", c.in, err, c.err)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("%q = %+v, %v; want %+v", c.in, got, err, c.want)
		}
	}
}

// FuzzParsePyvenvCfg: no panic, and what it returns is bounded and the
// version is digits and dots.
func FuzzParsePyvenvCfg(f *testing.F) {
	f.Add([]byte("home = /usr/bin\ninclude-system-site-packages = true\nversion = 3.11.4\n"))
	f.Add([]byte("version_info = 3.12.1.final.0\nbase-prefix=/opt\n"))
	f.Add([]byte("==\n=\nversion=\nhome"))
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := parsePyvenvCfg(data)
		if err != nil {
			return
		}
		if len(c.Home) > maxPathBytes || len(c.BasePrefix) > maxPathBytes || len(c.Version) > maxVersionBytes {
			t.Fatalf("unbounded: %+v", c)
		}
		if strings.Trim(c.Version, "0123456789.") != "" {
			t.Fatalf("version %q", c.Version)
		}
	})
}

// In an exported root file system (check --sysroot) the base a venv's
// pyvenv.cfg names is the image's, not this machine's.
func TestReadPrefixVenvBaseUnderRoot(t *testing.T) {
	root := t.TempDir()
	deb := filepath.Join(root, "usr", "lib", "python3", "dist-packages")
	distInfo(t, deb, "numpy", "1.24.2", "", "")
	dir := filepath.Join(root, "opt", "venv")
	writeFile(t, filepath.Join(dir, "pyvenv.cfg"), "home = /usr/bin\ninclude-system-site-packages = true\nversion = 3.11.2\n")
	env, err := ReadPrefixIn(dir, root)
	if err != nil {
		t.Fatal(err)
	}
	if got := pipOf(env); got["numpy"] != "1.24.2/debian" || len(env.BaseSites) != 1 || env.BaseSites[0] != deb {
		t.Errorf("distributions %v, base sites %v: want the image's numpy from %s", got, env.BaseSites, deb)
	}
}

// check walks a prefix's libraries before ReadPrefixIn is done, with the
// base sites BaseSitesIn gives: they must be ReadPrefixIn's, and
// BaseSitesIn must take for an environment what ReadPrefixIn reads (else
// check would skip the early walk) and nothing it refuses (else check
// would walk a directory it then calls no environment).
func TestBaseSitesInAgreesWithReadPrefix(t *testing.T) {
	root := t.TempDir()
	deb := filepath.Join(root, "usr", "lib", "python3", "dist-packages")
	distInfo(t, deb, "numpy", "1.24.2", "", "")
	osp := filepath.Join(root, "opt", "python", "lib", "python3.12", "site-packages")
	distInfo(t, osp, "torch", "2.5.1", "pip", "")
	venv := func(cfg string) string {
		dir := t.TempDir()
		writeFile(t, filepath.Join(dir, "pyvenv.cfg"), cfg)
		return dir
	}
	conda := t.TempDir()
	writeFile(t, filepath.Join(conda, "conda-meta", "history"), "")
	system := t.TempDir()
	writeFile(t, filepath.Join(system, "lib", "python3.11", "os.py"), "")
	file := filepath.Join(t.TempDir(), "f")
	writeFile(t, file, "")
	cases := []struct {
		name, dir, root string
		sites           int // how many base sites
	}{
		{"debian base under root", venv("home = /usr/bin\ninclude-system-site-packages = true\nversion = 3.11.2\n"), root, 1},
		{"base-prefix", venv("base-prefix = " + filepath.Join(root, "opt", "python") + "\ninclude-system-site-packages = true\nversion = 3.12.1\n"), "", 1},
		{"off", venv("home = /usr/bin\ninclude-system-site-packages = false\nversion = 3.11.2\n"), root, 0},
		// A bad line after the flag: ReadPrefixIn keeps what came before
		// it, the flag and the base, with a note.
		{"bad line after the flag", venv("base-prefix = " + filepath.Join(root, "opt", "python") + "\ninclude-system-site-packages = true\nversion = 3.12.1\nhome = " + strings.Repeat("x", maxPathBytes+1) + "\n"), "", 1},
		{"pyvenv.cfg a directory", func() string { d := t.TempDir(); writeFile(t, filepath.Join(d, "pyvenv.cfg", "x"), ""); return d }(), "", 0},
		{"conda", conda, "", 0},
		{"system python", system, "", 0},
		{"no environment", t.TempDir(), "", 0},
		{"missing", filepath.Join(root, "missing"), "", 0},
		{"a file", file, "", 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			sites, ok := BaseSitesIn(c.dir, c.root)
			env, err := ReadPrefixIn(c.dir, c.root)
			if ok != (err == nil) {
				t.Fatalf("BaseSitesIn says environment %v, ReadPrefixIn's error %v", ok, err)
			}
			if err != nil {
				return
			}
			if strings.Join(sites, "|") != strings.Join(env.BaseSites, "|") || len(sites) != c.sites {
				t.Errorf("BaseSitesIn %q, ReadPrefixIn's %q; want %d", sites, env.BaseSites, c.sites)
			}
		})
	}
}
