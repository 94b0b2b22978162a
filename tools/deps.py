#!/usr/bin/env python3
"""deps.py — the dependency rule and the file map of docs/architecture.md, checked.

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

It also holds docs/architecture.md to the tree (doc_problems), and fails when
  - a library .c file (any depth under the folders of the Makefile's STAGES)
    has no line of its own in the page's "Folders" section;
  - a row of the PIPELINE X-macro in driver/pipeline.c is not in the page's
    pipeline diagram (the first ``` block of "The pipeline"), or the diagram
    names them in another order, or names a row that is no longer there;
  - the page names a path that does not exist.
The naming convention: a file's line is a list item that starts with the
file's path from the repository root in backquotes,
    - `isel/prefetch.c` — what the file does
never a bare `prefetch.c` (interp/ and isel/ both have a memory.c); a path
mentioned in passing elsewhere does not count. For the existence check a
path is any backquoted token, anywhere on the page, whose first component is
a folder at the root (`K/2` is not a path). In the diagram a row is a name
between an arrow's `──` and `──▶`, several separated by commas, a
parenthesised remark after one ignored (`assemble (llvm-mc)`); `frontend` is
the one such name that is no row (DIAGRAM_NOT_ROWS).
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
    """defined and undefined global symbols per source .c file (one nm run
    over every object: a process per object took seconds)"""
    objs = {}
    for f in files:
        if not f.endswith('.c'):
            continue
        obj = os.path.join(build, f[:-2] + '.o')
        if not os.path.exists(obj):
            sys.exit('deps.py: %s is missing; build first (make BUILD=%s)' % (obj, build))
        objs[obj] = f
    defs = {f: set() for f in objs.values()}
    uses = {f: set() for f in objs.values()}
    names = sorted(objs)
    for i in range(0, len(names), 200):
        out = subprocess.run(['nm', '-A'] + names[i:i + 200], capture_output=True, text=True, check=True).stdout
        for line in out.splitlines():
            obj, _, rest = line.partition(':')  # nm -A: "FILE:VALUE TYPE NAME"
            if obj not in objs:
                continue
            f = objs[obj]
            parts = rest.split()
            if len(parts) == 2 and parts[0] == 'U':
                uses[f].add(parts[1])
            elif len(parts) == 3 and parts[1] in 'TDBRCGSV':
                defs[f].add(parts[2])
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
    'util': r'arena_|buf_|vec_|intern|diag_|x(malloc|calloc|realloc|strdup|strndup)$|die_at$|die_catch_|die_test_point_at$|dtype_|npy_|jpos_|jr_|'
            r'outputs_|tempdir_|read_file|write_file|file_|nearest_',
    'ir/sym': r'sym_',
    'ir/isa': r'isa_',
    'ir': r'kernel_|op_|region_|shape_|mfunc_|mblock_|mir_|mop_|mo_|rc_|target_|addr_space|value_|graph_|con_|mma_',
    'frontend': r'load_kernel|ld_',
    'interp': r'interp_|it_|run_',
    'passes/graph': r'analysis_|analyze_|subst_|index_|eliminate_dead_ops$|bound_masked_loops$',
    'passes/plan': r'plan_',
    'passes/machine': r'insert_waitcnt$|check_waitcnt$|resolve_hazards$|check_hazards$|relax_branches$|hoist_invariants$|eliminate_redundant$|raise_priorities$|hazard_|hz_|sched_',
    'isel': r'select_instructions$|isel_',
    'regalloc': r'regalloc_|regassign_|spill_|coalesce_copies$',
    'asm': r'asm_|emit_|llvm_mc_',
    'loader/codeobj': r'codeobj_|kd_|metadata_|input_file',
    'loader/emu': r'emu_',
    'loader/timing': r'tm_',
    'loader/runtime': r'launch_|hip_',
    'driver': r'compile_|wavecc_|stats_|api_|allocate_registers$|check_allocation$',
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


DOC = 'docs/architecture.md'
PIPELINE_SRC = 'driver/pipeline.c'
DIAGRAM_NOT_ROWS = {'frontend'}  # the loader runs before the pipeline, on its own


def makefile_stages():
    """the library folders: the Makefile's STAGES"""
    m = re.search(r'^STAGES\s*=\s*(.*)$', open('Makefile', encoding='utf-8').read(), re.M)
    if not m or not m.group(1).split():
        sys.exit('deps.py: no STAGES = ... line in the Makefile')
    return m.group(1).split()


