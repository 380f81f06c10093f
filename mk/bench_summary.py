#!/usr/bin/env python3
"""bench_summary.py - the ratios make bench is about, from its result files.

usage: bench_summary.py POPCOUNT.json READLIMIT.json BSWAP.json [INPLACE.json]
(settle-result/1 files written by `settle run ... --format json --output`,
of the claims popcount-peers, readlimit-peers, bswap and bswap-inplace-peers
in that order; '-' for a sweep that was not run). A file that cannot be
read, is not a result file or holds another claim's results is an error:
a message on standard error, exit status 2, nothing printed. Prints, per
size:
  - popcount: settle's time over libpopcnt's on each path (the run's own
    per-process ratio, 95 % interval and verdict, and the lowest and
    highest per-process estimate), settle 16 bytes past a 64-byte
    boundary over settle aligned, GMP over settle;
  - read limit: read-limit's time over the fastest plain read's (1 or
    less: read-limit is the limit), as the run estimated it (per-process
    ratio and 95 % interval, inverted: read-limit is the baseline);
  - bswap: each implementation's speed as a fraction of memcpy (copies) or
    of load-store (in place); for the copies also the load-store copy's
    (the dispatched kernel's copy loop without the shuffle) as a fraction
    of memcpy's, and the dispatched kernel's as a fraction of it (what the
    swap itself costs); and any forced kernel slower than a narrower
    one by more than 1 % with all of its 95 % interval over processes
    (paired_interval(), settle's own estimate), and the pairs whose
    interval reaches above 1 % without being all above it;
  - bswap in place (examples/bswap-inplace-peers.c): the speed of the
    same in-place loop with one operation between load and store (an XOR
    by zero, an add, the byte shuffle) and of settle's byte swap as
    fractions of the bare load-store loop's, as the run estimated them
    (inverted: load-store is the baseline), and settle's time over the
    loop with the shuffle (per-round median).
Ratios other than settle's own verdicts are medians of per-round ratios
(paired(): samples taken side by side in one interleaved run). Each
section opens with its run's noise: the CPUs other work kept busy, steal,
context switches, the core clock before and after.
"""
import json
import math
import sys


class BadFile(Exception):
    pass


def load(path, claim):
    """The result file at path, checked to hold claim's results; None for
    '-'. Raises BadFile with the reason."""
    if path == "-":
        return None
    try:
        with open(path) as f:
            doc = json.load(f)
    except (OSError, UnicodeDecodeError) as e:
        raise BadFile(f"cannot read: {e.strerror or e}")
    except json.JSONDecodeError as e:
        raise BadFile(f"not a settle result file (invalid or truncated "
                      f"JSON: {e.msg} at line {e.lineno})")
    if not isinstance(doc, dict) or doc.get("schema") != "settle-result/1":
        raise BadFile("not a settle result file (no schema "
                      "settle-result/1)")
    results = doc.get("results")
    if not isinstance(results, list):
        raise BadFile("not a settle result file (no results)")
    for r in results:
        got = r.get("claim") if isinstance(r, dict) else None
        if got != claim:
            raise BadFile(f"holds results of claim '{got}', this "
                          f"argument is for claim '{claim}'")
    return doc


def size_name(b):
    for unit, shift in (("GiB", 30), ("MiB", 20), ("KiB", 10)):
        if b >= 1 << shift and b % (1 << shift) == 0:
            return f"{b >> shift} {unit}"
    return f"{b} B"


def short(build):
    """The build without its -I folder (the libpopcnt path)."""
    words, out, skip = (build or "").split(), [], False
    for w in words:
        if skip:
            skip = False
            continue
        if w == "-I":
            skip = True
            continue
        if not w.startswith("-I"):
            out.append(w)
    return " ".join(out)


def rows(doc):
    return [r for r in doc.get("results", []) if "median_ns" in r]


