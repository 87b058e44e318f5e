package resolver

import (
	"strings"
	"testing"
)

// TestHintsChannelAndExamples pins the hints the second corpus review (docs/corpus-review.md,
// 2026-11-30) found misleading: EG207 on the defaults channel, whose build
// strings changed at 2.5.1, and EG502 examples the file could not install.
func TestHintsChannelAndExamples(t *testing.T) {
	tests := []struct {
		name, src, code string
		msgHas, hintHas []string
		msgNot, hintNot []string
	}{
		{
			name: "defaults, unpinned pytorch: newest builds are gpu_cuda*",
			src:  "name: x\nchannels:\n  - defaults\n  - conda-forge\ndependencies:\n  - python=3.10\n  - pytorch\n",
			code: "EG207",
			// conda-forge beside: globs that match its names too (review
			// eighteen F38)
			hintHas: []string{"pytorch-gpu", "pytorch=*=*cuda*", "gpu_cuda…/cpu_…"},
			hintNot: []string{"pytorch=*=cuda* with"},
		},
		{
			// review 7 #250, #998: the defaults recipe writes gpu_cuda{XY}py…
			// from the 1.12.1 rebuild (AR_FEEDSTOCK 11f5b49), so 2.0's CUDA
			// builds are gpu_cuda*, and there is no metapackage before 2.5.1
			name:    "defaults, pytorch 2.0: gpu_cuda* builds, no metapackage",
			src:     "name: x\nchannels:\n  - defaults\n  - conda-forge\ndependencies:\n  - python=3.10\n  - pytorch=2.0\n",
			code:    "EG207",
			hintHas: []string{"pytorch=2.0=*cuda*", "pytorch=2.0=*cpu*", "defaults recipe's gpu_cuda…/cpu_… builds", "the file lists conda-forge beside defaults"},
			hintNot: []string{"pytorch-gpu", "=*=cuda*"},
			msgNot:  []string{"pytorch-cuda"},
		},
		{
			// review 9 #489 (corpus 071): defaults first, the pytorch
			// channel after it; whether defaults published 1.9 is not
			// known, so defaults' own globs could solve to nothing
			name:    "defaults first, pytorch 1.9 not known there: globs for every channel",
			src:     "name: x\nchannels:\n  - defaults\n  - pytorch\ndependencies:\n  - python=3.9\n  - pytorch=1.9\n  - cudatoolkit=11.1\n",
			code:    "EG207",
			hintHas: []string{"pytorch=1.9=*cuda* for a CUDA build", "pytorch=1.9=*cpu* for a CPU one", "whether the defaults channel published pytorch 1.9.1 is not known", "the pytorch channel's py…_cuda…"},
			hintNot: []string{"pytorch=*=cuda* for"},
		},
		{
			name:    "defaults, pytorch 1.10: cuda* builds",
			src:     "name: x\nchannels:\n  - defaults\ndependencies:\n  - python=3.9\n  - pytorch=1.10\n",
			code:    "EG207",
			hintHas: []string{"pytorch=1.10=cuda* for a CUDA build", "from pytorch 1.2.0 until 1.12.1, which changed the names"},
			hintNot: []string{"gpu_cuda"},
		},
		{
			// review 7 #250 (corpus 038): pytorch-cuda is the pytorch
			// channel's selector; defaults, listed first, serves pytorch
			name:    "defaults first, pytorch-cuda beside: the message says why it pins nothing",
			src:     "name: x\nchannels:\n  - defaults\n  - pytorch\n  - nvidia\ndependencies:\n  - python=3.10\n  - pytorch=2.0\n  - pytorch-cuda=11.8\n",
			code:    "EG207",
			msgHas:  []string{"pytorch-cuda=11.8 (line 9) selects the build of the pytorch channel's pytorch only", "with defaults listed first"},
			hintHas: []string{"pytorch=2.0=*cuda*", "the file lists pytorch beside defaults"},
		},
		{
			name:    "conda-forge hint unchanged",
			src:     "name: x\nchannels:\n  - conda-forge\ndependencies:\n  - python=3.10\n  - pytorch=2.4.1\n",
			code:    "EG207",
			hintHas: []string{"pytorch=*=cuda* with cuda-version=X.Y"},
		},
		{
			name: "EG502 example respects the file's Python",
			src:  "name: x\nchannels:\n  - conda-forge\ndependencies:\n  - python=3.8\n  - pytorch\n",
			code: "EG502",
			// conda-forge built 2.4.1 for Python 3.9 … 3.13 only
			// (torch_python_builds); 2.4.0 still for 3.8
			hintHas: []string{"e.g. pytorch=2.4.0"},
		},
		{
			name: "EG502 example without a Python pin is the newest conda-forge release",
			src:  "name: x\nchannels:\n  - conda-forge\ndependencies:\n  - pytorch\n",
			code: "EG502",
			// conda-forge's newest known build (2.13.0), not the torch
			// table's newest release (2.14.0), which no conda-forge row has
			hintHas: []string{"e.g. pytorch=2.13.0"},
		},
		{
			name:    "EG502 open spec on the pytorch channel names only what the channel published",
			src:     "name: x\nchannels:\n  - pytorch\ndependencies:\n  - pytorch>=1.9\n  - pytorch-cuda>=11.6\n",
			code:    "EG502",
			msgHas:  []string{"admits 1.9.0 … 2.5.1"},
			hintHas: []string{"e.g. pytorch=2.5.1"},
			msgNot:  []string{"2.14.0"},
		},
		{
			name:    "EG502 open spec narrowed by Python",
			src:     "name: x\nchannels:\n  - pytorch\ndependencies:\n  - python=3.7\n  - pytorch>=1.9\n",
			code:    "EG502",
			hintHas: []string{"e.g. pytorch=1.13.1"},
		},
		{
			// review 3 #1073 (corpus 182): pytorch-cuda 11.7 exists for 1.13
			// and 2.0 only, so 2.5.1 made the file unsolvable
			name:    "EG502 example has the variant the file's pytorch-cuda selects",
			src:     "name: x\nchannels:\n  - pytorch\n  - nvidia\ndependencies:\n  - python\n  - pytorch\n  - pytorch-cuda=11.7\n",
			code:    "EG502",
			hintHas: []string{"e.g. pytorch=2.0.1"},
			hintNot: []string{"2.5.1"},
		},
		{
			name:    "EG502 example beside pytorch-cuda and cudatoolkit of one CUDA",
			src:     "name: x\nchannels:\n  - pytorch\n  - nvidia\ndependencies:\n  - pytorch\n  - pytorch-cuda=11.7\n  - cudatoolkit=11.7\n",
			code:    "EG502",
			hintHas: []string{"e.g. pytorch=2.0.1"},
		},
		{
			// cudatoolkit selects the pytorch channel's variant up to 1.12
			name:    "EG502 example has the variant the file's cudatoolkit selects",
			src:     "name: x\nchannels:\n  - conda-forge\ndependencies:\n  - pytorch::pytorch\n  - cudatoolkit=11.3\n",
			code:    "EG502",
			hintHas: []string{"e.g. pytorch::pytorch=1.12.1"},
		},
		{
			// review 3 #822 (corpus 126): =1.6 admits one release; the
			// missing name is the open variant's doing, not the version's
			name:    "EG502 on a series with one release, no name",
			src:     "name: x\nchannels:\n  - defaults\ndependencies:\n  - python=3.7\n  - pytorch=1.6\n",
			code:    "EG502",
			msgHas:  []string{"admits only 1.6.0, which it installs today, but a 1.6.x published later would be installed instead"},
			msgNot:  []string{"canonical name", "not reproducible"},
			hintHas: []string{"e.g. pytorch=1.6.0"},
		},
		{
			name:   "EG502 on a series with one release, named",
			src:    "name: x\nchannels:\n  - pytorch\ndependencies:\n  - python=3.7\n  - pytorch=1.6\n  - cudatoolkit=10.2\n",
			code:   "EG502",
			msgHas: []string{"admits only 1.6.0", "(its canonical name pt16_cu102 does not depend on it)"},
		},
		{
			// conda-forge never built 2.0.1 (torch-conda-forge.yaml)
			name:   "EG502 on a series with one release on its channel",
			src:    "name: x\nchannels:\n  - conda-forge\ndependencies:\n  - python=3.9\n  - pytorch=2.0\n",
			code:   "EG502",
			msgHas: []string{"of the releases the knowledge base lists for conda-forge it admits only 2.0.0"},
		},
		{
			// conda's MatchSpec drops '==' before a glob: ==2.3.* is 2.3.*
			// (corpus 102), not == 2.3
			name:    "EG502 conda ==X.Y.* admits the series",
			src:     "name: x\nchannels:\n  - pytorch\ndependencies:\n  - pytorch::pytorch==2.3.*\n  - pytorch::pytorch-cuda=11.8\n",
			code:    "EG502",
			msgHas:  []string{"(admits 2.3.0 … 2.3.1)"},
			msgNot:  []string{"admits only"},
			hintHas: []string{"e.g. pytorch::pytorch=2.3.1"},
		},
		{
			// a series spec whose name is missing for another reason (the
			// variant) does not blame the version for it
			name:   "EG502 series of two releases, variant open",
			src:    "name: x\nchannels:\n  - pytorch\ndependencies:\n  - pytorch=1.13\n",
			code:   "EG502",
			msgHas: []string{"(admits 1.13.0 … 1.13.1): the environment is not reproducible"},
			msgNot: []string{"canonical name"},
		},
		{
			// review 4 #310 (corpus 046): the range counts every listed
			// channel whose releases the knowledge base lists, and names
			// the ones whose releases it does not list
			name:   "EG502 beside a channel the knowledge base does not know",
			src:    "name: x\nchannels:\n  - conda-forge\n  - soumith\ndependencies:\n  - pytorch>=0.2.0\n",
			code:   "EG502",
			msgHas: []string{"(admits 1.6.0 … ", " on conda-forge; the knowledge base lists no pytorch releases for soumith, so which it adds is unknown; it also admits releases before 1.0.0, which the knowledge base does not list)"},
		},
		{
			name:   "EG502 over two channels with releases, nvidia left out",
			src:    "name: x\nchannels:\n  - pytorch\n  - nvidia\n  - conda-forge\ndependencies:\n  - pytorch>=1.8.1\n",
			code:   "EG502",
			msgHas: []string{"(admits 1.8.1 … 2.5.1 on pytorch, 1.9.0 … "},
			msgNot: []string{"nvidia", "unknown"},
		},
		{
			// defaults' releases are listed (conda_releases), completely
			// only from 2.0 (review eleven #513, corpus 060)
			name:   "EG502 beside defaults",
			src:    "name: x\nchannels:\n  - defaults\n  - pytorch\ndependencies:\n  - pytorch<=2.0.1\n",
			code:   "EG502",
			msgHas: []string{"(admits 1.0.1 … 2.0.1 on defaults as far as the knowledge base's list of its releases settles them, 1.0.0 … 2.0.1 on pytorch; it also admits releases before 1.0.0, which the knowledge base does not list)"},
			msgNot: []string{"lists no pytorch releases for defaults"},
		},
		{
			// the example is a release defaults' list shows it published
			// (review twelve #829, corpus 100: 2.14.0 was offered)
			name:    "EG502 example on defaults",
			src:     "name: x\nchannels:\n  - defaults\n  - pytorch\ndependencies:\n  - python=3.10\n  - pytorch\n",
			code:    "EG502",
			hintHas: []string{"e.g. pytorch=2.12.0"},
			hintNot: []string{"2.14.0", "2.13.0"},
		},
		{
			// within the list's complete span, no qualification
			name:   "EG502 beside defaults, complete span",
			src:    "name: x\nchannels:\n  - defaults\n  - conda-forge\ndependencies:\n  - pytorch>=2.1,<2.4\n",
			code:   "EG502",
			msgHas: []string{" on defaults, ", "2.1.0 … 2.3.1 on defaults"},
			msgNot: []string{"as far as the knowledge base", "lists no pytorch releases for defaults"},
		},
		{
			// a channel written with the item is the only one it comes from
			name:   "EG502 with the channel written in the item",
			src:    "name: x\nchannels:\n  - conda-forge\n  - soumith\ndependencies:\n  - pytorch::pytorch>=1.8.1\n",
			code:   "EG502",
			msgHas: []string{"(admits 1.8.1 … 2.5.1)"},
			msgNot: []string{"soumith", "conda-forge"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, ds := lintFile(t, "env.yml", []byte(tt.src))
			found := false
			for _, d := range ds {
				if d.Code != tt.code {
					continue
				}
				found = true
				for _, s := range tt.msgHas {
					if !strings.Contains(d.Message, s) {
						t.Errorf("message %q lacks %q", d.Message, s)
					}
				}
				for _, s := range tt.msgNot {
					if strings.Contains(d.Message, s) {
						t.Errorf("message %q still says %q", d.Message, s)
					}
				}
				for _, s := range tt.hintHas {
					if !strings.Contains(d.Hint, s) {
						t.Errorf("hint %q lacks %q", d.Hint, s)
					}
				}
				for _, s := range tt.hintNot {
					if strings.Contains(d.Hint, s) {
						t.Errorf("hint %q still says %q", d.Hint, s)
					}
				}
			}
			if !found {
				t.Fatalf("no %s finding in %v", tt.code, ds)
			}
		})
	}
}
