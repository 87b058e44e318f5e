package report

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/envguard/envguard/internal/testshared"
)

// TestCorpusCandidateSets: real files of the corpus that leave the release
// open beside a CUDA pin (issue 26, root causes 1 and 2) are decided over
// the builds they admit, or left unknown with those builds named; never
// read as a build the pin cannot select.
func TestCorpusCandidateSets(t *testing.T) {
	dir := testshared.Dir(t, "corpus/realworld")
	hosts, err := (&Machines{Targets: StandardFleet()}).Resolve([]string{"k80", "a100", "h100", "rtx5090"})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		file string
		want map[string]string // target → verdict
		// text each target's findings must hold, and must not
		has, hasNot []string
		// codes no finding of the file may carry
		noCode []string
	}{
		// pytorch-cuda=12.1 and an open pytorch: every release built for
		// it has SASS up to sm_90 and no PTX.
		{"051.yml", map[string]string{"a100": "ok", "h100": "ok", "rtx5090": "fail"}, []string{"EG403"}, nil, nil},
		// 057 also installs PyG's conda packages (pytorch-scatter …, from
		// the pyg channel) with their release open: every CUDA 12 build
		// the pyg channel published carries SASS sm_50 … sm_90 and
		// compute_50 PTX (channel_build_code), so the A100 and the H100
		// are decided by them too (review forty-three F41; before, unknown
		// for them alone). Its python=3.12 admits no 2.1.x build (2.1 was
		// built for Python 3.8 … 3.11): 9 builds, 2.2.0 … 2.4.1 (review
		// ten #440, #442).
		{"057.yml", map[string]string{"a100": "ok", "h100": "ok", "rtx5090": "fail"},
			// The K80's hint keeps Python 3.12: 2.3.1's pytorch-cuda=11.8
			// build has it (experimental minors have builds) and SASS sm_37.
			[]string{"EG403", "9 of the 9 builds the file admits", "pytorch=2.3.1 with pytorch-cuda=11.8", "EG408 pytorch-cluster (SASS sm_50 sm_60 sm_70 sm_75 sm_80 sm_86 sm_90, PTX compute_50)"},
			[]string{"undecided architecture", "undecided variant", "undecided release", "pytorch 2.1.0 CUDA 12.1", "pytorch 2.1.2 CUDA 12.1", "the Python pin must go down"}, nil},
		// 044: an open tensorflow-gpu beside python=3.7 on defaults admits
		// 1.13.1 … 2.4.1 only (no earlier release was built for Python
		// 3.7), every build with CUDA 9.0 … 10.1, which a CUDA 11.4 driver
		// runs, and a cuDNN 7, which no Ampere or Hopper GPU runs. On a
		// K80 1.13.1's CUDA 10.0 build, whose list its recipe left to
		// configure.py, keeps it open (review forty-three F33).
		{"044.yml", map[string]string{"k80": "unknown", "a100": "fail", "h100": "fail"},
			[]string{"every defaults tensorflow-gpu build the file admits (1.13.1 … 2.4.1) was built with cuDNN 7", "the defaults channel built the tensorflow releases the file admits (1.13.1 … 2.4.1) with CUDA 9.0, 9.2, 10.0 or 10.1"},
			[]string{"its CUDA runtime version is not known"}, nil},
		// 003: tensorflow-gpu>=2.0 beside cudatoolkit 10.1 admits the
		// defaults builds of 2.0.0 … 2.4.1 for CUDA 10.1, whose lists
		// differ but all carry 3.5 … 7.5 as X.Y entries: the K80 runs its
		// sm_35 SASS (review forty-one F2). The open pytorch keeps the
		// target unknown.
		{"003.yml", map[string]string{"k80": "unknown", "a100": "fail"},
			[]string{"every defaults tensorflow-gpu build the file admits (2.0.0 … 2.4.1) was built with cuDNN 7"},
			[]string{"could not check tensorflow >=2.0 (CUDA 10.1, defaults, conda-forge never built tensorflow-gpu >=2.0 (2.0.0 … 2.21.0) for cudatoolkit<10.2,>10.0) against target k80"}, nil},
		// 048: pytorch-cuda open, so every CUDA the pyg channel built its
		// extensions for is admitted. Every one of those builds carries
		// compute_50 PTX and the CUDA 12 ones SASS sm_90, so they run on
		// an H100 whichever is installed, while on a K80 the CUDA 10 and
		// 11 builds (sm_35) run and the CUDA 12 ones do not (review
		// forty-three F41). pytorch-cuda's builds (1.13 … 2.5) are judged
		// one by one (review fifty-seven F14); the K80 and the H100 stay
		// unknown on them.
		{"048.yml", map[string]string{"k80": "unknown", "h100": "unknown"},
			[]string{"the builds the file admits differ on sm_37 (target k80's GPU 0 (Tesla K80, compute capability 3.7)): pytorch-cluster (the pyg channel's CUDA 12.x builds, 2021-06 to 2025-04) (SASS sm_50"},
			[]string{"could not check pytorch-cluster against target h100", "the release of pytorch-cluster is left to the solver"}, nil},
		// pytorch-gpu=2.9 on conda-forge is 2.9.1 alone, built for CUDA
		// 12.9 only: no 2.9.0 among the builds, and the hint does not ask
		// for a CUDA 12.8 runtime beside it (review ten #337).
		{"040.yml", map[string]string{"rtx5090": "ok"}, []string{"conda-forge built pytorch 2.9 for CUDA 12.9 only"},
			[]string{"pytorch 2.9.0", "or pin a CUDA 12 runtime the driver supports"}, nil},
		// pip tensorflow==2.13.*: 2.13.0 and 2.13.1 carry the series'
		// list (SASS sm_35 … sm_80, PTX compute_80), so the K80's and the
		// A100's architecture checks are decided (review ten #833). The
		// file's jax[cuda]>=0.4.13 is judged too, on a stack of its own:
		// without JAX's find-links page pip installs only releases of the
		// plugin era (0.4.30 on), whose cuda extra brings CUDA 12 wheels,
		// not conda's cudatoolkit 11.8 (review forty-eight F28). Each
		// carries sm_80 and sm_90 SASS and none Kepler code.
		{"110.yml", map[string]string{"k80": "fail", "a100": "ok", "rtx5090": "fail"}, []string{"EG408 tensorflow ==2.13.* (SASS sm_35", "EG401 driver 470.82.01 supports CUDA 11.4; this environment's CUDA 12 runtime", "fails with releases 0.4.30 up to 0.4.33 (their XLA compiles every program's kernels for a GPU newer than it knows with the sm_90a target"},
			[]string{"could not check tensorflow ==2.13.* (CUDA 11.8) against target a100: its exact release is not known", "jax >=0.4.13 (CUDA 11.8)", "releases 0.4.13 up to"}, nil},
		// PyG's source packages beside pip's torch 1.11 CUDA 10.2: on the
		// RTX 5090, where that torch runs no code, the hint is to change
		// torch first, not PyG's cu102 page (review eleven #1030).
		{"123.yml", map[string]string{"rtx5090": "fail"}, []string{"the file's pytorch 1.11.0 itself carries no code for sm_120 (EG403): change it first"}, nil, nil},
		// An open pytorch-channel pytorch on an RTX 5090: every CUDA build
		// it admits fails there, so the hint does not ask to pin one
		// (review eleven #408).
		{"050.yml", map[string]string{"rtx5090": "unknown"}, []string{"no build from the pytorch channel that the file admits runs on target rtx5090's GPUs"}, nil, nil},
		// pytorch-cuda=11.7: the A100 runs every admitted build.
		{"182.yml", map[string]string{"a100": "ok"}, nil, nil, nil},
		// cudatoolkit=11.3 beside an unpinned pytorch::pytorch: 1.13 and
		// later do not depend on cudatoolkit, so nothing conflicts with the
		// channel's newest release, 2.5.1, and the solver takes it in any
		// of its variants; the 1.10-1.12 CUDA 11.3 builds never come in.
		// Every 2.5.1 build runs on the H100 (its CPU build idles the GPU,
		// EG407), so h100 is ok; the K80 runs the CUDA 11.8 build only.
		{"001.yml", map[string]string{"k80": "unknown", "h100": "ok", "rtx5090": "unknown"}, []string{"pytorch 2.5.1 CUDA 11.8", "EG407 pytorch 2.5.1 is a CPU-only build"}, []string{"CUDA 11.3, pytorch-channel", "pytorch 1.12.1 CUDA 11.3"}, nil},
		// cudatoolkit=9 is 9.*: pytorch 1.1.0's CUDA 9.0 build, whose SASS
		// stops at sm_70. The K80 runs it; on an A100 or H100 it runs only
		// through PTX, where its CUDA 9.0 libraries must carry code too:
		// whether cuBLAS etc. do is not known, but the cuDNN it links is
		// 7.5.1 (its build string, MOI90_BUILDS), which has no Ampere or
		// Hopper code and is not hardware forward compatible, so both fail.
		// cudatoolkit=9 admits that one build, so nothing is left to the
		// solver (review #1076/#1077): the build's own finding says what
		// is open, with no pytorch-cuda/cpuonly hint (neither existed for
		// 1.1).
		{"183.yml", map[string]string{"k80": "ok", "a100": "fail", "h100": "fail"}, []string{"pytorch 1.1.0 (CUDA 9.0, pytorch-channel)", "the CUDA 9.0 libraries have no code of their own for sm_90 (CUDA 9.0's compiler targets nothing above sm_70), and whether PTX in them serves it is not known", "cudnn 7.5.1 (loaded by torch 1.1.0) carries no code for sm_90", "no cudnn release through 7.6.5 carries code of its own for sm_80"}, []string{"leaves the build to the solver", "pytorch-cuda=X.Y", "cpuonly"}, nil},
		// cudatoolkit=10.2 with pytorch::pytorch=1.5: both admitted builds
		// reach sm_80 through PTX with CUDA 10.2 libraries of unknown code
		// (review #29), the same for each, not a choice left to the solver;
		// and both link cuDNN 7.6.5 (cuda10.2.89_cudnn7.6.5), which has no
		// Ampere or Blackwell code and is not forward compatible: both fail.
		{"005.yml", map[string]string{"k80": "ok", "a100": "fail", "rtx5090": "fail"}, []string{"2 of the 2 builds the file admits have an EG410 of their own", "cudnn 7.6.5 (loaded by torch 1.5.0) carries no code for sm_80", "cublas 10.2 has no code of its own for sm_80 (CUDA 10.2's compiler targets nothing above sm_75)"}, []string{"leaves the build to the solver", "pytorch-cuda=X.Y", "cpuonly"}, nil},
		// pytorch 1.3.1 from the defaults channel with no variant pin
		// (review #46): the hint is in the defaults channel's build strings.
		{"008.yml", map[string]string{"a100": "unknown"}, []string{"left to the solver", "pytorch=1.3.1=*cuda* for a CUDA build"}, []string{"pytorch-cuda=X.Y", "(or pip)", "gpu_cuda"}, nil},
		// pytorch<=0.3.0 (review #468): every conda build before 0.4.0 on
		// linux-64 is a CUDA build, so the variant is not open (no EG207)
		// and what is open is which CUDA.
		// On the K80 (sm_37) the architectures are decided by what every
		// build the file admits carries: 0.1.7 … 0.3.0 (python=3.6 admits
		// no 0.1.3 … 0.1.6 build, made for 2.7, 3.4 and 3.5 only) all
		// carry sm_35 SASS (BUILDER_ARCH_0X, AR_ARCH_0X); what stays open
		// is the cuDNN they load, whose Kepler code the knowledge base
		// knows from 7.5.0 only. The A100 (sm_80) has no common SASS:
		// its list stays unknown.
		{"083.yml", map[string]string{"a100": "unknown", "k80": "unknown"}, []string{"every conda build of pytorch before 0.4.0 on linux-64 is a CUDA build", "arch-list-unknown", "the driver runs every one of them",
			"carries sm_35 SASS, which runs on sm_37", "cuda-lib-arch-unknown", "which cudnn release it loads is not known"},
			[]string{"pytorch <=0.3.0 against target a100: whether the CPU or the CUDA build is installed is left to the solver", "the driver was not checked", "pytorch-cuda=X.Y", "cpuonly", "nor whether it runs on sm_37", "EG403"}, []string{"EG207"}},
		// pytorch=2.7.1 from the pytorch channel (review #894): no such
		// build, so no target's check reasons about its architectures.
		// conda cannot create the file (EG205): every target fails on it
		// (review forty-seven F25)
		{"146.yml", map[string]string{"k80": "fail", "rtx5090": "fail"}, []string{"uninstallable: the pytorch channel never published pytorch 2.7.1", "none for the CUDA 11.8 the file pins"}, []string{"architecture list is not known", "get_arch_list"}, nil},
		// jaxlib 0.4.29's XLA compiles for sm_90a on an RTX 5090 (review
		// forty-six F2)
		{"111.yml", map[string]string{"rtx5090": "fail", "h100": "ok"}, []string{"with the sm_90a target, whose PTX compiles for compute capability 9.0 only"}, []string{"XLA compiles the model's own kernels for the GPU at run time with its bundled LLVM and ptxas"}, nil},
		// openmm=7.7 admits conda-forge's one 7.7 release, 7.7.0, every
		// build of which has a row (review forty-four F30)
		{"034.yml", map[string]string{"a100": "unknown", "k80": "fail"}, []string{"openmm can run no kernel on target k80: it compiles them at run time with the NVRTC of CUDA 11.7"}, []string{"the release of openmm is left to the solver"}, nil},
		// onnxruntime-gpu 1.7.0 has no code for sm_90: the hint names the
		// first later release whose PTX reaches it (review forty-seven F37)
		{"147.yml", map[string]string{"h100": "fail"}, []string{"onnxruntime-gpu 1.9.0, a build for CUDA 11.4, is the oldest later release whose own kernels reach it (through PTX the driver JIT-compiles for sm_90)"}, nil, nil},
		// EG207's hint read the ignored selector's route twice (review
		// forty-seven F11)
		{"038.yml", nil, []string{"to use pytorch-cuda=11.8 (line 13), take pytorch from the pytorch channel"}, []string{"or drop it and to use", "to keep pytorch-cuda=11.8"}, nil},
		// _tflow_select is defaults' own: nodefaults alone leaves it
		// unsolvable (review forty-eight F32)
		{"118.yml", nil, []string{"_tflow_select=2.3.0 (line 7) is the defaults channel's TensorFlow variant selector, which only defaults publishes"}, []string{"replace `defaults` with `nodefaults`"}, nil},
		// the route to the pytorch channel cannot serve an RTX 5090: none
		// of its last release's CUDA builds runs there (review
		// forty-eight F4)
		{"014.yml", map[string]string{"rtx5090": "unknown"}, []string{"(but on target rtx5090 no CUDA build of the channel's last release, pytorch 2.5.1 (CUDA 11.8, 12.1, 12.4), runs: EG403"}, nil, nil},
		// cupy's builds carry PTX an RTX 5090 runs; NVRTC is why they
		// fail there, and the message says so (review forty-nine F11)
		{"073.yml", map[string]string{"rtx5090": "fail"}, []string{"cupy can run no code on target rtx5090's GPU 0 (GeForce RTX 5090, compute capability 12.0) whichever build the solver installs: its run-time compiled kernels fail in"}, []string{"no PTX at or below compute_120, in cupy"}, nil},
		// librmm 0.14.0 is host code: RAPIDS' Pascal floor is carried by
		// the packages with kernels (review forty-nine F43)
		{"185.yml", map[string]string{"k80": "fail"}, nil, []string{"librmm 0.14.0 needs compute capability"}, nil},
		// tensorflow-gpu 1.13.1 keeps defaults whatever pytorch does: no
		// conda-forge route is offered (review forty-nine F2)
		{"007.yml", nil, []string{"to end it drop conda-forge, once you know that defaults has every other package", "conda-forge never built tensorflow-gpu 1.13.1 (line 24) either"}, []string{"drop one of the two", "or move to a pytorch release conda-forge built"}, nil},
		// PyG's sdists import torch, which pip installs only after it
		// builds them: the run stops (review fifty F29)
		{"123.yml", map[string]string{"a100": "fail", "h100": "fail"}, []string{"uninstallable: pip cannot install torch-cluster==1.6.0 beside the torch it installs in the same run"}, nil, nil},
		// every CUDA cupy 12.3.0's builds run with runs on driver 550,
		// 12.5 and later through minor-version compatibility (review
		// fifty F2); cucim keeps the target open
		{"004.yml", map[string]string{"a100": "unknown"}, []string{"the GPU packages' builds the file admits run with CUDA 11.2 … 12.9, and a build for CUDA 12.5 … 12.9 runs only through minor-version compatibility"}, []string{"target a100: unknown\n  undecided driver"}, nil},
		// the pyg channel's CUDA 10 and 11 builds carry sm_35 SASS, which a
		// K80 runs (review fifty F12)
		{"057.yml", map[string]string{"k80": "fail"}, []string{"the pyg channel's builds of pytorch-cluster for CUDA 9.0 to below 11.0 (SASS sm_35"}, []string{"no release of pytorch-cluster can carry code for sm_37"}, nil},
		// the EG502 hint offers a release that exists where the line asks
		// (review fifty-one F21)
		{"096.yml", nil, []string{"no release this line admits exists there (EG205): pin a release that does, with all three parts, e.g. pytorch::pytorch=2.5.1"}, []string{"pin the exact release you run on line 10, with all three parts (pytorch::pytorch=X.Y.Z)"}, nil},
		// conda-forge's mkl begins at 2019.5 (review fifty-two F11)
		{"037.yml", nil, []string{"conda-forge never built mkl 2019.4.*, so conda-forge alone cannot install the file"}, []string{"replace `defaults` with `nodefaults`"}, nil},
		// TensorFlow 2.13 loads conda's cudatoolkit: EG302 does not offer
		// to drop it (review fifty-two F28)
		{"110.yml", nil, []string{"the conda CUDA packages stay: tensorflow==2.13.*, line 17, loads them"}, []string{"or drop the conda CUDA packages"}, nil},
		// an unpinned pytorch from the pytorch channel: its selectors
		// pick builds none of which runs on an RTX 5090 (review fifty-two
		// F40)
		{"161.yml", map[string]string{"rtx5090": "unknown"}, []string{"(but on target rtx5090 no CUDA build of the channel's last release, pytorch 2.5.1"}, nil, nil},
		// every torch release with a Python 3.12 wheel is a CUDA 12 or
		// newer build on the package index: R470 runs none (review
		// fifty-three F12, F13)
		{"033.yml", map[string]string{"k80": "fail"}, []string{"every release with a Python 3.12 wheel (2.2.0 … 2.14.0) is a package-index build for CUDA 12 or 13, whose major this driver cannot run"}, nil, nil},
		// the pip nvidia-* wheels serve the file's jax-cuda12-plugin:
		// EG303 does not offer to drop them (review fifty-four F20)
		{"042.yml", nil, []string{"jax-cuda12-plugin==0.4.28 (line 135) loads the nvidia-* wheels, not conda's libraries"}, []string{"keep one source of CUDA libraries: drop nvidia-cublas-cu12"}, nil},
		{"096.yml", map[string]string{"k80": "fail", "a100": "fail", "h100": "fail", "rtx5090": "fail"}, []string{"uninstallable: the pytorch channel published none of the releases pytorch::pytorch>=2.7.0 admits"}, []string{"could not check pytorch"}, nil},
		{"103.yml", map[string]string{"k80": "fail", "a100": "fail", "h100": "fail", "rtx5090": "fail"}, []string{"uninstallable: pip cannot install jaxlib==0.1.68+cuda111 as the file writes it"}, nil, nil},
		// cuda-toolkit=12 and jax[cuda12] beside a --find-links page that
		// names no CUDA version: the runtime is some 12.x, which a CUDA 11
		// driver cannot run; on a 12.x driver older than 12.9 it runs through
		// minor-version compatibility.
		// JAX's CUDA 12 wheels are documented to run from driver
		// 525.60.13, and XLA compiles with the pip ptxas, so no pin is
		// asked for (review thirty-eight F5: a runtime-wheel pin left the
		// newer cuBLAS and ptxas wheels in place).
		// cudf 22.10 (CUDA 11.x) on a K80: R470 runs any CUDA 11.x through
		// minor-version compatibility and no driver past it exists, so the
		// EG402 hint pins cuda-version only for PTX JIT, and names no
		// framework the file lacks (review thirty-eight F3).
		{"009.yml", map[string]string{"k80": "fail"}, []string{"EG410 cudf 22.10.* needs compute capability 6.0", "any CUDA 11.x runtime runs on it through minor-version compatibility", "only for PTX JIT or newer CUDA APIs pin cuda-version=11.4"}, []string{"framework release"}, nil},
		// pytorch 1.3.1 from defaults beside cudnn 7.6.4: conda-forge built
		// neither, and the EG108 hint names the framework first, then the
		// library (review thirty-eight F29).
		{"112.yml", nil, []string{"conda-forge never built pytorch 1.3.1 (line 150)", "conda-forge never built cudnn 7.6.4 either"}, nil, nil},
		// jax[cuda12] on a K80: a CUDA 11 jax is not enough, its jaxlib
		// must still carry Kepler code, which 0.4.4 dropped (review
		// thirty-eight F31).
		{"111.yml", map[string]string{"k80": "fail"}, []string{"install a jax release built for CUDA 11.4 or older whose jaxlib still carries code for sm_37: a release before 0.4.4"}, nil, nil},
		// conda-forge's pytorch 2.4.1 CUDA 12.0 build requires only
		// cuda-version >=12.0,<13: its libraries are any 12.x, of which
		// 12.8 on carry sm_120 code, and every 12.x carries sm_90's
		// (review thirty-nine F34).
		{"117.yml", map[string]string{"rtx5090": "unknown"}, []string{"the CUDA libraries are whichever 12.x release from 12.0 to 12.9 the solver installs (cuda-version >=12.0,<13): from CUDA 12.8 on they carry code for sm_120", "runs with pytorch 2.4.1 CUDA 12.0"}, nil, nil},
		// tensorflow-gpu=1.13.1 from defaults, built with CUDA 9.0, 9.2 and
		// 10.0: the driver runs each, and on an A100 each build's PTX runs
		// (review thirty-nine F5).
		{"007.yml", nil, []string{"EG408 tensorflow 1.13.1", "it was built with CUDA 9.0, 9.2 or 10.0, whose compilers target nothing above sm_75"}, []string{"its CUDA runtime version is not known, so the driver was not checked"}, nil},
		// conda-forge's torchvision 0.16.1 requires a pytorch build named
		// cuda…/cpu…, which the pytorch channel's pytorch 2.1.1 is not:
		// torchvision comes from the pytorch channel too, no EG209
		// (review thirty-nine F37).
		{"127.yml", nil, nil, nil, []string{"EG209"}},
		// transformer-engine 2.2.0+c55e425, a local build: every build of
		// 2.2 is made with CUDA 12.0 or newer (its CMake refuses older), so
		// none carries code for a K80 (review thirty-nine F27).
		{"092.yml", map[string]string{"k80": "fail"}, []string{"every build of transformer-engine 2.2.0 is made with CUDA 12.0 or newer (its build refuses an older toolkit), and no CUDA 12 compiler targets anything below sm_50"}, nil, nil},
		// torch=2.0.1 as a conda line beside defaults: PackagesNotFoundError,
		// so conda creates nothing; the targets are open on a file to fix
		// (review thirty-nine F40, F41).
		{"166.yml", map[string]string{"k80": "fail", "h100": "fail"}, []string{"uninstallable: torch=2.0.1 (line 184) names the package by its PyPI name", "so conda stops with PackagesNotFoundError"}, nil, nil},
		// pip TensorFlow 2.8 beside the conda cudatoolkit=11.3.1 the
		// pytorch build pins: the file does provide CUDA, which a pip
		// TensorFlow finds only on LD_LIBRARY_PATH (review forty F37).
		{"158.yml", nil, []string{"the file's CUDA 11.3 (cudatoolkit=11.3.1=h2bc3f7f_2, line 28) serves it only where $CONDA_PREFIX/lib is on LD_LIBRARY_PATH"}, []string{"and the file provides none"}, nil},
		// pytorch-cuda=11.8 with an open release on an RTX 5090: no build
		// the file admits has sm_120, and the hint names the first that does
		// and that the pytorch channel has none (review forty F13).
		{"049.yml", nil, []string{"the first with it is pytorch 2.7.0's CUDA 12.8 build (the PyTorch wheel index), and the pytorch channel has none"}, nil, nil},
		// a macOS export: --no-builds is a way there, the Windows-only
		// packages caveat is Windows' (review forty-one F37)
		{"150.yml", nil, []string{"or export with --no-builds, which keeps every package but drops the builds"}, []string{"Windows-only packages"}, nil},
		// tensorflow-gpu>=2.0 on defaults: its linux tensorflow-gpu ends at
		// 2.4.1, so every build the spec admits lists X.Y entries, each
		// SASS and PTX, and all carry 3.5 … 7.5: an A100 runs the
		// compute_75 PTX every one has (review forty-one F2, forty-two F1;
		// thirty-eight F1).
		{"003.yml", nil, []string{"EG408 tensorflow >=2.0 (SASS sm_35 sm_52 sm_60 sm_61 sm_70 sm_75, PTX compute_35 compute_52 compute_60 compute_61 compute_70 compute_75) has no SASS for sm_80", "but carries compute_75 PTX"}, []string{"it runs only if the build carries PTX, which is not known"}, nil},
		// tensorflow-gpu=1.13.1 on defaults: built for CUDA 9.0, 9.2 and
		// 10.0; the 9.x builds' lists are known, the 10.0 one's is not, and
		// a cudatoolkit pin picks the build, not a feature package (review
		// forty-four F44)
		{"007.yml", map[string]string{"k80": "unknown"}, []string{"(the knowledge base has the lists of the builds for CUDA 9.0 and 9.2, not of the one for CUDA 10.0)", "cudatoolkit=9.0 or cudatoolkit=9.2, whose build's architecture list envguard knows"}, []string{"feature packages (cuda80"}, nil},
		// an export whose torch and ~150 other packages are pip's: the
		// --from-history route keeps them only if the pip: section is
		// copied over (review forty-four F5)
		{"020.yml", nil, []string{"export again with `conda env export --from-history` and copy this file's pip: section into it (--from-history leaves pip packages out, conda/conda#9628)"}, nil, nil},
		// pytorch-cuda=11.8 selects the pytorch channel's builds only,
		// while defaults, listed first, serves pytorch: the example is a
		// pytorch-channel release with a CUDA 11.8 build, written with its
		// channel (review forty-four F31)
		{"164.yml", nil, []string{"e.g. pytorch::pytorch=2.5.1, a release the pytorch channel built for pytorch-cuda=11.8 (line 18)"}, []string{"e.g. pytorch=2.12.0"}, nil},
		// an open pip torch beside python=3.12 on a K80: the release the
		// hint offers has a Python 3.12 wheel (review forty-five F10)
		{"033.yml", map[string]string{"k80": "fail"}, []string{"no release the package index serves as a build this driver runs has a Python 3.12 wheel: install torch==2.3.1+cu118"}, []string{"torch==2.0.1"}, nil},
		// cpuonly and intel-extension-for-pytorch beside pip's torch 2.1.0,
		// the CUDA 12.1 wheel: the K80's EG401 also offers the CPU wheel
		// the file meant (review forty-five F11)
		{"149.yml", map[string]string{"k80": "fail"}, []string{"or, for the CPU build the file's cpuonly (line 7) asks for, torch==2.1.0+cpu from the PyTorch wheel index"}, nil, nil},
		// torchvision==0.17.2+cu121 beside torch==2.7.0 and no index: the
		// index alone does not make it install, as 0.17.2 pairs with torch
		// 2.2.2 (review forty-six F38)
		{"016.yml", nil, []string{"add --extra-index-url …/whl/cu121 (the PyTorch wheel index) as the first line of the pip section; that alone does not make it install: torchvision 0.17.2 is built for another torch release than the file's torch 2.7.0, which pairs with torchvision 0.22.0 (EG203)"}, nil, nil},
		// a nightly pin: conda-forge built the 1.11 releases only, so the
		// hint does not wait to learn whether it has the nightly (review
		// forty-three F21)
		{"158.yml", nil, []string{"conda-forge never built pytorch 1.11.0.dev20220131 (line 98), a development build (its pytorch 1.11 releases are 1.11.0)"}, []string{"once you know it has pytorch 1.11.0.dev20220131"}, nil},
		// a Linux-only export of another platform with no pip: section:
		// the hint asks to copy none (review forty-two F42)
		{"159.yml", nil, nil, []string{"copy this file's pip: section"}, nil},
		// defaults names its CUDA builds cuda… only until 1.12.1 (review
		// forty-two F13)
		{"052.yml", nil, []string{"from pytorch 1.2.0 until 1.12.1, which changed the names"}, nil, nil},
		// conda-forge's pytorch 2.0.0 CUDA 11.2 build beside
		// cudatoolkit=11.7: its libraries are CUDA 11.7's, which its run
		// requirement admits (review forty F9).
		{"034.yml", nil, []string{"the CUDA 11.7 libraries have no code of their own for sm_90"}, []string{"the CUDA 11.2 libraries"}, nil},
		{"010.yml", map[string]string{"k80": "fail"}, []string{"EG401 driver 470.82.01 supports CUDA 11.4; this environment's CUDA 12 runtime", "EG402 driver 550.54.15 supports CUDA 12.4; this environment's CUDA 12 wheels are whichever 12.x pip installs, up to 12.9: JAX runs them through minor-version compatibility (its CUDA 12 wheels need a driver of 525.60.13 or newer)", "nothing to fix in the driver for JAX to load these wheels (its GPU code is judged apart)"}, nil, nil},
		// conda tensorflow 2.0.0 from conda-forge or defaults is the CPU
		// build on every machine: GPUs idle (EG407), nothing left to the
		// solver per machine (no EG207).
		// Its hint does not send an H100 to tensorflow-gpu 2.0.0, whose
		// cuDNN 7.4 has no code for it (review ten #425); the K80, which
		// 2.0.0's sm_35 and cuDNN 7.4 serve, is sent there.
		{"053.yml", map[string]string{"a100": "ok", "h100": "ok", "rtx5090": "ok"}, []string{"EG407 tensorflow 2.0.0 is a CPU-only build", "would not run on target h100 either", "would not run on target rtx5090 either", "cuDNN 7.4 cannot", "install TensorFlow 2.0.0's GPU build"}, nil, []string{"EG207"}},
		// cpuonly beside a pip torch and no conda pytorch (root cause 3):
		// cpuonly selects among conda's pytorch builds only, so nothing
		// installed is CPU-only (no EG202); pip's torch 2.1.0 is PyPI's
		// CUDA 12.1 wheel, which the targets are checked against. The
		// file also installs conda-forge's openmm 8.0.0, whose CUDA
		// platform compiles its kernels at run time with its build's
		// NVRTC (extensions-17.yaml): the builds it admits load CUDA 10.2
		// … 12.9 (the pip wheel's CUDA does not constrain conda's), so on
		// the A100 (driver CUDA 12.4) and the H100 (12.8), which run the
		// torch wheel, the solver's pick decides it there.
		// RAPIDS 23.08's libraft reaches an RTX 5090 only through PTX,
		// beside CUDA 11.8's libraries: the hint asks for a build made
		// with a CUDA that targets sm_120, not "a release of libraft
		// 23.8.* with SASS for sm_120", of which there is none (review
		// thirty-eight F22).
		{"073.yml", map[string]string{"rtx5090": "fail"}, []string{"use a build of libraft made with a CUDA whose compiler targets sm_120"},
			[]string{"use a release of libraft 23.8.* with SASS"}, nil},
		// the pytorch channel's pytorch 2.3.1 with conda-forge's newest
		// mkl: `import torch` fails on every machine (pytorch/pytorch#123097)
		{"039.yml", map[string]string{"a100": "fail", "h100": "fail"},
			[]string{"EG411 pytorch=2.3.1 (line 9) is the pytorch channel's linux-64 build, which runs with mkl >=2018 but needs mkl older than 2024.1: mkl comes from conda-forge", "hint: pin mkl=2024.0"}, nil, nil},
		// openmm=7.7 is 7.7.0: what is open is the CUDA that picks its
		// conda-forge build, and the hint says to pin that, not a release
		// (review fifty-eight F10)
		{"025.yml", map[string]string{"k80": "unknown"}, []string{"hint: pin the environment's CUDA in this file (cudatoolkit=X.Y, or cuda-version=X.Y from CUDA 12), so that conda installs openmm's build for it"},
			[]string{"pin a release envguard knows (conda-forge: 7.7.0)"}, nil},
		// pytorch 1.8.1 beside Python 3.6 on an H100: no release for that
		// Python has sm_90 SASS, so the hint says the python pin must rise
		// (review fifty-eight F43)
		{"176.yml", map[string]string{"h100": "fail"},
			[]string{"no pytorch release built for the file's Python 3.6 has a CUDA build with SASS for target h100's GPUs that its driver runs (on the PyTorch wheel index, conda-forge), so raise the python pin as well"}, nil, nil},
		// the pytorch channel stops at 2.5.1, but the wheel index's CUDA
		// 12.8 builds serve an RTX 5090 with Python 3.9: the hint names
		// them instead of asking to raise the pin (review fifty-nine F37)
		{"143.yml", map[string]string{"rtx5090": "fail"},
			[]string{"for the file's Python 3.9, the pytorch channel has no CUDA build with SASS for target rtx5090's GPUs that its driver runs, but the PyTorch wheel index has pytorch 2.8.0 (CUDA 12.8)"},
			[]string{"raise the python pin"}, nil},
		// a bare pytorch-cuda selects the pytorch channel's CUDA builds of
		// 1.13 … 2.5, each of which has sm_80 SASS (review fifty-seven F14)
		{"048.yml", map[string]string{"a100": "ok", "rtx5090": "fail"}, nil,
			[]string{"the file leaves the pytorch release and its CUDA variant to the solver, so which build it gets"}, nil},
		// mkl=2021.1.1 beside conda-forge's pytorch 2.0.0, whose builds run
		// with mkl 2022: its CUDA build is not what conda installs, and
		// what it takes instead is left open (review fifty-six F10)
		{"034.yml", map[string]string{"h100": "unknown", "a100": "unknown"},
			[]string{"conda-forge's builds of pytorch 2.0.0 run with mkl 2022.*, which mkl=2021.1.1 (line 12) excludes"},
			[]string{"so a CUDA build (CUDA 11.2) installs"}, nil},
		// cudatoolkit=10.2 beside an open pytorch::pytorch without the
		// nvidia channel: conda-forge's CUDA 12 packages pull cuda-version
		// 12.x, which refuses that cudatoolkit, so the CUDA 12 builds are
		// not among those the file can get (review fifty-six F12)
		{"050.yml", map[string]string{"k80": "unknown"},
			[]string{"left out: the CUDA 12 builds (16 builds, pytorch 2.1.0 CUDA 12.1 … pytorch 2.5.1 CUDA 12.4), which cannot install beside the file's cudatoolkit=10.2"},
			[]string{"CUDA 12.1 (EG401)"}, nil},
		// cucim is a RAPIDS library: the guide's Pascal floor holds for it
		// as for cudf (review fifty-six F2)
		{"004.yml", map[string]string{"k80": "fail"}, []string{"EG410 cucim needs compute capability 6.0 or newer, as every release of cucim does"}, []string{"could not check cucim against target k80"}, nil},
		// pytorch-cpu beside python=3.5.6: the CUDA routes EG407 names
		// need a newer Python on an A100 (review fifty-five F30)
		{"115.yml", map[string]string{"a100": "ok", "k80": "ok"},
			[]string{"no pytorch release built for the file's Python 3.5 has a CUDA build with SASS for target a100's GPUs that its driver runs (on the pytorch channel, the PyTorch wheel index, conda-forge), so raise the python pin as well",
				"for the file's Python 3.5 the newest release with a CUDA build that has SASS for target k80's GPUs and that its driver runs is pytorch 1.5.1 (CUDA 10.2)"}, nil, nil},
		// a Python range: the example release installs with a Python it
		// admits (review fifty-five F8: pytorch 2.5.1 needs 3.9)
		{"030.yml", map[string]string{"a100": "unknown"}, []string{"e.g. pytorch=2.4.1"}, []string{"e.g. pytorch=2.5.1"}, nil},
		// tensorflow 1.4.0: CPU-only on conda-forge, defaults' builds
		// older than its recipes, six unknown channels; the hint names
		// the GPU package, not a build string no 1.4.0 has (review
		// fifty-five F20)
		{"083.yml", map[string]string{"k80": "unknown"},
			[]string{"whether the CPU or the CUDA build is installed is not known (every build of tensorflow 1.4.0 on conda-forge is CPU-only; which builds of tensorflow 1.4.0 the defaults channel published is not known", "for the GPU build use the tensorflow-gpu package rather than tensorflow"},
			[]string{"tensorflow=*=cuda*"}, nil},
		// libcumlprims 23.08's flags are not public, but RAPIDS' 23.x
		// guide supports every RAPIDS library on Pascal or better: an
		// A100 runs it, a Hopper is left open with the reason (review
		// fifty-four F23).
		{"073.yml", map[string]string{"a100": "ok", "h100": "unknown"},
			[]string{"of 9.0 (target h100's GPU 0 (NVIDIA H100, compute capability 9.0)) they say: RAPIDS' 23.x guide names no GPU"},
			[]string{"could not check libcumlprims 23.8.* against target a100"}, nil},
		{"149.yml", map[string]string{"a100": "unknown", "h100": "unknown"},
			[]string{"undecided extension (nvrtc-release-open): openmm 8.0.0 compiles its kernels at run time with the NVRTC of its build's CUDA, and the builds the file admits load CUDA 10.2 … 12.9; the driver (CUDA 12.4)", "hint: pin the CUDA of openmm to the driver's: add cuda-version=12.8"},
			[]string{"EG407", "undecided architecture", "undecided variant (variant-left-to-solver)", "undecided release"}, []string{"EG202"}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			src, err := os.ReadFile(filepath.Join(dir, tt.file))
			if err != nil {
				t.Fatal(err)
			}
			r := Validate(tt.file, src, Options{Platform: "linux-64", Hosts: hosts})
			assertVerdictsHonest(t, r)
			for _, tg := range r.Targets {
				if w, ok := tt.want[tg.Name]; ok && string(tg.Verdict) != w {
					t.Errorf("target %s: %s, want %s\n%s", tg.Name, tg.Verdict, w, verdictText(r))
				}
			}
			// the findings' hints too: a hint naming a selector the
			// release never had is as wrong as a message (review #29)
			text := verdictText(r)
			for _, f := range r.Findings {
				text += "\nhint: " + f.Hint
			}
			for _, f := range r.Findings {
				for _, c := range tt.noCode {
					if f.Code == c {
						t.Errorf("%s at line %d: %s", c, f.Line, f.Message)
					}
				}
			}
			for _, s := range tt.has {
				if !strings.Contains(text, s) {
					t.Errorf("no %q in:\n%s", s, text)
				}
			}
			for _, s := range tt.hasNot {
				if strings.Contains(text, s) {
					t.Errorf("%q in:\n%s", s, text)
				}
			}
		})
	}
}