def paired(a, b):
    """The median over rounds of a's time / b's time: each settle result
    keeps its samples in round order, and every variant of a run has a
    sample in every round, so sample k of a and of b were taken side by
    side; drift and a disturbed round hit both. Falls back to the ratio
    of the medians."""
    x, y = a.get("samples_ns") or [], b.get("samples_ns") or []
    q = sorted(u / v for u, v in zip(x, y) if u > 0 and v > 0)
    if len(x) != len(y) or not q:
        return a["median_ns"] / b["median_ns"]
    n = len(q)
    return q[n // 2] if n % 2 else (q[n // 2 - 1] + q[n // 2]) / 2


# Two-sided 95 % Student t quantiles by degrees of freedom.
T95 = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447,
       7: 2.365, 8: 2.306, 9: 2.262, 10: 2.228, 11: 2.201, 12: 2.179,
       13: 2.160, 14: 2.145, 15: 2.131, 16: 2.120, 19: 2.093, 29: 2.045}


def t95(df):
    return T95.get(df) or T95[max(k for k in T95 if k <= df)]


def median(v):
    v = sorted(v)
    n = len(v)
    return v[n // 2] if n % 2 else (v[n // 2 - 1] + v[n // 2]) / 2


def process_levels(a, b, processes):
    """a's time over b's in each process, as logs: the samples split
    evenly, in order, one chunk per process; in each, the median log ratio
    of each layout, their mean. None with fewer than 2 processes or
    unpaired samples."""
    x, y = a.get("samples_ns") or [], b.get("samples_ns") or []
    lay = a.get("sample_layouts") or [0] * len(x)
    n = len(x)
    if processes < 2 or not n or n != len(y) or n != len(lay) or \
            n % processes:
        return None
    per, levels = n // processes, []
    for k in range(processes):
        by = {}
        for i in range(k * per, (k + 1) * per):
            if x[i] > 0 and y[i] > 0:
                by.setdefault(lay[i], []).append(math.log(x[i] / y[i]))
        if not by:
            return None
        levels.append(sum(median(v) for v in by.values()) / len(by))
    return levels


def paired_interval(a, b, processes):
    """a's time over b's as settle estimates it across processes: the
    mean of process_levels() and its 95 % Student t interval. None with
    fewer than 3 processes or unpaired samples."""
    levels = process_levels(a, b, processes) if processes >= 3 else None
    if levels is None:
        return None
    m = sum(levels) / len(levels)
    sd = math.sqrt(sum((u - m) ** 2 for u in levels) / (len(levels) - 1))
    h = t95(len(levels) - 1) * sd / math.sqrt(len(levels))
    return math.exp(m), math.exp(m - h), math.exp(m + h)


def key(r, *names):
    p = r.get("params", {})
    return tuple(p.get(n) for n in names)


def noise(doc):
    """One line on what else happened during the run (the file's noise)."""
    n = doc.get("noise")
    if not isinstance(n, dict):
        print("  noise: not recorded")
        return
    other = n.get("other_cpus")
    parts = [f"{other:.2f} CPUs busy with other work" if
             isinstance(other, (int, float)) else
             f"other work not recorded (load {n.get('loadavg', 0):.2f} "
             f"at the start)",
             f"{n['steal_pct']:.1f} % steal" if
             isinstance(n.get("steal_pct"), (int, float)) else
             "steal unknown",
             f"{n.get('involuntary_switches', 0)} involuntary context "
             f"switches"]
    a, b = n.get("core_ghz_before"), n.get("core_ghz_after")
    if a and b:
        parts.append(f"core clock {a:.2f} -> {b:.2f} GHz")
    print("  noise: " + ", ".join(parts))


def popcount(doc):
    procs = (doc.get("settings") or {}).get("processes") or 1
    print("\npopcount: settle / libpopcnt (time; below 1 is faster; "
          "processes: the lowest and\nhighest of the per-process "
          "estimates the interval is made from)")
    noise(doc)
    print(f"  {'build':<24} {'path':<11} {'size':>8}  {'ratio':>6}"
          f"  {'95% interval':<16} {'verdict':<8} processes")
    by = {}
    for r in rows(doc):
        by[key(r, "build", "path", "size_bytes") + (r["variant"],)] = r
    band = doc.get("settings", {}).get("equivalence_band", 0.01)
    tally, behind = {}, 0
    for (build, path, size, name), r in sorted(
            by.items(), key=lambda kv: (kv[0][0], kv[0][1], kv[0][2])):
        if name != "settle" or "vs_baseline" not in r:
            continue
        if (build, path, size, "libpopcnt") not in by:
            continue
        v = r["vs_baseline"]
        tally[v["verdict"]] = tally.get(v["verdict"], 0) + 1
        if v["verdict"] == "unclear" and v["ci_high"] > 1 + band:
            behind += 1
        levels = process_levels(r, by[(build, path, size, "libpopcnt")],
                                procs)
        spread = (f" {math.exp(min(levels)):.3f}-"
                  f"{math.exp(max(levels)):.3f}" if levels else "")
        print(f"  {short(build):<24} {path:<11} {size_name(size):>8}  "
              f"{v['ratio']:6.3f}  [{v['ci_low']:.3f}, {v['ci_high']:.3f}]"
              f"  {v['verdict']:<8}{spread}".rstrip())
    if not tally:
        print("  (no libpopcnt rows: make bench LIBPOPCNT_DIR=DIR)")
    else:
        unclear = tally.get("unclear", 0)
        print("  " + ", ".join(f"{tally.get(k, 0)} {k}" for k in
                                ("faster", "same", "unclear", "slower")) +
              f" of {sum(tally.values())}" +
              (f"; of the unclear, {unclear - behind} with the whole "
               f"interval at most {1 + band:.2f} (not behind by more "
               f"than the band), {behind} reaching above it"
               if unclear else ""))
    print("\npopcount: 16 bytes past a 64-byte boundary / aligned "
          "(settle_popcount), and GMP / settle (time, per-round medians)")
    for (build, path, size, name), r in sorted(by.items()):
        if name != "settle" or path != "dispatched":
            continue
        off = by.get((build, path, size, "settle+16"))
        gmp = by.get((build, path, size, "gmp"))
        line = f"  {short(build):<24} {size_name(size):>8}"
        if off:
            line += f"  +16: {paired(off, r):6.3f}"
        if gmp:
            line += f"  gmp: {paired(gmp, r):7.2f}"
        print(line)


def readlimit(doc):
    print("\nread limit: read-limit / fastest plain read (time; settle's "
          "estimate over processes\nand its 95 % interval; within 2 %: "
          "yes when all of the interval is at most 1.02,\nno when all of "
          "it is above)")
    noise(doc)
    sizes = {}
    for r in rows(doc):
        sizes.setdefault(r["params"]["size_bytes"], []).append(r)
    for size in sorted(sizes):
        rl = [r for r in sizes[size] if r["variant"] == "read-limit"]
        plain = [r for r in sizes[size] if r["variant"].startswith("plain")
                 and (r.get("vs_baseline") or {}).get("ratio", 0) > 0]
        if not rl or not plain:
            continue
        # read-limit is the baseline: each plain row's ratio is its time
        # over read-limit's, so the fastest has the smallest
        best = min(plain, key=lambda r: r["vs_baseline"]["ratio"])
        v = best["vs_baseline"]
        ratio, lo, hi = 1 / v["ratio"], 0.0, 0.0
        if v.get("ci_low", 0) > 0 and v.get("ci_high", 0) > 0:
            lo, hi = 1 / v["ci_high"], 1 / v["ci_low"]
        within = ("yes" if 0 < hi <= 1.02 else "no" if lo > 1.02
                  else "unclear")
        print(f"  {size_name(size):>8}  read-limit {rl[0]['bytes_per_ns']:7.1f}"
              f" B/ns, {best['variant']:<14} {best['bytes_per_ns']:7.1f} B/ns"
              f"  ratio {ratio:.3f}  [{lo:.3f}, {hi:.3f}]  within 2 %: "
              f"{within}")


ORDER = ["scalar", "ssse3", "avx2", "avx512"]


def bswap(doc):
    print("\nbswap: speed as a fraction of memcpy (copy) or of load-store "
          "(in place), median of per-round ratios")
    noise(doc)
    groups = {}
    for r in rows(doc):
        groups.setdefault(key(r, "size_bytes", "elem_bits", "in_place"),
                          {})[r["variant"]] = r
    names = ORDER + ["auto"]
    procs = (doc.get("settings") or {}).get("processes") or 1
    maybe = []
    print(f"  {'size':>8} {'elements':<17}" +
          "".join(f"{n:>8}" for n in names) +
          f"{'ld-st':>8}{'auto/ls':>8}  slower than a narrower one")
    for (size, bits, ip), g in sorted(groups.items(),
                                      key=lambda kv: (kv[0][0], kv[0][1],
                                                      str(kv[0][2]))):
        in_place = ip in (True, "true")
        ref = g.get("load-store" if in_place else "memcpy")
        if not ref:
            continue
        cells = ""
        for n in names:
            r = g.get(n)
            cells += f"{paired(ref, r):8.3f}" if r else f"{'-':>8}"
        ls = None if in_place else g.get("load-store")
        if ls:
            cells += f"{paired(ref, ls):8.3f}"
            cells += (f"{paired(ls, g['auto']):8.3f}" if "auto" in g
                      else f"{'-':>8}")
        else:
            cells += f"{'-':>8}{'-':>8}"
        worse = []
        ran = [n for n in ORDER if n in g]
        for i, wide in enumerate(ran):
            for narrow in ran[:i]:
                est = paired_interval(g[wide], g[narrow], procs)
                if est is None:
                    slower = paired(g[wide], g[narrow])
                    if slower > 1.01:
                        worse.append(f"{wide} > {narrow} by "
                                     f"{slower - 1:.1%}")
                    continue
                r, lo, hi = est
                if lo > 1.01:
                    worse.append(f"{wide} > {narrow} by {r - 1:.1%} "
                                 f"[{lo - 1:+.1%}, {hi - 1:+.1%}]")
                elif hi > 1.01:
                    maybe.append(f"{size_name(size)} {bits}-bit "
                                 f"{'in place' if in_place else 'copy'}: "
                                 f"{wide} / {narrow} {r:.3f} "
                                 f"[{lo:.3f}, {hi:.3f}]")
        what = f"{bits}-bit {'in place' if in_place else 'copy'}"
        print(f"  {size_name(size):>8} {what:<17}{cells}  "
              f"{'; '.join(worse) if worse else 'none'}")
    print("  ld-st: the load-store copy (the dispatched kernel's copy loop "
          "without the shuffle)\n  as a fraction of memcpy; auto/ls: auto "
          "as a fraction of it, what the swap costs")
    print("  slower: time over the narrower kernel's above 1.01 with all "
          "of its 95 % interval\n  over processes (as settle's verdicts "
          "estimate it; the medians above are per round)")
    if maybe:
        print("  not told apart from 1 % slower (interval reaches above "
              "1.01):")
        for m in maybe:
            print("    " + m)


ONE_OP = ["xor-zero", "add", "shuffle", "settle"]


def inplace(doc):
    print("\nbswap in place, one operation between load and store: speed "
          "as a fraction of\nthe bare load-store loop's (settle's estimate "
          "over processes, 95 % interval);\nsettle/shuffle: settle's time "
          "over the loop with the shuffle (per-round median)")
    noise(doc)
    by = {}
    for r in rows(doc):
        by.setdefault(key(r, "build", "size_bytes"), {})[r["variant"]] = r
    print(f"  {'build':<24} {'size':>8}" +
          "".join(f"  {n:<22}" for n in ONE_OP) + "settle/shuffle")
    for (build, size), g in sorted(by.items(),
                                   key=lambda kv: (kv[0][0] or "",
                                                   kv[0][1])):
        if "load-store" not in g:
            continue
        line = f"  {short(build):<24} {size_name(size):>8}"
        for n in ONE_OP:
            v = (g.get(n) or {}).get("vs_baseline") or {}
            if v.get("ratio", 0) <= 0:
                line += f"  {'-':<22}"
                continue
            cell = f"{1 / v['ratio']:.3f}"
            if v.get("ci_low", 0) > 0 and v.get("ci_high", 0) > 0:
                cell += f" [{1 / v['ci_high']:.3f}, {1 / v['ci_low']:.3f}]"
            line += f"  {cell:<22}"
        if "settle" in g and "shuffle" in g:
            line += f"{paired(g['settle'], g['shuffle']):.3f}"
        print(line.rstrip())


def main(argv):
    if len(argv) not in (4, 5):
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    sections = ((popcount, "popcount-peers"), (readlimit, "readlimit-peers"),
                (bswap, "bswap"), (inplace, "bswap-inplace-peers"))
    docs = []
    for path, (fn, claim) in zip(argv[1:], sections):
        try:
            docs.append((fn, load(path, claim)))
        except BadFile as e:
            print(f"bench_summary.py: {path}: {e}", file=sys.stderr)
            return 2
    for fn, doc in docs:
        if doc:
            fn(doc)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
