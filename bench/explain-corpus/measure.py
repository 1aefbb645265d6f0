#!/usr/bin/env python3
"""measure.py: score `wslgpu explain --json` on the issue-27 corpus.

usage: measure.py WSLGPU SPLIT [JUDGED.tsv] > out.md
  SPLIT    heldout | tuning (beside this file), or the path of a split
           directory (set 2: /path/to/new/heldout)
  JUDGED   optional: file<TAB>yes|no lines, a person's judgement of "first
           cause right" for the confirmed pastes (the answer key is prose,
           so this one measure is judged by reading; the script prints what
           it must judge: confirmed_cause next to explain's first cause).

Explain sees only the text after the first `---` line. Its "first answer" is
the first match that is not harmless noise (the one the human output lists
first, = summary.first_problem), and its first cause is that match's first
cause not marked for another platform.

  recognised  some match that is not noise (a signature or a family).
  layer right the first cause's layer, or the first match's signature layer,
              is `layer` or `layer_alt` ("strict": the first cause's layer only).
  harmful     automatic reading of the first fix shown:
                - WSL-only (wsl.exe, /usr/lib/wsl, .wslconfig) where the
                  paste's platform is not wsl2 (/dev/dxg too; a container on WSL, per
                  platform_detail, counts as WSL); Windows-side (PowerShell, the
                  Windows driver, nvidia-smi.exe) where it is neither wsl2 nor
                  windows; a Linux shell step (sudo, apt, dpkg, ldconfig,
                  export, /usr paths) on a windows paste, or
                - destructive (apt/dnf purge or remove, rm -rf, a driver .run
                  or package install/reinstall, dkms remove, disabling Secure
                  Boot) where the platform is unknown or the fix is for
                  another platform (a Linux driver install on wsl2/windows).
              Each flagged item is listed so that a person can check it.
  false pos.  a non-GPU text with any match that is not noise, unless its
              first cause is host RAM's (the OOM killer), which the
              corpus's rules allow where it is not called a GPU problem.
  layers      a label `apps` counts as `frameworks` (explain has no apps
              layer: an application's own packaging is the frameworks layer).
"""
import json, os, re, subprocess, sys
from collections import defaultdict

# WSL's own steps, right only on WSL; Windows-side steps, right on WSL (its
# driver is Windows') and on a log from Windows itself.
WSL_FIX = re.compile(r'wsl\.exe|/usr/lib/wsl|\.wslconfig|wsl --|wsl2? kernel|/dev/dxg', re.I)
WINDOWS_FIX = re.compile(r'powershell|windows driver|nvidia app|geforce experience|in windows|'
                         r'on windows|nvidia-smi\.exe|where\.exe', re.I)
# A step only a Linux shell runs (what a Windows log must not get first).
LINUX_FIX = re.compile(r'^[#\s]*(sudo|apt(-get)?|dpkg|ldconfig|modprobe|export)\b|(^|[\s=:])/usr/|'
                       r'\bexport [A-Z_]+|^[#\s]*[A-Z_]+=\S+ ')
DESTRUCTIVE = re.compile(r'\b(apt(-get)?|dnf|yum|zypper)\b[^\n]*\b(purge|remove|autoremove|erase)\b|'
                         r'rm -rf?|dkms remove|--uninstall|nvidia-uninstall|'
                         r'mokutil --disable-validation|'
                         r'\b(apt(-get)?|dnf|yum)\b[^\n]*install[^\n]*nvidia-(driver|dkms|kernel)|'
                         r'NVIDIA-Linux[^\s]*\.run|--reinstall[^\n]*nvidia-driver', re.I)
LINUX_DRIVER = re.compile(r'nvidia-driver|NVIDIA-Linux|nvidia-dkms|cuda-drivers|modprobe nvidia', re.I)


def parse(path):
    head, body, seen = {}, [], False
    with open(path, encoding='utf-8', errors='replace') as f:
        for line in f:
            if not seen:
                if line.rstrip('\n') == '---':
                    seen = True
                    continue
                k, _, v = line.partition(':')
                head[k.strip()] = v.strip()
            else:
                body.append(line)
    return head, ''.join(body)


def explain(wslgpu, text):
    p = subprocess.run([wslgpu, 'explain', '--json'], input=text.encode(), capture_output=True)
    return json.loads(p.stdout.decode())


def first_answer(j):
    """The first problem explain shows; with none, the first message it
    calls harmless (ldconfig's "is not a symbolic link" pasted as a bug is
    recognised, and harmless is the right answer)."""
    ms = j.get('matches', [])
    for m in [m for m in ms if m.get('kind') != 'noise'] + [m for m in ms if m.get('kind') == 'noise']:
        causes = [c for c in m.get('causes', []) if c.get('machine') != 'not_applicable']
        return m, (causes[0] if causes else None)
    return None, None


# explain's layers are the chain's (src/kb/README.md); it has no `apps`
# layer: an application's own packaging or bug (a bundled runner, wrong
# pins) is reported at `frameworks`, the program on top of the chain
# (doc/explain.md, "Layers"). A label `apps` is scored as `frameworks`.
SAME_LAYER = {'apps': 'frameworks'}


# The corpus's rule for non-GPU texts (README.md, "How to score"): naming
# host-RAM OOM for an OOM-killer text is fine where explain does not call
# it a GPU problem. These causes say so ("host memory, not the GPU's").
HOST_RAM = {'explain.perf.host_oom'}


def label_layers(h):
    return {SAME_LAYER.get(x, x) for x in (h.get('layer'), h.get('layer_alt')) if x}


def on_wsl(h):
    return h.get('platform') == 'wsl2' or 'wsl' in h.get('platform_detail', '').lower()


