#!/usr/bin/env python3
# check-second-ab.py PREFIX N BIN... : issue 25's "second run, cache full"
# row as a ratio against a baseline binary measured in the same run.
# Each BIN gets its own cache (XDG_CACHE_HOME in a temporary directory),
# filled by a first run, settled (2.5 s, past cache.RacyWindow) and run
# twice more; then N rounds of `BIN check --prefix PREFIX`, the binaries
# alternating within each round. Prints per binary the median wall and
# CPU (user+sys) milliseconds and their ratios to the first binary's.
#   e.g. scripts/check-second-ab.py /opt/torch/.venv 31 ./envguard-main ./envguard-new
import os, resource, shutil, statistics, subprocess, sys, tempfile, time
prefix, n, bins = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
root = tempfile.mkdtemp(prefix='envguard-ab-')

def run(i, b):
    env = dict(os.environ, XDG_CACHE_HOME=f'{root}/{i}')
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN); t = time.perf_counter()
    subprocess.run([b, 'check', '--prefix', prefix], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    w = time.perf_counter() - t; r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    return w * 1000, (r1.ru_utime - r0.ru_utime + r1.ru_stime - r0.ru_stime) * 1000
for i, b in enumerate(bins): run(i, b)
time.sleep(2.5)
for _ in range(2):
    for i, b in enumerate(bins): run(i, b)
wall = {i: [] for i in range(len(bins))}; cpu = {i: [] for i in range(len(bins))}
for _ in range(n):
    for i, b in enumerate(bins):
        w, c = run(i, b); wall[i].append(w); cpu[i].append(c)
mw0, mc0 = statistics.median(wall[0]), statistics.median(cpu[0])
for i, b in enumerate(bins):
    mw, mc = statistics.median(wall[i]), statistics.median(cpu[i])
    print(f'{os.path.basename(b):10s} wall median {mw:6.1f} ms (min {min(wall[i]):6.1f}) ratio {mw/mw0:.3f} | cpu median {mc:6.1f} ms ratio {mc/mc0:.3f} | n={n}')
shutil.rmtree(root, ignore_errors=True)