// TestCorpusCodesInMeaning: each code of the real files is used within its
// meaning in RULES.md (issue 26, root cause 4).
func TestCorpusCodesInMeaning(t *testing.T) {
	dir := testshared.Dir(t, "corpus/realworld")
	hosts, err := (&Machines{Targets: StandardFleet()}).Resolve([]string{"h100"})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		file string
		want map[string]string // target → verdict
		// codes that must not be reported, and text the report must hold
		notCodes []string
		has      []string
	}{
		// pip tensorflow==2.14.0 beside tensorflow-cpu==2.14.0: two
		// distributions writing one package, which no code of RULES.md
		// means. EG202 is a CPU build beside CUDA packages (cudatoolkit
		// here serves openmm); the variant is open, so no name and no ok.
		{"006.yml", map[string]string{"h100": "unknown"}, []string{"EG202", "EG501", "EG407"},
			[]string{"EG409 could not check tensorflow 2.14.0 against target h100: tensorflow-cpu==2.14.0 (line 210) and tensorflow==2.14.0 (line 209) both install the tensorflow package"}},
		// cuda-version constrains only conda packages: no EG201 on it
		// against pip's torch wheel (line 24).
		{"016.yml", nil, nil, nil},
		// TensorFlow's own 2.13 recipe: pip tensorflow==2.13.*, conda
		// cudatoolkit 11.8 and pip's cuDNN 8.6 wheel ask for the CUDA build.
		{"110.yml", nil, nil, []string{"canonical name tf213_cu118"}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			src, err := os.ReadFile(filepath.Join(dir, tt.file))
			if err != nil {
				t.Fatal(err)
			}
			r := Validate(tt.file, src, Options{Platform: "linux-64", Hosts: hosts})
			assertVerdictsHonest(t, r)
			text := verdictText(r)
			for _, f := range r.Findings {
				if f.Code == "EG201" && tt.file == "016.yml" && f.Line == 24 {
					t.Errorf("EG201 on cuda-version against a pip wheel: %s", f.Message)
				}
				if f.Code == "EG502" || f.Code == "EG501" {
					text += "\n" + f.Message
				}
			}
			for _, tg := range r.Targets {
				if w, ok := tt.want[tg.Name]; ok && string(tg.Verdict) != w {
					t.Errorf("target %s: %s, want %s\n%s", tg.Name, tg.Verdict, w, text)
				}
			}
			for _, f := range r.Findings {
				for _, c := range tt.notCodes {
					if f.Code == c {
						t.Errorf("%s at line %d: %s", f.Code, f.Line, f.Message)
					}
				}
			}
			for _, s := range tt.has {
				if !strings.Contains(text, s) {
					t.Errorf("no %q in:\n%s", s, text)
				}
			}
		})
	}
}

// TestCorpusEG201ExportedElsewhere (review forty-five F18): 016 is a
// Windows export read for linux-64, where the package index's torch 2.7.0
// is the CUDA 12.6 wheel; EG201 says it reads Linux's wheel, and that the
// export's own is the CPU build.
func TestCorpusEG201ExportedElsewhere(t *testing.T) {
	src, err := os.ReadFile(filepath.Join(testshared.Dir(t, "corpus/realworld"), "016.yml"))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, f := range Validate("016.yml", src, Options{Platform: "linux-64"}).Findings {
		if f.Code != "EG201" || !strings.Contains(f.Message, "the pip wheel carries its own CUDA runtime") {
			continue
		}
		n++
		if !strings.Contains(f.Message, "(as read for linux-64; the file is a conda env export made on Windows") || !strings.Contains(f.Message, "where PyPI's torch 2.7.0 is the CPU build)") {
			t.Errorf("line %d: %s", f.Line, f.Message)
		}
	}
	if n == 0 {
		t.Error("no EG201 on the pip wheel against conda's CUDA")
	}
}
