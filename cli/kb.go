package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync/atomic"
	"time"

	"github.com/envguard/envguard/internal/kbstore"
	"github.com/envguard/envguard/resolver/kb"
	"github.com/spf13/cobra"
)

// DefaultKBURL is the release asset `envguard kb update` downloads
// (docs/knowledge-base.md): the workflow in .github/workflows/kb-release.yml
// publishes it.
const DefaultKBURL = "https://github.com/envguard/envguard/releases/latest/download/kb-bundle.tar.gz"

// kbStaleDays is the age past which `kb status` warns that the newest
// knowledge is old: new framework releases come about monthly.
const kbStaleDays = 60

// kbDownloadTimeout bounds a whole download.
const kbDownloadTimeout = 2 * time.Minute

func (e *env) clock() time.Time {
	if e.now != nil {
		return e.now()
	}
	return wallClock()
}

// wallClock is the clock of an env that sets none; the package's tests
// fix it (TestMain), so that no output of theirs depends on the day.
var wallClock = time.Now

func (e *env) kbKeys() kbstore.Keys {
	if e.keys != nil {
		return *e.keys
	}
	return kbstore.ReleaseKeys
}

func (e *env) kbStore() (kbstore.Store, bool) {
	d := kbstore.Dir(e.getenv)
	return kbstore.Store{Root: d}, d != ""
}

// downloadedLayer is the installed downloaded layer; false where none is
// installed. A damaged or untrusted one is named in a warning and not
// used.
func (e *env) downloadedLayer() (kb.Overlay, bool) {
	s, ok := e.kbStore()
	if !ok {
		return kb.Overlay{}, false
	}
	b, dir, err := s.Installed(e.kbKeys())
	if errors.Is(err, kbstore.ErrNotInstalled) {
		return kb.Overlay{}, false
	}
	if err != nil {
		fmt.Fprintf(e.stderr, "envguard: warning: ignoring the downloaded knowledge base in %s: %v (run envguard kb update to replace it)\n", s.Root, err)
		return kb.Overlay{}, false
	}
	return kb.Overlay{Name: "downloaded", Dir: dir, Serial: b.Manifest.Serial, KeyID: b.KeyID}, true
}

// learnedKBPath is where `envguard kb learn` keeps what it learned (YAML
// files of the data files' layout): $XDG_DATA_HOME/envguard/learned, else
// ~/.local/share/envguard/learned; "" where neither variable is set.
func (e *env) learnedKBPath() string { return kbstore.LearnedDir(e.getenv) }

// learnedKBDir is the learned layer's directory, or "" where it does not
// exist or holds no *.yaml file: knowledge() stacks it above the
// downloaded layer.
func (e *env) learnedKBDir() string {
	d := e.learnedKBPath()
	if d == "" {
		return ""
	}
	if names, _ := filepath.Glob(filepath.Join(d, "*.yaml")); len(names) == 0 {
		return ""
	}
	return d
}

// stackKB builds the knowledge base from its layers, lowest first:
// embedded, downloaded, learned and --kb DIR (docs/knowledge-base.md). A
// downloaded or learned layer that does not validate on the layers below
// is named in a warning and left out; a bad --kb DIR is a usage error.
func (e *env) stackKB() (*kb.KB, error) {
	k := kb.Default()
	if ov, ok := e.downloadedLayer(); ok {
		if s, err := kb.Stack(k, ov); err != nil {
			fmt.Fprintf(e.stderr, "envguard: warning: ignoring the downloaded knowledge base in %s: %v (run envguard kb update to replace it)\n", ov.Dir, err)
		} else {
			k = s
		}
	}
	if dir := e.learnedKBDir(); dir != "" {
		if s, err := kb.Stack(k, kb.Overlay{Name: "learned", Dir: dir}); err != nil {
			fmt.Fprintf(e.stderr, "envguard: warning: ignoring the learned knowledge in %s: %v\n", dir, err)
		} else {
			k = s
		}
	}
	if e.kbDir != "" {
		s, err := kb.Stack(k, kb.Overlay{Name: "--kb", Dir: e.kbDir})
		if err != nil {
			return nil, usageErr("--kb %s: %v", e.kbDir, err)
		}
		k = s
	}
	return k, nil
}

// validateBundle is what kb update and serve --kb-refresh require of a
// bundle's data before installing it: that it stacks on the embedded KB
// (a whole KB, or rows added to it) and validates.
func validateBundle(dir string) error {
	_, err := kb.Stack(kb.Default(), kb.Overlay{Name: "downloaded", Dir: dir})
	return err
}

// kbAge is the age in days of a layer's date by the env's clock, -1 when
// it has none.
func (e *env) kbAge(date string) int {
	d, err := time.Parse(time.DateOnly, date)
	if err != nil {
		return -1
	}
	return int(e.clock().Sub(d).Hours() / 24)
}

