package report

import (
	"fmt"
	"strings"

	"github.com/envguard/envguard/resolver"
	"github.com/envguard/envguard/resolver/kb"
)

// KBInfo names the knowledge a report rests on: the knowledge base's date
// (its newest layer's) and version, and each of its layers, lowest first
// (docs/knowledge-base.md). The JSON report carries it as "kb", SARIF as
// the run property "kb", and `validate --verbose` prints it as one line.
type KBInfo struct {
	Date    string    `json:"date"`
	Version string    `json:"version"`
	Layers  []KBLayer `json:"layers"`
	// Release names the layer of the row of the environment's framework
	// release (the torch row the companion, Python and variant checks
	// read), where the KB has more than one layer and holds the release.
	Release *KBRow `json:"release,omitempty"`
}

// KBRow is one row of the knowledge base and the layer it came from.
type KBRow struct {
	Table string `json:"table"` // the table's yaml key, "torch"
	Key   string `json:"key"`   // the row's key, "2.5.1"
	Layer string `json:"layer"` // the layer's name, "learned"
}

// KBLayer is one layer of the knowledge base as a report names it. Where a
// layer was read from stays out: the service must not show its paths.
type KBLayer struct {
	Name    string `json:"name"`
	Date    string `json:"date,omitempty"`
	Version string `json:"version"`
	Serial  uint64 `json:"serial,omitempty"`
	KeyID   string `json:"key_id,omitempty"`
	// Full: the layer holds every table and replaces the layers below it.
	Full bool `json:"full,omitempty"`
	// Superseded: a full layer above replaced it; none of its rows is used.
	Superseded bool `json:"superseded,omitempty"`
}

// KnowledgeOf is the KBInfo of k.
func KnowledgeOf(k *kb.KB) *KBInfo {
	info := &KBInfo{Date: k.Date, Version: k.Version(), Layers: []KBLayer{}}
	for _, l := range k.Layers() {
		info.Layers = append(info.Layers, KBLayer{Name: l.Name, Date: l.Date, Version: l.Version, Serial: l.Serial, KeyID: l.KeyID,
			Full: l.Full, Superseded: l.Superseded})
	}
	return info
}

// knowledgeFor is KnowledgeOf k for a report on stack: with the layer of
// its framework release's row, where k has layers to tell apart.
func knowledgeFor(k *kb.KB, stack *resolver.Stack) *KBInfo {
	info := KnowledgeOf(k)
	if len(info.Layers) < 2 || stack == nil || stack.Framework == nil || stack.Framework.Name != "pytorch" || stack.Framework.Version == "" {
		return info
	}
	if l, ok := k.ReleaseLayer(stack.Framework.Version); ok {
		r, _ := k.Release(stack.Framework.Version)
		info.Release = &KBRow{Table: "torch", Key: r.Version, Layer: l.Name}
	}
	return info
}

// Text is the KBInfo in one line: "knowledge base dated 2026-11-30
// (version …): embedded 2026-11-30 (…), downloaded 2026-12-05 (serial 6, …)".
func (i *KBInfo) Text() string {
	var parts []string
	for _, l := range i.Layers {
		date := l.Date
		if date == "" {
			date = "undated"
		}
		var what []string
		if l.Serial != 0 {
			what = append(what, fmt.Sprintf("serial %d", l.Serial))
		}
		what = append(what, "version "+l.Version)
		switch {
		case l.Superseded:
			what = append(what, "replaced by a whole knowledge base above it")
		case l.Full:
			what = append(what, "a whole knowledge base")
		}
		parts = append(parts, fmt.Sprintf("%s %s (%s)", l.Name, date, strings.Join(what, ", ")))
	}
	return fmt.Sprintf("knowledge base dated %s (version %s): %s", i.Date, i.Version, strings.Join(parts, "; "))
}
