package gpucheck

import (
	"fmt"

	"github.com/envguard/envguard/resolver/kb"
)

// tfCUDAUnloadable judges a pip TensorFlow whose file provides a CUDA
// runtime it cannot load (resolver.Framework.CUDAUnloadable: TF 2.1, built
// with CUDA 10.1, beside cudatoolkit 10.0). TensorFlow then uses the GPU
// only if it finds its own CUDA's libraries outside the environment at run
// time, and runs on the CPU otherwise, as with no CUDA libraries in the
// file (runEG409): whether a GPU is used is not known. A GPU its known
// architecture list cannot serve is EG403 either way: with the libraries
// it has no code for it, without them it runs on the CPU.
func (c *checker) tfCUDAUnloadable() {
	fw := c.st.Framework
	list, ok := c.k.FrameworkArch(fw.Name, fw.Version, fw.BuildCUDA, kb.DistPyPI)
	known := ok && list != nil && list.Known && !list.PTXOpen() && fw.ArchFor(list)
	open := false
	c.eachCC(func(gcc cc, gs []GPU) {
		if known {
			if v, _ := archVerdict(gcc, list); v == runsNone {
				c.noKernel(fmt.Sprintf("%s (%s)", fwName(fw), archSummary(list)), gs, gcc,
					"use a TensorFlow release whose wheels target this architecture, or a newer GPU")
				return
			}
		}
		open = true
	})
	if !open {
		return
	}
	c.undecide(c.fwPos(), "variant", "cuda-libraries-unloadable", c.build(),
		fmt.Sprintf("%s, so it uses the GPU only if it finds CUDA %s libraries outside the environment at run time, and runs on the CPU otherwise",
			fw.CUDAUnloadable, fw.BuildCUDA),
		fmt.Sprintf("give it the CUDA %s libraries it loads (EG208 names the line to change), or use a TensorFlow release tested with the CUDA the file provides", fw.BuildCUDA))
}
