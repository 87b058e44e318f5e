package resolver

import (
	"strings"

	"github.com/envguard/envguard/envspec"
	"github.com/envguard/envguard/resolver/kb"
)

// channelNames are the names of env's channels: entries, in order.
func channelNames(env *envspec.Env) []string {
	out := make([]string, len(env.Channels))
	for i, c := range env.Channels {
		out[i] = channelName(c.Value)
	}
	return out
}

// Channel priority. A package comes from the channel written before `::`
// when there is one; otherwise from the first channel in `channels:` that
// publishes a package of that name (strict channel priority, which conda-forge
// recommends and which flexible priority also follows whenever the first
// channel can satisfy the spec). Whether a channel publishes a name is
// decided by publishes below; unknown channels are assumed not to publish the
// framework and CUDA packages this resolver looks at.

// resolveChannel returns the channel a conda package comes from and how that
// was decided: the sentence, or firstChannel when it was the first of
// channels (the names of env's channels:) that publishes the name.
func resolveChannel(channels []string, name, explicit string) (channel, how string, firstChannel bool) {
	if explicit != "" {
		return channelName(explicit), "written as " + explicit + "::", false
	}
	for _, n := range channels {
		if publishes(n, name) {
			return n, "", true
		}
	}
	return "", "", false
}

// channelName reduces a channel URL or label path to its name:
// https://conda.example/pytorch/label/nightly → pytorch.
func channelName(c string) string {
	n := envspec.SourceChannel(c)
	switch n {
	case "main", "anaconda", "pkgs", "r", "msys2":
		// anaconda.org's "anaconda" channel and the bare member names
		// serve the defaults packages
		return "defaults"
	}
	return n
}

// pytorchChannelOnly are packages only the pytorch channel publishes (the
// mutex and selectors of its build variants).
var pytorchChannelOnly = map[string]bool{"pytorch-cuda": true, "pytorch-mutex": true, "cpuonly": true}

// rapidsaiPackages are the RAPIDS packages the rapidsai channel publishes
// that the knowledge base has rows of, with their companions.
var rapidsaiPackages = map[string]bool{
	"cudf": true, "libcudf": true, "dask-cudf": true, "rmm": true, "librmm": true,
	"nvstrings": true, "libnvstrings": true, "cuml": true, "libcuml": true, "libcumlprims": true,
	"cugraph": true, "libcugraph": true, "pylibcugraph": true,
	"libraft": true, "libraft-headers": true, "libraft-distance": true, "libraft-nn": true,
	"pylibraft": true, "raft-dask": true, "pyraft": true, "cucim": true, "libcucim": true,
}

// publishes says whether a channel publishes a package name.
func publishes(channel, name string) bool {
	pub, _ := publishesKnown(channel, name)
	return pub
}

// publishesKnown is publishes, and whether the channel is one it knows:
// for any other channel it says false without knowing.
func publishesKnown(channel, name string) (pub, known bool) {
	switch channel {
	case "pytorch", "pytorch-nightly", "pytorch-test":
		switch name {
		case "pytorch", "torchvision", "torchaudio", "torchtext", "torchdata", "torchtriton",
			"pytorch-cpu", "torchvision-cpu", // the CPU builds before 1.2
			"pytorch-cuda", "pytorch-mutex", "cpuonly", "magma-cuda110", "magma-cuda113", "magma-cuda116", "magma-cuda117", "magma-cuda118", "magma-cuda121",
			// faiss's own conda packages (its CI uploads them with --user pytorch)
			"faiss", "faiss-cpu", "faiss-gpu", "libfaiss", "libfaiss-avx2":
			return true, true
		}
		return false, true
	case "xformers":
		// xformers' own conda channel (its conda workflow uploads with --user xformers)
		return name == "xformers", true
	case "nvidia":
		return name == "cudatoolkit" || strings.HasPrefix(name, "cuda-") || strings.HasPrefix(name, "libcu") ||
			strings.HasPrefix(name, "libnv") || strings.HasPrefix(name, "libnpp") || name == "cudnn" || name == "nccl", true
	case "pyg":
		// PyG's channel: torch_geometric and its extensions, named as the
		// projects' conda/ recipes name them
		switch name {
		case "pyg", "pytorch-scatter", "pytorch-sparse", "pytorch-cluster", "pytorch-spline-conv":
			return true, true
		}
		return false, true
	case "pytorch3d":
		// PyTorch3D's channel (INSTALL.md: conda install pytorch3d -c pytorch3d)
		return name == "pytorch3d", true
	case "dglteam":
		// DGL's channel: dgl (CPU) and one dgl-cudaX.Y per toolkit
		return name == "dgl" || strings.HasPrefix(name, "dgl-cuda"), true
	case "rapidsai":
		// RAPIDS's own channel: its libraries' conda packages (the
		// install guides' `conda install -c rapidsai … cudf`).
		return rapidsaiPackages[name], true
	case "conda-forge", "defaults":
		return !pytorchChannelOnly[name], true
	}
	return false, false
}

// distribution maps a framework's channel to the knowledge base's
// distribution.
func distribution(channel string) kb.Distribution {
	switch channel {
	case "pytorch", "pytorch-nightly", "pytorch-test":
		return kb.DistPytorchConda
	case "conda-forge":
		return kb.DistCondaForge
	case "defaults":
		return kb.DistDefaults
	}
	return ""
}

// wheelIndex reports whether a pip option points at a PyTorch wheel index.
func (r *resolution) wheelIndex() bool {
	for _, d := range r.env.Pip {
		if o := pipOpt(d); o != nil && isIndexOption(o.Name) && strings.Contains(strings.ToLower(o.Value), "/whl") && !extensionIndex(r.kb, o.Value) {
			return true
		}
	}
	return false
}

func pipOpt(d *envspec.PipDep) *envspec.PipOption {
	if d.Line == nil {
		return nil
	}
	return d.Line.Option
}

func isIndexOption(name string) bool {
	switch name {
	case "--index-url", "--extra-index-url", "-i", "--find-links", "-f":
		return true
	}
	return false
}
