"""Session 60 evidence: the tells the session removed, counted on the tree on PYTHONPATH.

    PYTHONPATH=<checkout> python notes/evidence/tells_session60.py   (run from outside the checkout)
"""
import ast, sys, collections
from synthesis.categories import generate
class Shape:
    def __getitem__(self,i): return 1000
class Arr:
    shape=Shape()
class WP:
    clamp=staticmethod(lambda x,a,b: max(a,min(b,x)))
    min=staticmethod(min); max=staticmethod(max)
def loop_reads(loop, tid_names):
    it=loop.iter
    if not (isinstance(it,ast.Call) and getattr(it.func,'id','')=='range'): return None
    try:
        rargs=[eval(compile(ast.Expression(a),'','eval'),{}) for a in it.args]
    except Exception: return None
    if not isinstance(loop.target,ast.Name): return None
    kname=loop.target.id
    # local assignments inside loop like j = expr
    local={}
    reads=set()
    for k in range(*rargs):
        env={'wp':WP(), kname:k, 'float':float,'int':int}
        for t in tid_names: env[t]=50
        class D(dict):
            def __missing__(self,key): return Arr()
        env=D(env)
        pos=set()
        for st in ast.walk(loop):
            if isinstance(st,ast.Assign) and len(st.targets)==1 and isinstance(st.targets[0],ast.Name):
                try: env[st.targets[0].id]=eval(compile(ast.Expression(st.value),'','eval'),{},env)
                except Exception: pass
        for n in ast.walk(loop):
            if isinstance(n,ast.Subscript) and isinstance(n.value,ast.Name):
                try:
                    v=eval(compile(ast.Expression(n.slice),'','eval'),{},env)
                    pos.add((n.value.id, v))
                except Exception: pass
        reads|=pos
    return frozenset(r for r in reads)
def same_window_pairs(fn):
    tids=[]
    for st in fn.body:
        if isinstance(st,ast.Assign) and isinstance(st.value,ast.Call) and getattr(st.value.func,'attr','')=='tid':
            t=st.targets[0]
            tids=[e.id for e in t.elts] if isinstance(t,ast.Tuple) else [t.id]
    loops=[s for s in fn.body if isinstance(s,ast.For)]
    rs=[(l,loop_reads(l,tids)) for l in loops]
    out=[]
    for i in range(len(rs)):
        for j in range(i+1,len(rs)):
            a,b=rs[i][1],rs[j][1]
            if a and b:
                # shared array reads with same position set
                arrs={x[0] for x in a}&{x[0] for x in b}
                for arr in arrs:
                    pa={p for (n,p) in a if n==arr}; pb={p for (n,p) in b if n==arr}
                    if len(pa)>1 and pa==pb: out.append((rs[i][0].lineno,rs[j][0].lineno,arr))
    return out
import ast, re, sys, collections

from synthesis.categories import generate
out = {}
# 1. two loops over the same window elements (control flow, seeds 0-1499)
out['control_flow: two loops read the same window elements (of 1500)'] = sum(
    1 for s in range(1500) if any(same_window_pairs(fn) for fn in ast.parse(generate('control_flow', s).source).body if isinstance(fn, ast.FunctionDef)))
# 2. a launch index rebound by a loop (control flow, 1500)
def rebinds(src):
    m = re.search(r"^    (\w+(?:, \w+)*) = wp\.tid\(\)", src, re.M)
    return bool(m and set(m.group(1).split(", ")) & set(re.findall(r"for (\w+) in ", src)))
out['control_flow: a loop variable rebinds a launch index (of 1500)'] = sum(rebinds(generate('control_flow', s).source) for s in range(1500))
# 3. stencil state named for another field (single-field kernels, 3000)
from synthesis.categories import stencil
n = 0
for s in range(3000):
    if stencil.chooses_field_advection(s) or stencil.channels.chooses_channels(s):
        continue
    sp = generate('stencil', s); field = sp.args[0].name
    n += any((m := re.fullmatch(r"(\w+)_(?:new|next|prev|src)", a.name)) and m.group(1) != field for a in sp.args[1:])
