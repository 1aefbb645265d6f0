# over80.py WIDTH FIXES: the lines of stdin wider than WIDTH columns (display
# columns: wide characters 2, combining marks and colour sequences 0) that
# are not allowed to be, each printed with its width (tests/e2e/ux.sh,
# columns.sh). A line may be wider only when it is a command kept whole --
# a line of the file FIXES (its part before "   (" or "   # " too), the command after a
# ": " in one, or such a command shown after a "# PS> " prompt, the
# PowerShell commands of a plan -- or, after its label or a comment's "# ",
# a single word (a path, a URL) that no line could hold. FIXES "-" is none.
#
# over80.py WIDTH --each LIST: the same for many outputs in one process
# (a Python start-up costs more than the check): each line of LIST is
# "FIXES<tab>FILE", and what stdin would give for FILE goes to FILE.over
# (empty when all fit; the error, when FILE could not be judged), and to
# FILE.widest the width of its widest line (ux.sh's "widest": wide
# characters 2, every other character 1).
import re, sys, unicodedata

def allowed(fixes):
    whole, inside = set(), []
    if fixes != "-":
        for f in open(fixes, encoding="utf-8"):
            f = f.rstrip("\n")
            cmd = f.split("   (")[0].split("   # ")[0]  # a remark: the views' "(...)", the JSON's "# ..."
            whole.update((f, cmd))
            inside.append(cmd)
    return whole, inside

def cols(s):
    s = re.sub(r"\x1b\[[0-9;]*m", "", s)
    return sum(0 if unicodedata.combining(c) else 2 if unicodedata.east_asian_width(c) in "WF" else 1
               for c in s)

def over(output, width, whole, inside):
    for line in output.split("\n"):
        if cols(line) <= width:
            continue
        text = re.sub(r"\x1b\[[0-9;]*m", "", line).strip()
        if text in whole:
            continue
        for label in ("fix ", "more ", "check ", "confirm ", "source ", "regex ", "match "):
            if text.startswith(label):
                text = text[len(label):].strip()
        if text[:2] in ("· ", "* ") and ": " in text:
            text = text.split(": ", 1)[1].strip()
        if text.startswith("# PS> "):
            text = text[6:]
        elif text.startswith("# "):
            text = text[2:]  # a comment line of a fix: a word alone on it is a URL or a path
        cmd = text.split("   (")[0]
        if text in whole or cmd in whole or " " not in text or any(": " + text in c for c in inside):
            continue
        yield "%d %s" % (cols(line), line)

width = int(sys.argv[1])
if sys.argv[2] != "--each":
    whole, inside = allowed(sys.argv[2])
    for bad in over(sys.stdin.read(), width, whole, inside):
        print(bad)
    sys.exit(0)
known = {}
for item in open(sys.argv[3], encoding="utf-8"):
    fixes, path = item.rstrip("\n").split("\t", 1)
    with open(path + ".over", "w", encoding="utf-8") as out:
        try:
            if fixes not in known:
                known[fixes] = allowed(fixes)
            # decoded as stdin would be
            with open(path, encoding=sys.stdin.encoding, errors=sys.stdin.errors) as f:
                text = f.read()
            for bad in over(text, width, *known[fixes]):
                print(bad, file=out)
            with open(path + ".widest", "w", encoding="utf-8") as w:
                print(max(sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in l)
                          for l in text.split("\n")), file=w)
        except Exception as e:  # noqa: BLE001 -- any failure to judge is a failure
            print("over80.py: %s: %s" % (path, e), file=out)
