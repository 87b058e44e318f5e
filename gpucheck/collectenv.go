package gpucheck

import (
	"fmt"
	"strings"

	"github.com/envguard/envguard/lockfile"
	"github.com/envguard/envguard/resolver/kb"
)

// CollectEnvTargetName names the machine a collect_env output describes.
const CollectEnvTargetName = "reported"

// CollectEnvHost is the machine collect_env ran on (ce, as
// lockfile.ParseCollectEnv read it), as a Host: its NVIDIA
// driver and GPU models. ok is false when the output has neither (collect_env
// prints "Could not collect" where it could not read them); notes say what
// was left out (a GPU model the knowledge base cannot name).
func CollectEnvHost(ce *lockfile.CollectEnv, k *kb.KB) (h *Host, notes []string, ok bool) {
	file := ce.File
	if ce.Driver.Value == "" && ce.DriverCUDA.Value == "" && len(ce.GPUs) == 0 {
		return nil, []string{fmt.Sprintf("%s: collect_env could not read this machine's driver or GPUs (\"Could not collect\"), so the environment is judged against no machine of its own; give --target", file)}, false
	}
	if ce.Driver.Value == "" && ce.DriverCUDA.Value == "" {
		// GPUs without a driver are no machine envguard can judge: a
		// missing line is not a missing driver.
		return nil, []string{fmt.Sprintf("%s: the output has no \"Nvidia driver version\" line (or it could not be collected), so the machine is not judged; give --target", file)}, false
	}
	t := Target{Name: CollectEnvTargetName, Pos: ce.Torch.Pos}
	if ce.Driver.Value == "" {
		t.CUDADriver, t.Pos = ce.DriverCUDA.Value, ce.DriverCUDA.Pos
	} else {
		if !reDriver().MatchString(ce.Driver.Value) {
			return nil, []string{fmt.Sprintf("%s:%d: Nvidia driver version %q is not a driver version; the machine is not judged", file, ce.Driver.Pos.Line, ce.Driver.Value)}, false
		}
		t.Driver = ce.Driver.Value
		t.Pos = ce.Driver.Pos
	}
	for _, g := range ce.GPUs {
		if _, found := k.GPUByName(g.Value); found {
			t.GPUs = append(t.GPUs, g.Value)
			t.gpuPos = append(t.gpuPos, g.Pos)
			continue
		}
		// A model the table does not have (or names ambiguously) is left
		// out by name; the architecture checks then cover the others only.
		notes = append(notes, fmt.Sprintf("%s:%d: GPU %q is not in the knowledge base's GPU table: its architecture is not checked", file, g.Pos.Line, g.Value))
	}
	h, err := t.host(k)
	if err != nil {
		notes = append(notes, strings.Split(err.Error(), "\n")...)
	}
	h.Source = SourceCollectEnv
	return h, notes, true
}