def library_sources():
    out = []
    for r in makefile_stages():
        for d, _, files in os.walk(r):
            out += [os.path.join(d, f) for f in files if f.endswith('.c')]
    return sorted(out)


def pipeline_rows():
    """the rows of the PIPELINE X-macro, in order"""
    src = open(PIPELINE_SRC, encoding='utf-8').read()
    m = re.search(r'^#\s*define\s+PIPELINE\(X\)[^\n]*\\\n((?:[^\n]*\\\n)*[^\n]*)', src, re.M)
    if not m:
        sys.exit('deps.py: no #define PIPELINE(X) in %s' % PIPELINE_SRC)
    rows = re.findall(r'\bX\(\s*(\w+)\s*,', m.group(1))
    if not rows:
        sys.exit('deps.py: no X(name, ...) rows in %s\'s PIPELINE' % PIPELINE_SRC)
    return rows


def doc_section(text, title):
    """the text under '## title' up to the next '## ' heading"""
    m = re.search(r'^## ' + re.escape(title) + r'[ \t]*\n(.*?)(?=^## |\Z)', text, re.M | re.S)
    return m.group(1) if m else None


def diagram_rows(section):
    """the names the pipeline diagram puts on its arrows, in order"""
    m = re.search(r'^```[^\n]*\n(.*?)^```', section, re.M | re.S)
    if not m:
        return None
    names = []
    for label in re.findall('\u2500\u2500([^\u2500\u25b6]+)\u2500\u2500\u25b6', m.group(1)):
        for part in label.split(','):
            name = re.sub(r'\(.*?\)', '', part).strip()
            if name:
                names.append(name)
    return names


def doc_problems():
    """what docs/architecture.md misses or names wrongly (see the top)"""
    try:
        text = open(DOC, encoding='utf-8').read()
    except OSError as e:
        return ['cannot read it: %s' % e.strerror]
    out = []
    folders = doc_section(text, 'Folders')
    if folders is None:
        out.append('no "## Folders" section')
    else:
        named = set(re.findall(r'^\s*[-*] `([^`\s]+)`', folders, re.M))
        for f in library_sources():
            if f not in named:
                out.append('library file %s has no line in "Folders" (add "- `%s` — what it does" to its '
                           'folder\'s list)' % (f, f))
    pipe = doc_section(text, 'The pipeline')
    drawn = diagram_rows(pipe) if pipe is not None else None
    if drawn is None:
        out.append('no pipeline diagram (a ``` block under "## The pipeline")')
    else:
        rows = pipeline_rows()
        drawn = [n for n in drawn if n not in DIAGRAM_NOT_ROWS]
        for r in rows:
            if r not in drawn:
                out.append('pipeline row %s (PIPELINE in %s) is not in the pipeline diagram' % (r, PIPELINE_SRC))
        for n in drawn:
            if n not in rows:
                out.append('the pipeline diagram names %s, which is no PIPELINE row of %s' % (n, PIPELINE_SRC))
        for n in sorted({n for n in drawn if drawn.count(n) > 1}):
            out.append('the pipeline diagram names %s more than once' % n)
        both = [n for i, n in enumerate(drawn) if n in rows and n not in drawn[:i]]
        want = [r for r in rows if r in drawn]
        if both != want:
            i = next(i for i, (a, b) in enumerate(zip(both, want)) if a != b)
            out.append('the pipeline diagram has the rows in another order than PIPELINE in %s: %s where it has %s'
                       % (PIPELINE_SRC, both[i], want[i]))
    for p in sorted(set(re.findall(r'`([A-Za-z0-9_.-]+(?:/[A-Za-z0-9_.-]+)+)/?`', text))):
        if os.path.isdir(p.split('/')[0]) and not os.path.exists(p):
            out.append('names %s, which does not exist' % p)
    return out


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
    doc = doc_problems()
    for p in doc:
        print('deps: %s: %s' % (DOC, p))
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
    print('deps: %s: %d problems (library files, pipeline rows, paths)' % (DOC, len(doc)))
    sys.exit(1 if bad or names or doc else 0)


if __name__ == '__main__':
    main()
