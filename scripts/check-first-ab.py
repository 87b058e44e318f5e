#!/usr/bin/env python3
# check-first-ab.py PREFIX N LABEL=ENV:BIN... : issue 25's first run of
# `envguard check` (an empty cache, which the run writes) as a ratio against
# the first LABEL, N rounds with the binaries interleaved within each round.
# ENV is a comma-separated list of VAR/VALUE set for that binary (empty for
# none), e.g.
#   scripts/check-first-ab.py /opt/torch/.venv 15 base=:./envguard-main new-gogc100=GOGC/100:./envguard new=:./envguard
import os, resource, statistics, subprocess, sys, tempfile, shutil, time
prefix, n, specs = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
res = {s: ([], []) for s in specs}
for r in range(n):
    for s in specs:
        label, rest = s.split("=", 1)
        envs, b = rest.split(":", 1)
        env = dict(os.environ)
        for kv in filter(None, envs.split(",")):
            k, v = kv.split("/", 1); env[k] = v
        d = tempfile.mkdtemp(); env["XDG_CACHE_HOME"] = d
        r0 = resource.getrusage(resource.RUSAGE_CHILDREN); t = time.perf_counter()
        subprocess.run([b, "check", "--prefix", prefix], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        w = time.perf_counter() - t; r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
        res[s][0].append(w * 1000); res[s][1].append((r1.ru_utime - r0.ru_utime + r1.ru_stime - r0.ru_stime) * 1000)
        shutil.rmtree(d)
base = None
for s in specs:
    w, c = statistics.median(res[s][0]), statistics.median(res[s][1])
    if base is None: base = (w, c)
    print(f"{s.split('=')[0]:24s} first-run wall median {w:7.1f} ms ratio {w/base[0]:.3f} | cpu median {c:7.1f} ms ratio {c/base[1]:.3f} | n={n}")
