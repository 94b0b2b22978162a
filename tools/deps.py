#!/usr/bin/env python3
"""deps.py — the dependency rule of docs/architecture.md, checked.

    tools/deps.py BUILD [--graph]

Three graphs over the library and the command (not tests, bench, examples):
  1. folder include graph: folder A -> B when a file in A includes a file in
     B (folders at their full depth: ir/sym, loader/emu, ...);
  2. folder link graph: A -> B when an object built from A references a
     symbol an object built from B defines (nm over BUILD's objects);
  3. file link graph inside each folder: a.c -> b.c under the same rule.
Each must be acyclic: the folder a symbol or header lives in never uses a
folder that uses it, and inside a folder no file calls back into a file that
calls it. And every name a library folder exports carries that folder's
module prefix (PREFIXES): what no other file needs is static. A folder and its subfolders count as one node for graphs 1 and 2
only when they are the same folder. Prints every cycle found (one per
strongly connected component) and exits 1 if there is any; --graph prints
the folder graphs too.
"""
import os
import re
import subprocess
import sys

ROOTS = ['util', 'include', 'ir', 'frontend', 'interp', 'passes', 'isel', 'regalloc', 'asm', 'loader', 'driver',
         'cli']


def sources():
    out = []
    for r in ROOTS:
        for d, _, files in os.walk(r):
            out += [os.path.join(d, f) for f in files if f.endswith(('.c', '.h'))]
    return sorted(out)


def include_graph(files):
    g = {}
    inc = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
    for f in files:
        src = open(f, encoding='utf-8').read()
        for m in inc.finditer(src):
            t = os.path.normpath(os.path.join(os.path.dirname(f), m.group(1)))
            a, b = os.path.dirname(f), os.path.dirname(t)
            if a != b:
                g.setdefault(a, set()).add(b)
    return g


def nm_symbols(build, files):
    """defined and undefined global symbols per source .c file"""
    defs, uses = {}, {}
    for f in files:
        if not f.endswith('.c'):
            continue
        obj = os.path.join(build, f[:-2] + '.o')
        if not os.path.exists(obj):
            sys.exit('deps.py: %s is missing; build first (make BUILD=%s)' % (obj, build))
        out = subprocess.run(['nm', obj], capture_output=True, text=True, check=True).stdout
        d, u = set(), set()
        for line in out.splitlines():
            parts = line.split()
            if len(parts) == 2 and parts[0] == 'U':
                u.add(parts[1])
            elif len(parts) == 3 and parts[1] in 'TDBRCGSV':
                d.add(parts[2])
        defs[f], uses[f] = d, u
    return defs, uses


def link_graphs(defs, uses):
    where = {}
    for f, d in defs.items():
        for s in d:
            where[s] = f
    folders, files = {}, {}
    for f, u in uses.items():
        for s in u:
            t = where.get(s)
            if not t or t == f:
                continue
            a, b = os.path.dirname(f), os.path.dirname(t)
            if a != b:
                folders.setdefault(a, set()).add(b)
            else:
                files.setdefault(f, set()).add(t)
    return folders, files


# The prefixes a folder's exported (non-static) names carry: the module they
# belong to. Pass entry points are named after what they do, as the pipeline
# lists them.
PREFIXES = {
    'util': r'arena_|buf_|vec_|intern|diag_|x(malloc|calloc|realloc|strdup|strndup)$|die_at$|dtype_|npy_|jpos_|jr_|'
            r'outputs_|tempdir_|read_file|write_file|file_',
    'ir/sym': r'sym_',
    'ir/isa': r'isa_',
    'ir': r'kernel_|op_|region_|shape_|mfunc_|mblock_|mir_|mop_|mo_|rc_|target_|addr_space|value_|graph_|con_|mma_',
    'frontend': r'load_kernel|ld_',
    'interp': r'interp_|it_|run_',
    'passes/graph': r'analysis_|analyze_|subst_|index_',
    'passes/machine': r'insert_waitcnt$|check_waitcnt$|resolve_hazards$|check_hazards$|hoist_invariants$|eliminate_redundant$|hazard_|hz_|sched_',
    'isel': r'select_instructions$|isel_',
    'regalloc': r'regalloc_|regassign_|liveness_|spill_|coalesce_copies$',
    'asm': r'asm_|emit_|llvm_mc_',
    'loader/codeobj': r'codeobj_|kd_|metadata_|input_file',
    'loader/emu': r'emu_',
    'loader/timing': r'tm_',
    'loader/runtime': r'launch_|hip_',
    'driver': r'compile_|wavecc_|stats_|allocate_registers$|check_allocation$',
}


def unprefixed(defs):
    """exported names without their folder's prefix"""
    bad = []
    for f, d in sorted(defs.items()):
        folder = os.path.dirname(f)
        pat = PREFIXES.get(folder)
        if pat is None:
            continue
        rx = re.compile(r'(' + pat + r')')
        # names the toolchain makes (AddressSanitizer's __odr_asan.X, ...) are not ours
        bad += ['%s: %s' % (f, n) for n in sorted(d) if not n.startswith('__') and not rx.match(n)]
    return bad


def cycles(g):
    """one cycle per non-trivial strongly connected component (Tarjan)"""
    index, low, stack, on, comps = {}, {}, [], set(), []
    counter = [0]
    nodes = set(g) | {b for v in g.values() for b in v}

    def strong(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(g.get(v, ())):
            if w not in index:
                strong(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                comps.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in sorted(nodes):
        if v not in index:
            strong(v)
    out = []
    for comp in comps:  # walk inside the component back to its start
        members, start = set(comp), comp[0]
        path, seen, v = [start], {start}, start
        while True:
            nxt = sorted(w for w in g.get(v, ()) if w in members)
            back = [w for w in nxt if w == start]
            if back and len(path) > 1:
                break
            fresh = [w for w in nxt if w not in seen]
            v = fresh[0] if fresh else nxt[0]
            if v in seen:
                path = path[path.index(v):]
                break
            path.append(v)
            seen.add(v)
        out.append(path + [path[0]])
    return out


def main():
    if len(sys.argv) < 2:
        sys.exit('usage: tools/deps.py BUILD [--graph]')
    build, show = sys.argv[1], '--graph' in sys.argv[2:]
    files = sources()
    inc = include_graph(files)
    defs, uses = nm_symbols(build, files)
    lfold, lfile = link_graphs(defs, uses)
    if show:
        for name, g in (('include', inc), ('link', lfold)):
            print('%s graph:' % name)
            for a in sorted(g):
                print('  %s -> %s' % (a, ' '.join(sorted(g[a]))))
    bad = 0
    for name, g in (('folder include', inc), ('folder link', lfold), ('file link', lfile)):
        cs = cycles(g)
        for c in cs:
            print('deps: %s cycle: %s' % (name, ' -> '.join(c)))
        bad += len(cs)
        print('deps: %s graph: %d nodes, %d cycles' % (name, len(set(g) | {b for v in g.values() for b in v}),
                                                      len(cs)))
    names = unprefixed(defs)
    for n in names:
        print('deps: exported without its module prefix (make it static or prefix it): %s' % n)
    print('deps: exported names: %d without their module prefix' % len(names))
    sys.exit(1 if bad or names else 0)


if __name__ == '__main__':
    main()
