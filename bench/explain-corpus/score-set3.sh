#!/bin/bash
# score.sh BINARY OUTDIR [JUDGED.tsv]
#
# Re-runs the set-3 held-out measurement of issue 27 with another wslgpu binary, exactly as the
# "before" figures were taken (set 2's method): explain sees only the text after the first `---`
# line of each paste, no --platform, run on whatever machine this is (the before run: the helper
# container, native Linux host, no GPU).
#
#   OUTDIR/raw/NNN.json, raw/NNN.txt            explain --json / human output per GPU paste
#   OUTDIR/raw/nongpu-NNN.json, .txt            the same for the non-GPU texts
#   OUTDIR/heldout.md                           tools/measure.py table: recognised, layer right (loose and
#                                               strict), automatic harmful reading, false positives, per
#                                               family / platform, and "first cause right" if JUDGED given
#   OUTDIR/mechanical.tsv                       one row per GPU paste: recognised, layer right, explain's
#                                               first signature / cause / layer / first fix
#   OUTDIR/to-judge.md                          what a person must read: for each confirmed paste the
#                                               thread's cause next to explain's first cause and fix; for
#                                               every paste the pre-registered harmful_if next to the first fix
#
# "cause first" and "harmful" are judged by reading to-judge.md against the pre-registered labels in
# the paste headers (confirmed_cause, harmful_if); write the verdicts as `heldout/NNN.txt<TAB>yes|no`
# lines (see judged-heldout-before.tsv) and pass that file as JUDGED to get the cause-first line.
set -eu
[ $# -ge 2 ] || { echo "usage: $0 BINARY OUTDIR [JUDGED.tsv]" >&2; exit 2; }
bin=$(readlink -f "$1"); out=$2; judged=${3:-}
# CORPUS: the set-3 directory (heldout/, tools/measure.py: the scorer as it was
# at ac81f71, kept there unchanged so that before and after are scored alike)
here=${CORPUS:-/work/notes/27/set3}
[ -x "$bin" ] || { echo "score.sh: $bin is not executable" >&2; exit 2; }
mkdir -p "$out/raw"
body() { sed '1,/^---$/d' "$1"; }
for f in "$here"/heldout/[0-9]*.txt; do
  n=$(basename "$f" .txt)
  body "$f" | NO_COLOR=1 "$bin" explain --json > "$out/raw/$n.json" || true
  body "$f" | NO_COLOR=1 "$bin" explain > "$out/raw/$n.txt" 2>&1 || true
done
for f in "$here"/heldout/nongpu/[0-9]*.txt; do
  n=$(basename "$f" .txt)
  body "$f" | NO_COLOR=1 "$bin" explain --json > "$out/raw/nongpu-$n.json" || true
  body "$f" | NO_COLOR=1 "$bin" explain > "$out/raw/nongpu-$n.txt" 2>&1 || true
done
if [ -n "$judged" ]; then
  python3 "$here/tools/measure.py" "$bin" "$here/heldout" "$judged" > "$out/heldout.md"
else
  python3 "$here/tools/measure.py" "$bin" "$here/heldout" > "$out/heldout.md"
fi
python3 - "$here" "$out" <<'PY'
import json, os, sys
sys.path.insert(0, os.path.join(sys.argv[1], 'tools'))
import measure
here, out = sys.argv[1], sys.argv[2]
d = os.path.join(here, 'heldout')
rows, judge = [], ['# set 3 held-out: what a person must judge\n',
                   'For each confirmed paste: does explain\'s first cause agree with the thread\'s cause in substance '
                   '(same component, same action)? For every paste: is the first fix harmful or platform-wrong per harmful_if?\n']
for f in sorted(x for x in os.listdir(d) if x.endswith('.txt')):
    h, _ = measure.parse(os.path.join(d, f))
    j = json.load(open(os.path.join(out, 'raw', f[:-4] + '.json')))
    m, c = measure.first_answer(j)
    layers = {h.get('layer'), h.get('layer_alt')} - {None, ''}
    sig = m['signature'] if m else '-'
    slay = m['layer'] if m else '-'
    cid = c['id'] if c else '-'
    clay = c['layer'] if c else '-'
    fix = ((c.get('fix') or ['-'])[0] if c else '-').replace('\t', ' ')
    title = (c.get('title') or '-') if c else '-'
    strict = clay in layers
    loose = strict or slay in layers
    auto = measure.harmful(h, c) or ''
    rows.append([f, h.get('family', ''), h.get('platform', ''), h.get('layer', '') + '/' + h.get('layer_alt', ''),
                 h.get('confirmed', ''), 'y' if m else 'n', 'y' if loose else 'n', 'y' if strict else 'n',
                 sig, cid, clay, fix, auto])
    judge.append(f"## heldout/{f} ({h.get('family')}, {h.get('platform')}, confirmed: {h.get('confirmed')})\n")
    if h.get('confirmed') == 'yes':
        judge.append(f"- thread's cause: {h.get('confirmed_cause')}")
    judge.append(f"- harmful_if: {h.get('harmful_if')}")
    judge.append(f"- explain: {sig} -> {cid}: {title}")
    judge.append(f"- first fix: {fix}")
    if auto:
        judge.append(f"- automatic harmful flag: {auto}")
    judge.append('')
with open(os.path.join(out, 'mechanical.tsv'), 'w') as o:
    o.write('file\tfamily\tplatform\tlayer/alt\tconfirmed\trecognised\tlayer_right\tlayer_strict\tsignature\tfirst_cause\tcause_layer\tfirst_fix\tauto_harmful\n')
    for r in rows:
        o.write('\t'.join(r) + '\n')
open(os.path.join(out, 'to-judge.md'), 'w').write('\n'.join(judge) + '\n')
n = len(rows)
print(f"GPU pastes {n}: recognised {sum(r[5]=='y' for r in rows)}, layer right {sum(r[6]=='y' for r in rows)} "
      f"(strict {sum(r[7]=='y' for r in rows)}), automatic harmful flags {sum(bool(r[12]) for r in rows)}; "
      f"confirmed {sum(r[4]=='yes' for r in rows)} (judge them in {out}/to-judge.md)")
PY
echo "tables: $out/heldout.md"
