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
	return time.Now()
}

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

// downloadedKB is the installed downloaded layer, or nil. A damaged or
// untrusted one is named in a warning and not used: the embedded KB is.
func (e *env) downloadedKB() (*kb.KB, *kbstore.Bundle) {
	s, ok := e.kbStore()
	if !ok {
		return nil, nil
	}
	b, dir, err := s.Installed(e.kbKeys())
	if errors.Is(err, kbstore.ErrNotInstalled) {
		return nil, nil
	}
	if err == nil {
		var k *kb.KB
		if k, err = kb.Load(dir); err == nil {
			return k, b
		}
	}
	fmt.Fprintf(e.stderr, "envguard: warning: ignoring the downloaded knowledge base in %s: %v (run envguard kb update to replace it)\n", s.Root, err)
	return nil, nil
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
	Name    string         `json:"name"`
	Date    string         `json:"date"`
	AgeDays int            `json:"age_days"`
	Version string         `json:"version"`
	Serial  uint64         `json:"serial,omitempty"`
	KeyID   string         `json:"key_id,omitempty"`
	Path    string         `json:"path,omitempty"`
	Sources int            `json:"sources"`
	Counts  map[string]int `json:"counts"`
	InUse   bool           `json:"in_use"`
}

func (e *env) layer(name string, k *kb.KB) kbLayer {
	l := kbLayer{Name: name, Date: k.Date, Version: k.Version(), Sources: len(k.Sources), Counts: k.Counts(), AgeDays: -1}
	if d, err := time.Parse(time.DateOnly, k.Date); err == nil {
		l.AgeDays = int(e.clock().Sub(d).Hours() / 24)
	}
	return l
}

func kbStatusCmd(e *env) *cobra.Command {
	var asJSON bool
	c := &cobra.Command{
		Use:   "status [--json]",
		Short: "Show each knowledge-base layer: its date, age, rows per table and sources, and which one is in use",
		Args:  cobra.NoArgs,
		RunE: func(c *cobra.Command, args []string) error {
			layers := []kbLayer{e.layer("embedded", kb.Default())}
			if k, b := e.downloadedKB(); k != nil {
				l := e.layer("downloaded", k)
				l.Serial, l.KeyID = b.Manifest.Serial, b.KeyID
				if s, ok := e.kbStore(); ok {
					l.Path = s.Root
				}
				layers = append(layers, l)
			}
			if e.kbDir != "" {
				k, err := kb.Load(e.kbDir)
				if err != nil {
					return usageErr("--kb %s: %v", e.kbDir, err)
				}
				l := e.layer("--kb", k)
				l.Path = e.kbDir
				layers = append(layers, l)
			}
			layers[len(layers)-1].InUse = true
			newest := layers[len(layers)-1]
			warn := ""
			if newest.AgeDays > kbStaleDays {
				warn = fmt.Sprintf("the knowledge base in use is %d days old (dated %s, more than %d): run envguard kb update", newest.AgeDays, newest.Date, kbStaleDays)
			}
			learned := e.learnedLayerStatus()
			if asJSON {
				out := struct {
					Layers  []kbLayer      `json:"layers"`
					Learned *learnedStatus `json:"learned,omitempty"`
					Warning string         `json:"warning,omitempty"`
				}{layers, learned, warn}
				enc := json.NewEncoder(e.stdout)
				enc.SetIndent("", "  ")
				return enc.Encode(out)
			}
			for _, l := range layers {
				use := ""
				if l.InUse {
					use = " (in use)"
				}
				fmt.Fprintf(e.stdout, "%s%s: dated %s, %d days old, version %s, %d sources\n", l.Name, use, l.Date, l.AgeDays, l.Version, l.Sources)
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
				fmt.Fprintf(e.stdout, "  rows: %s\n", strings.Join(parts, ", "))
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
			err = s.Install(b, e.kbKeys(), func(dir string) error {
				_, err := kb.Load(dir)
				return err
			})
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
	if err := s.Install(b, e.kbKeys(), func(dir string) error { _, err := kb.Load(dir); return err }); err != nil {
		return nil, err
	}
	_, dir, err := s.Installed(e.kbKeys())
	if err != nil {
		return nil, err
	}
	return kb.Load(dir)
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