// kbStaleWarning is the one line that says the newest layer in use is
// more than kbStaleDays old; "" when it is not.
func (e *env) kbStaleWarning(k *kb.KB) string {
	n := k.NewestLayer()
	if age := e.kbAge(n.Date); age > kbStaleDays {
		return fmt.Sprintf("the knowledge base in use is %d days old (newest layer: %s, dated %s, more than %d): run envguard kb update", age, n.Name, n.Date, kbStaleDays)
	}
	return ""
}

func kbCmd(e *env) *cobra.Command {
	c := &cobra.Command{
		Use:   "kb",
		Short: "Show, update and add to the knowledge base (status, update, learn)",
	}
	c.AddCommand(kbStatusCmd(e), kbUpdateCmd(e), kbLearnCmd(e))
	return c
}

type kbLayer struct {
	Name    string `json:"name"`
	Date    string `json:"date"`
	AgeDays int    `json:"age_days"`
	Version string `json:"version"`
	Serial  uint64 `json:"serial,omitempty"`
	KeyID   string `json:"key_id,omitempty"`
	Path    string `json:"path,omitempty"`
	// Sources and Counts are the layer's rows in use: those it adds and
	// those it replaces (a superseded layer has none).
	Sources int            `json:"sources"`
	Rows    int            `json:"rows"`
	Counts  map[string]int `json:"counts"`
	// Full: the layer holds every table, replacing the layers below.
	Full bool `json:"full,omitempty"`
	// InUse is false for a layer a later full layer replaced.
	InUse bool `json:"in_use"`
}

// kbLayers describes each layer of k as kb status shows it.
func (e *env) kbLayers(k *kb.KB) []kbLayer {
	counts := k.CountsByLayer()
	var out []kbLayer
	for i, l := range k.Layers() {
		out = append(out, kbLayer{Name: l.Name, Date: l.Date, AgeDays: e.kbAge(l.Date), Version: l.Version, Serial: l.Serial, KeyID: l.KeyID,
			Path: l.Path, Sources: counts[i]["sources"], Rows: l.Rows, Counts: counts[i], Full: l.Full, InUse: !l.Superseded})
	}
	return out
}

func kbStatusCmd(e *env) *cobra.Command {
	var asJSON bool
	c := &cobra.Command{
		Use:   "status [--json]",
		Short: "Show each knowledge-base layer (embedded, downloaded, learned, --kb): its date, age, rows per table and sources",
		Args:  cobra.NoArgs,
		RunE: func(c *cobra.Command, args []string) error {
			k, err := e.knowledge()
			if err != nil {
				return err
			}
			layers := e.kbLayers(k)
			warn := e.kbStaleWarning(k)
			learned := e.learnedLayerStatus()
			if asJSON {
				out := struct {
					Date    string         `json:"date"`
					Version string         `json:"version"`
					Layers  []kbLayer      `json:"layers"`
					Learned *learnedStatus `json:"learned,omitempty"`
					Warning string         `json:"warning,omitempty"`
				}{k.Date, k.Version(), layers, learned, warn}
				enc := json.NewEncoder(e.stdout)
				enc.SetIndent("", "  ")
				return enc.Encode(out)
			}
			for _, l := range layers {
				use := ""
				switch {
				case !l.InUse:
					use = " (replaced by a whole knowledge base above it)"
				case l.Full:
					use = " (whole)"
				}
				date := l.Date
				if date == "" {
					date = "undated"
				} else {
					date = fmt.Sprintf("dated %s, %d days old", l.Date, l.AgeDays)
				}
				fmt.Fprintf(e.stdout, "%s%s: %s, version %s, %d rows in use, %d sources\n", l.Name, use, date, l.Version, l.Rows, l.Sources)
				if l.Path != "" {
					fmt.Fprintf(e.stdout, "  path: %s\n", l.Path)
				}
				if l.Serial != 0 {
					fmt.Fprintf(e.stdout, "  bundle serial %d, signed by key %s\n", l.Serial, l.KeyID)
				}
				keys := make([]string, 0, len(l.Counts))
				for k := range l.Counts {
					keys = append(keys, k)
				}
				sort.Strings(keys)
				var parts []string
				for _, k := range keys {
					parts = append(parts, fmt.Sprintf("%s %d", k, l.Counts[k]))
				}
				if len(parts) > 0 {
					fmt.Fprintf(e.stdout, "  rows: %s\n", strings.Join(parts, ", "))
				}
			}
			if len(layers) > 1 {
				fmt.Fprintf(e.stdout, "in use: dated %s, version %s\n", k.Date, k.Version())
			}
			writeLearnedStatus(e.stdout, learned)
			if warn != "" {
				fmt.Fprintf(e.stdout, "warning: %s\n", warn)
			}
			return nil
		},
	}
	c.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	return c
}

