#!/usr/bin/env python3
"""split.py DIR SET MINERS [BATCH]: merge the collectors' files of set SET under DIR (DIR/MINER/pool for GPU
pastes, DIR/MINER/nongpu for non-GPU texts; MINERS comma-separated, a,b,c), drop threads already used (the URLs
in DIR/existing-urls.txt, one a line, only its first whitespace-separated field read: every URL in the
repository's files and earlier sets; or named in /work/main or a work tree) and duplicates, and split by the
set-1 rule into DIR/heldout and DIR/tuning, writing DIR/manifest-setSET.tsv (DIR/manifest-setSET-batchBATCH.tsv
with BATCH). Set 8: `split.py DIR 8 a,b,c`; set 9 was split in two batches as its collectors finished:
`split.py DIR 9 a,b,c,d,f 1`, then `split.py DIR 9 e 2`.
Rule: key = exact url: header value; h = sha256(key) hex; GPU and non-GPU split separately; distinct URLs sorted
by h; the lowest ceil(0.40*N) held out."""
import hashlib, math, os, re, subprocess, sys, shutil
if len(sys.argv) < 4:
    sys.exit('usage: split.py DIR SET MINERS [BATCH]')
base = sys.argv[1]
existing = set()
def norm(u):
    u = u.strip().split()[0].lower() if u.strip() else ''
    u = u.split('#')[0].split('?')[0].rstrip('/')
    u = re.sub(r'^https?://(www\.)?', '', u)
    return u.replace('/pull/', '/issues/')
for line in open(os.path.join(base, 'existing-urls.txt')):
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
SET = sys.argv[2]
MINERS = sys.argv[3].split(',')
BATCH = sys.argv[4] if len(sys.argv) > 4 else None
for miner in MINERS:
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
name = 'manifest-set%s%s.tsv' % (SET, '-batch' + BATCH if BATCH else '')
with open(os.path.join(base, name), 'w') as m:
    m.write('file\tsplit\tsha256_url\turl\tfamily\tplatform\tlayer\tconfirmed\n')
    for r in sorted(out, key=lambda r: (r[1], r[0])):
        m.write('\t'.join(r) + '\n')
for p, why in dropped:
    print('dropped', p, why)
