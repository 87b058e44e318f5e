package cli

import (
	"github.com/envguard/envguard/internal/cache"
	"github.com/envguard/envguard/internal/discover"
)

// inputFiles expands each directory argument to the input files under it
// (discover.Search.Inputs), under the include: and exclude: globs of the
// configuration that governs each (--config, else the nearest
// .envguard.yml); with filter, the files named are held to the same
// choice (--discover-filter). What the search saw of each directory is
// kept in e.dirFacts, for configPath; with rc, the search is recorded in
// the run's cache and taken from it while it holds.
func (e *env) inputFiles(args []string, rc *runCache, filter bool) ([]string, error) {
	s := discover.Search{Abs: e.absPath, Facts: e.dirFacts, Config: e.configFile, Filter: filter,
		Load: func(path string) ([]string, []string, error) {
			cfg, err := e.loadConfig(path)
			if err != nil || cfg == nil {
				return nil, nil, err
			}
			return cfg.Include, cfg.Exclude, nil
		}}
	var m *cache.Manifest
	if rc != nil {
		m = rc.m
	}
	files, search, changed, err := s.Inputs(args, m)
	e.dirFacts = s.Facts
	if err != nil {
		return nil, err
	}
	if search != nil {
		rc.search = search
		if changed {
			rc.searchChanged = true
		}
	}
	return files, nil
}
