#!/usr/bin/env python3
"""Set 2 split, the same rule as set 1 (bench/explain-corpus/SPLIT.md): sha256(url as written on the
'url:' line, UTF-8, no newline); distinct URLs sorted by hex digest; the lowest ceil(0.40*N) held out;
GPU pool and non-GPU texts split separately. Files keep their NNN number. Writes manifest.tsv."""
import glob, hashlib, math, os, shutil
root = '/work/notes/27/new'
def hdr(f):
    d = {}
    for l in open(f):
        if l.rstrip('\n') == '---': break
        k, _, v = l.partition(':'); d[k.strip()] = v.strip()
    return d
if not glob.glob(f'{root}/pool/[0-9][0-9][0-9].txt'):
    raise SystemExit('pool/ is empty: the split is already done')
rows = []
for kind, src in (('gpu', 'pool'), ('nongpu', 'nongpu')):
    files = sorted(glob.glob(f'{root}/{src}/[0-9][0-9][0-9].txt'))
    urls = {}
    for f in files:
        urls.setdefault(hdr(f)['url'], []).append(f)
    h = {u: hashlib.sha256(u.encode('utf-8')).hexdigest() for u in urls}
    order = sorted(urls, key=lambda u: h[u])
    k = math.ceil(0.40 * len(order))
    held = set(order[:k])
    print(kind, len(order), 'held out', k, 'last held', h[order[k-1]][:8], 'first tuning', h[order[k]][:8])
    for u in order:
        split = 'heldout' if u in held else 'tuning'
        for f in urls[u]:
            d = hdr(f)
            dst = f'{root}/{split}' + ('/nongpu' if kind == 'nongpu' else '')
            os.makedirs(dst, exist_ok=True)
            shutil.move(f, os.path.join(dst, os.path.basename(f)))
            rows.append((kind, split, os.path.relpath(os.path.join(dst, os.path.basename(f)), root), h[u], u,
                         d.get('family', ''), d.get('platform', ''), d.get('layer', ''), d.get('confirmed', '')))
with open(f'{root}/manifest.tsv', 'w') as o:
    o.write('kind\tsplit\tfile\tsha256_url\turl\tfamily\tplatform\tlayer\tconfirmed\n')
    for r in sorted(rows, key=lambda r: (r[0], r[1], r[3])):
        o.write('\t'.join(r) + '\n')
print(len(rows))
