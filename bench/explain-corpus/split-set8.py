#!/usr/bin/env python3
"""split8.py: merge miners' set-8 files, drop already-used and duplicate threads, split by the set-1 rule.
Rule: key = exact url: header value; h = sha256(key) hex; GPU and non-GPU split separately; distinct URLs sorted
by h; the lowest ceil(0.40*N) held out."""
import hashlib, math, os, re, subprocess, sys, shutil
base = sys.argv[1] if len(sys.argv) > 1 else '/work/notes/27/set8'
existing = set()
def norm(u):
    u = u.strip().lower().split('#')[0].split('?')[0].rstrip('/')
    u = re.sub(r'^https?://(www\.)?', '', u)
    return u.replace('/pull/', '/issues/')
for line in open('/work/notes/27/existing-urls.txt'):
    existing.add(norm(line))
def head(path):
    h = {}
    for line in open(path, encoding='utf-8', errors='replace'):
        if line.rstrip('\n') == '---':
            break
        k, _, v = line.partition(':')
        h[k.strip()] = v.strip()
    return h
def used_in_trees(u):
    m = re.search(r'github\.com/([^/]+/[^/]+)/(?:issues|pull|discussions)/(\d+)', u, re.I)
    pats = [norm(u).replace('github.com/', '')]
    if m:
        pats = [f'{m.group(1)}/issues/{m.group(2)}', f'{m.group(1)}/pull/{m.group(2)}', f'{m.group(1)}#{m.group(2)}']
    dirs = ['/work/main'] + [os.path.join('/work', d) for d in os.listdir('/work') if d.startswith('wt-')]
    for p in pats:
        r = subprocess.run(['grep', '-rliF', '--exclude-dir=.git', '--exclude-dir=build', '--exclude-dir=.cache', '--exclude-dir=build-clang', p] + dirs,
                           capture_output=True, text=True)
        if r.stdout.strip():
            return r.stdout.split()[0]
    return None
groups = {'gpu': [], 'nongpu': []}
seen = {}
dropped = []
for miner in ('a', 'b', 'c'):
    for kind, sub in (('gpu', 'pool'), ('nongpu', 'nongpu')):
        d = os.path.join(base, miner, sub)
        if not os.path.isdir(d):
            continue
        for f in sorted(os.listdir(d)):
            if not f.endswith('.txt'):
                continue
            p = os.path.join(d, f)
            h = head(p)
            u = h.get('url', '')
            n = norm(u)
            if not u:
                dropped.append((p, 'no url')); continue
            if n in existing:
                dropped.append((p, 'in existing-urls')); continue
            if n in seen:
                dropped.append((p, 'duplicate of ' + seen[n])); continue
            w = used_in_trees(u)
            if w:
                dropped.append((p, 'used in ' + w)); continue
            seen[n] = p
            groups[kind].append((hashlib.sha256(u.encode()).hexdigest(), u, miner, f, p, h))
out = []
for kind, items in groups.items():
    items.sort()
    k = math.ceil(0.40 * len(items))
    for i, (hx, u, miner, f, p, h) in enumerate(items):
        split = 'heldout' if i < k else 'tuning'
        d = os.path.join(base, split, 'nongpu' if kind == 'nongpu' else '')
        os.makedirs(d, exist_ok=True)
        name = f'{miner}-{f}'
        shutil.copy(p, os.path.join(d, name))
        out.append((('nongpu/' if kind == 'nongpu' else '') + name, split, hx, u, h.get('family', ''), h.get('platform', ''),
                    h.get('layer', ''), h.get('confirmed', '')))
    print(kind, len(items), 'held out', k)
os.makedirs(os.path.join(base, 'heldout', 'nongpu'), exist_ok=True)
os.makedirs(os.path.join(base, 'tuning', 'nongpu'), exist_ok=True)
with open(os.path.join(base, 'manifest-set8.tsv'), 'w') as m:
    m.write('file\tsplit\tsha256_url\turl\tfamily\tplatform\tlayer\tconfirmed\n')
    for r in sorted(out, key=lambda r: (r[1], r[0])):
        m.write('\t'.join(r) + '\n')
for p, why in dropped:
    print('dropped', p, why)