out['stencil: a level named for another field (of 3000)'] = n
# 4. multi_conditional pos_out beside px/x (600)
n = 0
for s in range(600):
    sp = generate('multi_conditional', s); names = {a.name for a in sp.args}
    n += 'pos_out' in names and 'pos' not in names
out['multi_conditional: pos_out beside px or x (of 600)'] = n
# 5. transform: v_world / v_rot of a force, normal or direction (800)
n = 0
for s in range(800):
    src = generate('transform', s).source
    for local, vec, idx in re.findall(r"^\s+(v_world|v_rot) = wp\.(?:transform_vector|quat_rotate(?:_inv)?)\([^,]+, (\w+)(\[tid\])?\)", src, re.M):
        arr = vec if idx else (re.search(rf"^\s+{vec} = (\w+)\[tid\]", src, re.M) or [None, vec])[1]
        if arr in ('forces', 'normals', 'dirs'):
            n += 1; break
out['transform: a force, normal or direction named v_world / v_rot (of 800)'] = n
# 6. tiled: mixed extent naming (1500)
n = 0
for s in range(1500):
    c = set(re.findall(r"^([A-Z_0-9]+) = ", generate('tiled', s).source, re.M))
    ext = {x for x in c if re.fullmatch(r"(TILE|BLOCK)_[MNK]", x)}
    n += len({x.split('_')[0] for x in ext}) > 1 or ('COLS' in c and bool(c & {'TILE_M', 'BLOCK_M'})) or (bool(c & {'TILE_N', 'BLOCK_N'}) and not c & {'TILE_M', 'BLOCK_M'})
out['tiled: mixed tile-extent naming (of 1500)'] = n
# 7. SoA components updated unalike (vector + matrix, 800 each)
n = 0
for cat in ('vector', 'matrix'):
    for s in range(800):
        ops = collections.defaultdict(set)
        for m in re.finditer(r"^\s+(\w+)_([xyzw])\[[^\]]*\] (\+=|-=|\*=|=)", generate(cat, s).source, re.M):
            ops[m.group(1)].add(m.group(3))
        n += any(len(v) > 1 for v in ops.values())
out['vector + matrix: a vector\'s components updated unalike (of 1600)'] = n
# 8. loads before an early return (particles, atomic: 600 each)
def loads_before(fn):
    for i, st in enumerate(fn.body):
        if isinstance(st, ast.If) and not st.orelse and len(st.body) == 1 and isinstance(st.body[0], ast.Return):
            for k, b in enumerate(fn.body[:i]):
                if isinstance(b, ast.Assign) and isinstance(b.value, ast.Subscript) and isinstance(b.targets[0], ast.Name):
                    read = {x.id for t in fn.body[k + 1:i + 1] for x in ast.walk(t) if isinstance(x, ast.Name)}
                    if b.targets[0].id not in read:
                        return True
    return False
for cat in ('particles', 'atomic'):
    out[f'{cat}: a load before an early return that does not need it (of 600)'] = sum(
        any(loads_before(f) for f in ast.parse(generate(cat, s).source).body if isinstance(f, ast.FunctionDef)) for s in range(600))
# 9. redundant return (particles 600)
R = re.compile(r"^(\s+)if [^\n]*:\n(?:\1    [^\n]*\n)*\1    return (\w+)\n\1return \2\n", re.M)
out['particles: a branch returns what the function returns after it (of 600)'] = sum(bool(R.search(generate('particles', s).source)) for s in range(600))
# 10. a prediction's arg-max found by a second loop over the row (arithmetic's cross-entropy, seeds 0-19999)
from synthesis.categories import quantized
n = 0
for s in range(20000):
    if quantized.chooses_quantized(s):
        spec = generate('arithmetic', s)
        n += 'prediction correct' in spec.description and len(re.findall(r"^    for \w+ in range\(", spec.source, re.M)) == 3
out['arithmetic: an arg-max loop beside the max loop over the same row (of 20000)'] = n
for k, v in out.items():
    print(f"{v:5d}  {k}")
