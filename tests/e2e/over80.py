# over80.py WIDTH FIXES: the lines of stdin wider than WIDTH columns (display
# columns: wide characters 2, combining marks and colour sequences 0) that
# are not allowed to be, each printed with its width (tests/e2e/ux.sh,
# columns.sh). A line may be wider only when it is a command kept whole --
# a line of the file FIXES (its part before "   (" or "   # " too), the command after a
# ": " in one, or such a command shown after a "# PS> " prompt, the
# PowerShell commands of a plan -- or, after its label or a comment's "# ",
# a single word (a path, a URL) that no line could hold. FIXES "-" is none.
import re, sys, unicodedata
width, fixes = int(sys.argv[1]), sys.argv[2]
whole, inside = set(), []
if fixes != "-":
    for f in open(fixes, encoding="utf-8"):
        f = f.rstrip("\n")
        cmd = f.split("   (")[0].split("   # ")[0]  # a remark: the views' "(...)", the JSON's "# ..."
        whole.update((f, cmd))
        inside.append(cmd)
def cols(s):
    s = re.sub(r"\x1b\[[0-9;]*m", "", s)
    return sum(0 if unicodedata.combining(c) else 2 if unicodedata.east_asian_width(c) in "WF" else 1
               for c in s)
for line in sys.stdin.read().split("\n"):
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
    print(cols(line), line)