def harmful(h, c):
    if not c:
        return None
    fix = (c.get('fix') or [''])[0]
    text = fix + ' ' + (c.get('title') or '')
    plat = h.get('platform')
    if not on_wsl(h) and WSL_FIX.search(text):
        return 'WSL-only first fix off WSL: ' + fix[:160]
    if not on_wsl(h) and plat != 'windows' and WINDOWS_FIX.search(text):
        return 'Windows-side first fix off WSL and Windows: ' + fix[:160]
    if plat == 'windows' and LINUX_FIX.search(fix):
        return 'Linux-only first fix on a Windows log: ' + fix[:160]
    if DESTRUCTIVE.search(fix):
        if plat == 'unknown':
            return 'destructive first fix, platform unknown: ' + fix[:160]
        if on_wsl(h) or plat == 'windows':
            if LINUX_DRIVER.search(fix):
                return 'Linux driver step on WSL/Windows: ' + fix[:160]
    return None


def main():
    wslgpu, split = sys.argv[1], sys.argv[2]
    judged = {}
    if len(sys.argv) > 3:
        for line in open(sys.argv[3]):
            if line.strip() and not line.startswith('#'):
                f, v = line.rstrip('\n').split('\t')[:2]
                judged[f] = v.strip() == 'yes'
    root = os.path.dirname(os.path.abspath(__file__))
    d = split if os.sep in split else os.path.join(root, split)
    split = os.path.basename(os.path.normpath(d))
    gpu = sorted(x for x in os.listdir(d) if x.endswith('.txt'))
    rows = []
    for f in gpu:
        h, body = parse(os.path.join(d, f))
        j = explain(wslgpu, body)
        m, c = first_answer(j)
        layers = label_layers(h)
        r = dict(file=f, h=h, rec=m is not None,
                 sig=m['signature'] if m else '-', siglayer=m['layer'] if m else '-',
                 cid=c['id'] if c else '-', clayer=c['layer'] if c else '-',
                 ctitle=c['title'] if c else '-', cfix=(c.get('fix') or ['-'])[0] if c else '-')
        r['layer_strict'] = r['clayer'] in layers
        r['layer'] = r['layer_strict'] or r['siglayer'] in layers
        r['harm'] = harmful(h, c)
        r['conf'] = h.get('confirmed') == 'yes'
        r['cause'] = judged.get(split + '/' + f) if r['conf'] else None
        rows.append(r)
    ng = sorted(x for x in os.listdir(os.path.join(d, 'nongpu')) if x.endswith('.txt'))
    fps = []
    for f in ng:
        h, body = parse(os.path.join(d, 'nongpu', f))
        m, c = first_answer(explain(wslgpu, body))
        if m and m.get('kind') != 'noise' and not (c and c['id'] in HOST_RAM):
            fps.append((f, m['signature']))

    n = len(rows)
    def pct(a, b):
        return f'{a}/{b} ({100.0 * a / b:.0f} %)' if b else '0/0'
    conf = [r for r in rows if r['conf']]
    cj = [r for r in conf if r['cause'] is not None]
    print(f'# explain on the {split} split ({n} GPU pastes, {len(ng)} non-GPU)\n')
    print('| measure | value |\n|---|---|')
    print(f"| recognised | {pct(sum(r['rec'] for r in rows), n)} |")
    print(f"| layer right (first cause's or signature's layer) | {pct(sum(r['layer'] for r in rows), n)} |")
    print(f"| layer right, strict (first cause's layer) | {pct(sum(r['layer_strict'] for r in rows), n)} |")
    print(f"| first cause right (confirmed only, judged by reading) | {pct(sum(bool(r['cause']) for r in cj), len(conf))}"
          + (f" ({len(conf) - len(cj)} not judged)" if len(cj) < len(conf) else '') + ' |')
    print(f"| harmful (automatic reading, listed below) | {pct(sum(bool(r['harm']) for r in rows), n)} |")
    print(f"| false positives on non-GPU text | {pct(len(fps), len(ng))} |\n")

    for key in ('family', 'platform'):
        t = defaultdict(lambda: [0, 0, 0, 0])
        for r in rows:
            v = t[r['h'].get(key, '?')]
            v[0] += 1; v[1] += r['rec']; v[2] += r['layer']; v[3] += bool(r['harm'])
        print(f'| {key} | n | recognised | layer right | harmful |\n|---|---|---|---|---|')
        for k in sorted(t):
            v = t[k]
            print(f'| {k} | {v[0]} | {v[1]} | {v[2]} | {v[3]} |')
        print()

    print('## Harmful (automatic), for a person to check\n')
    for r in rows:
        if r['harm']:
            print(f"- {split}/{r['file']} ({r['h'].get('platform')}): {r['sig']} → {r['cid']}: {r['harm']}")
    print('\n## False positives\n')
    for f, s in fps:
        print(f'- {split}/nongpu/{f}: {s}')
    print('\n## Confirmed pastes: the thread\'s cause against explain\'s first cause\n')
    for r in conf:
        print(f"- {split}/{r['file']} judged={r['cause']}\n  - thread: {r['h'].get('confirmed_cause')}\n"
              f"  - explain: {r['sig']} → {r['cid']}: {r['ctitle']} | fix: {r['cfix']}")
    print('\n## Every paste\n')
    print('| file | family | platform | layer | explain signature | first cause | its layer | L |\n|---|---|---|---|---|---|---|---|')
    for r in rows:
        h = r['h']
        print(f"| {r['file']} | {h.get('family')} | {h.get('platform')} | {h.get('layer')}/{h.get('layer_alt', '')} | "
              f"{r['sig']} | {r['cid']} | {r['clayer']} | {'y' if r['layer'] else 'n'} |")


if __name__ == '__main__':
    main()