func kbUpdateCmd(e *env) *cobra.Command {
	var from string
	c := &cobra.Command{
		Use:   "update [--from URL|FILE]",
		Short: "Download, verify (signature, checksums, validation) and install a newer knowledge-base bundle",
		Args:  cobra.NoArgs,
		RunE: func(c *cobra.Command, args []string) error {
			s, ok := e.kbStore()
			if !ok {
				return usageErr("kb update: neither XDG_DATA_HOME nor HOME is set: nowhere to install the knowledge base")
			}
			data, err := fetchBundle(c.Context(), from)
			if err != nil {
				return usageErr("kb update: %s: %v", from, err)
			}
			b, err := kbstore.Read(data, e.kbKeys())
			if err != nil {
				return usageErr("kb update: %s: %v; nothing was changed", from, err)
			}
			if emb := kb.Default().Date; b.Manifest.Date < emb {
				return usageErr("kb update: %s: the bundle is dated %s, older than the knowledge base built into this envguard (%s); nothing was changed", from, b.Manifest.Date, emb)
			}
			err = s.Install(b, e.kbKeys(), validateBundle)
			if err != nil {
				return usageErr("kb update: %s: %v; nothing was changed", from, err)
			}
			fmt.Fprintf(e.stdout, "installed knowledge base dated %s (serial %d, key %s) in %s\n", b.Manifest.Date, b.Manifest.Serial, b.KeyID, s.Root)
			return nil
		},
	}
	c.Flags().StringVar(&from, "from", DefaultKBURL, "the bundle to install: an https:// or http:// `URL`, or a FILE")
	return c
}

// fetchBundle reads the bundle from a URL or file, at most
// kbstore.MaxBundleBytes and kbDownloadTimeout.
func fetchBundle(ctx context.Context, from string) ([]byte, error) {
	var r io.Reader
	if strings.HasPrefix(from, "https://") || strings.HasPrefix(from, "http://") {
		if ctx == nil {
			ctx = context.Background()
		}
		ctx, cancel := context.WithTimeout(ctx, kbDownloadTimeout)
		defer cancel()
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, from, nil)
		if err != nil {
			return nil, err
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return nil, err
		}
		defer resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			return nil, fmt.Errorf("HTTP %s", resp.Status)
		}
		r = resp.Body
	} else {
		f, err := os.Open(from)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		r = f
	}
	data, err := io.ReadAll(io.LimitReader(r, kbstore.MaxBundleBytes+1))
	if err != nil {
		return nil, fmt.Errorf("reading: %v", err)
	}
	if len(data) > kbstore.MaxBundleBytes {
		return nil, fmt.Errorf("larger than %d bytes", kbstore.MaxBundleBytes)
	}
	return data, nil
}

// refreshKB is one `serve --kb-refresh` round: fetch the bundle at from and
// install it when newer. It returns the KB to use from now on, or nil when
// nothing changed (no newer bundle); an error leaves the last good KB.
func (e *env) refreshKB(ctx context.Context, from string) (*kb.KB, error) {
	s, ok := e.kbStore()
	if !ok {
		return nil, errors.New("neither XDG_DATA_HOME nor HOME is set")
	}
	data, err := fetchBundle(ctx, from)
	if err != nil {
		return nil, err
	}
	b, err := kbstore.Read(data, e.kbKeys())
	if err != nil {
		return nil, err
	}
	if old, _, err := s.Installed(e.kbKeys()); err == nil && b.Manifest.Serial <= old.Manifest.Serial {
		return nil, nil
	}
	if b.Manifest.Date < kb.Default().Date {
		return nil, fmt.Errorf("the bundle is dated %s, older than the embedded knowledge base (%s)", b.Manifest.Date, kb.Default().Date)
	}
	if err := s.Install(b, e.kbKeys(), validateBundle); err != nil {
		return nil, err
	}
	// The layers are stacked afresh: the new bundle above the embedded KB,
	// the learned layer and --kb DIR above it.
	return e.stackKB()
}

// kbRefresher runs refreshKB on every tick until ctx ends, storing each new
// KB in cur (requests read it once each, so none sees a half KB) and
// logging each outcome.
func (e *env) kbRefresher(ctx context.Context, tick <-chan time.Time, from string, cur *atomic.Pointer[kb.KB], log *slog.Logger) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick:
		}
		k, err := e.refreshKB(ctx, from)
		switch {
		case err != nil:
			log.Warn("knowledge-base refresh failed; keeping the last good one", slog.String("from", from), slog.String("error", err.Error()), slog.String("in_use", cur.Load().Date))
		case k == nil:
			log.Info("knowledge base is up to date", slog.String("date", cur.Load().Date))
		default:
			cur.Store(k)
			log.Info("knowledge base refreshed", slog.String("date", k.Date), slog.String("version", k.Version()))
		}
	}
}
