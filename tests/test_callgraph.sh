#!/usr/bin/env bash
# test_callgraph.sh - no two source files call each other, directly or
# around a loop. The file-level graph is read from the objects: file A
# depends on file B when A's object uses (nm: U) a symbol B's object
# defines (T, D, B, R). A cycle is printed and fails the test.
. "$(dirname "$0")/lib.sh"
BUILD=${BUILD:-build}
# The objects of the library, the claims and the command (make passes the
# list; else every object of the source tree's files).
objs=${SETTLE_OBJS:-}
if [ -z "$objs" ]; then
	for src in $(cd "$(dirname "$0")/.." && ls src/*/*.c claims/*.c); do
		[ -f "$BUILD/${src%.c}.o" ] && objs="$objs $BUILD/${src%.c}.o"
	done
fi
if [ -z "$objs" ]; then
	echo "FAIL no objects under $BUILD (build first)"
	exit 1
fi
test_tmp cg

# graph ROOT OBJECT...: the graph of the objects (names shown relative to
# ROOT); exit status 1 on a cycle.
graph() {
	local root=$1
	shift
	# one nm for all (-A: each line "object:value type symbol"; an
	# undefined symbol has no value); two per object took 15 s
	{
		nm -A --defined-only -g "$@" |
			awk '{ sub(/:[^:]*$/, "", $1); print $1, $3, "D" }'
		nm -A --undefined-only -g "$@" |
			awk '{ sub(/:$/, "", $1); print $1, $3, "U" }'
	} >"$TMP/syms"
	python3 - "$TMP/syms" "$root" <<'PY'
import sys, collections
path, build = sys.argv[1], sys.argv[2].rstrip("/")
defs, uses = {}, collections.defaultdict(set)
for line in open(path):
    obj, sym, kind = line.split()
    f = obj[len(build) + 1:]
    if kind == "D":
        defs.setdefault(sym, f)
    else:
        uses[f].add(sym)
graph = collections.defaultdict(set)
for f, syms in uses.items():
    for s in syms:
        g = defs.get(s)
        if g and g != f:
            graph[f].add(g)
# Tarjan's strongly connected components
index, low, stack, on, sccs, n = {}, {}, [], set(), [], [0]
sys.setrecursionlimit(10000)
def visit(v):
    index[v] = low[v] = n[0]; n[0] += 1
    stack.append(v); on.add(v)
    for w in sorted(graph[v]):
        if w not in index:
            visit(w); low[v] = min(low[v], low[w])
        elif w in on:
            low[v] = min(low[v], index[w])
    if low[v] == index[v]:
        comp = []
        while True:
            w = stack.pop(); on.discard(w); comp.append(w)
            if w == v:
                break
        if len(comp) > 1:
            sccs.append(sorted(comp))
for v in sorted(set(graph) | set(defs.values())):
    if v not in index:
        visit(v)
edges = sum(len(s) for s in graph.values())
if sccs:
    for c in sccs:
        print("FAIL files that call each other: " + " <-> ".join(c))
        for a in c:
            for b in sorted(graph[a] & set(c)):
                why = sorted(s for s in uses[a] if defs.get(s) == b)[:3]
                print("     %s -> %s (%s)" % (a, b, ", ".join(why)))
    sys.exit(1)
print("ok   %d files, %d file-level dependencies, no cycle" %
      (len(set(graph) | set(defs.values())), edges))
PY
}

# The graph check can fail: two files that call each other are caught.
printf 'int b(int);\nint a(int x) { return x ? b(x - 1) : 0; }\n' >"$TMP/a.c"
printf 'int a(int);\nint b(int x) { return x ? a(x - 1) : 1; }\n' >"$TMP/b.c"
cc -c -o "$TMP/a.o" "$TMP/a.c" && cc -c -o "$TMP/b.o" "$TMP/b.c"
if graph "$TMP" "$TMP/a.o" "$TMP/b.o" | grep -q "a.o <-> b.o"; then
	pass=$((pass + 1))
	echo "ok   a planted loop (a.c <-> b.c) is reported"
else
	fail=$((fail + 1))
	echo "FAIL a planted loop (a.c <-> b.c) was not reported"
fi
if graph "$BUILD" $objs; then
	pass=$((pass + 1))
else
	fail=$((fail + 1))
fi
test_end test_callgraph
