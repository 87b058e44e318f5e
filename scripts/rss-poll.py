#!/usr/bin/env python3
# rss-poll.py LABEL CMD... : runs CMD and samples its memory every 0.5 ms
# from /proc: prints the largest VmRSS, RssAnon, RssFile, VmHWM (KiB), the
# largest RSS of its children (ChildRSS) and of it and its children summed
# (TreeRSS), the process's mappings summed by file at its peak (smaps), and,
# where CMD ran with GODEBUG=gctrace=1, the heap figures of its last GC.
# Linux only (issue 25's memory row; docs/hardware.md).
import os, subprocess, sys, time, collections, glob, re
label, cmd = sys.argv[1], sys.argv[2:]
p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
pid = p.pid
mx = collections.Counter(); snap = None; snaprss = 0
def status():
    d = {}
    try:
        for line in open(f"/proc/{pid}/status"):
            k, _, v = line.partition(":")
            if k in ("VmRSS", "RssAnon", "RssFile", "RssShmem", "VmHWM"):
                d[k] = int(v.split()[0])
    except Exception:
        pass
    return d
def smaps():
    agg = collections.Counter(); name = None
    try:
        for line in open(f"/proc/{pid}/smaps"):
            parts = line.split()
            if len(parts) >= 5 and "-" in parts[0] and ":" not in parts[0]:
                name = parts[5] if len(parts) > 5 else "[anon]"
            elif parts and parts[0] == "Rss:":
                agg[name] += int(parts[1])
    except Exception:
        pass
    return agg
def kids():
    out = []
    try:
        for f in glob.glob(f"/proc/{pid}/task/*/children"):
            out += [int(x) for x in open(f).read().split()]
    except Exception:
        pass
    return out
def rss_of(q):
    try:
        for line in open(f"/proc/{q}/status"):
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except Exception:
        pass
    return 0
while p.poll() is None:
    s = status()
    ks = kids()
    if ks:
        s["TreeRSS"] = s.get("VmRSS", 0) + sum(rss_of(k) for k in ks)
        s["ChildRSS"] = sum(rss_of(k) for k in ks)
    else:
        s["TreeRSS"] = s.get("VmRSS", 0)
    for k, v in s.items():
        mx[k] = max(mx[k], v)
    if s.get("VmRSS", 0) > snaprss + 256:
        sm = smaps()
        if sm:
            snap, snaprss = sm, s["VmRSS"]
    time.sleep(0.0005)
err = p.stderr.read().decode(errors="replace")
print(f"## {label} rc={p.returncode} max: " + " ".join(f"{k}={v}" for k, v in sorted(mx.items())))
if snap:
    print(f"   smaps at {snaprss} KiB: " + ", ".join(f"{os.path.basename(k)}={v}" for k, v in snap.most_common(12)))
gc = [l for l in err.splitlines() if l.startswith("gc ")]
if gc:
    print("   gctrace last: " + gc[-1]); print("   gc count: %d" % len(gc))
    peaks = [int(m.group(1)) for l in gc for m in [re.search(r"(\d+)->\d+->\d+ MB", l)] if m]
    print("   heap max before gc MB: %s" % (max(peaks) if peaks else "?"))
