# ux.sh: what a person sees, on the real binary at 80 columns (COLUMNS=80,
# as on a pipe): every human output fits, words wrap under their text with
# a hanging indent and commands meant to be copied stay whole; skipped
# checks are one line under the failure that holds them back; a repeated
# cause is said once; explain leads with the problems; the way from a
# finding to its knowledge-base entry; colour, marks, the locale; what
# fix, report and smoke say they did.
. "$(dirname "$0")/lib.sh"

# over WIDTH FIXES: the lines of stdin wider than WIDTH columns that are
# not allowed to be (tests/e2e/over80.py says which may be).
over() { python3 "$top/tests/e2e/over80.py" "$@"; }
# widest: the widest line of $OUT, in columns.
widest() {
	printf '%s\n' "$OUT" | python3 -c 'import sys, unicodedata
print(max(sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in l) for l in sys.stdin.read().split("\n")))'
}
expect_fits() { # WHAT [FIXES-FILE]: no line of $OUT is wider than 80 columns but those allowed
	bad=$(printf '%s\n' "$OUT" | over 80 "${2:--}")
	if [ -z "$bad" ]; then ok "$1 fits 80 columns (widest $(widest))"
	else fail "$1: lines wider than 80 columns:
$bad"; fi
}
# fits_later KIND WHAT FIXES: expect_fits (KIND fits) or the --help loop's
# test (KIND help: and no line wider at all) on $OUT, asked later, with
# the others, of one over80.py --each by fits_now (two Pythons for each
# output were most of this test's CPU); each keeps its line, its fixture
# and the run a failure shows.
FITS_N=0
FITS_LIST=$WORK/fits.list
mkdir "$WORK/fits"
: >"$FITS_LIST"
fits_later() {
	selected || return 0
	FITS_N=$((FITS_N + 1))
	printf '%s\n' "$OUT" >"$WORK/fits/$FITS_N"
	printf '%s\t%s\n' "$3" "$WORK/fits/$FITS_N" >>"$FITS_LIST"
	eval "FITS_KIND_$FITS_N=\$1 FITS_WHAT_$FITS_N=\$2 FITS_FIX_$FITS_N=\$FIXTURE"
	eval "FITS_OUT_$FITS_N=\$OUT FITS_ERR_$FITS_N=\$ERR"
}
fits_now() {
	[ "$FITS_N" -gt 0 ] || return 0
	python3 "$top/tests/e2e/over80.py" 80 --each "$FITS_LIST"
	_fix=$FIXTURE _out=$OUT _err=$ERR
	_fi=0
	while [ $_fi -lt "$FITS_N" ]; do
		_fi=$((_fi + 1))
		eval "_fkind=\$FITS_KIND_$_fi _fwhat=\$FITS_WHAT_$_fi FIXTURE=\$FITS_FIX_$_fi OUT=\$FITS_OUT_$_fi ERR=\$FITS_ERR_$_fi"
		bad=$(cat "$WORK/fits/$_fi.over" 2>/dev/null || echo "over80.py judged nothing")
		_fw=""
		read -r _fw <"$WORK/fits/$_fi.widest" 2>/dev/null
		if [ "$_fkind" = help ]; then
			if [ -z "$bad" ] && [ -n "$_fw" ] && [ "$_fw" -le 80 ]; then ok "$_fwhat fits 80 columns (widest $_fw)"
			else fail "$_fwhat is wider than 80 columns:
$bad"; fi
		elif [ -z "$bad" ]; then ok "$_fwhat fits 80 columns (widest $_fw)"
		else fail "$_fwhat: lines wider than 80 columns:
$bad"; fi
	done
	FITS_N=0
	: >"$FITS_LIST"
	FIXTURE=$_fix OUT=$_out ERR=$_err
}
fixes_of() { # ARGS...: the fix commands a check run names, one a line, into $WORK/fixes
	run_json "$@"
	jq -r '.checks[].fix[]?' "$JSON" >"$WORK/fixes"
}
# The knowledge base's own fix lines (for wslgpu kb ID), and explain's.
sed -n 's/^fix: //p' "$top"/src/kb/*.kb >"$WORK/kbfixes"

# ---- 1. 80 columns, on every fixture ----
for f in $(sh "$top/tools/fixture" --list); do
	fixture "$f"
	setenv COLUMNS=80
	# (columns.sh makes these two runs too: lib.sh's shared)
	shared run_json --timeout 2
	jq -r '.checks[].fix[]?' "$JSON" >"$WORK/fits/fixes-$f"
	shared run --timeout 2
	fits_later fits check "$WORK/fits/fixes-$f"
done
fits_now

# The layout: a check's detail wraps under the detail, a cause under the
# cause's text (column 13), the verdict under its first word; a fix command
# longer than the line stays whole and its note goes under it.
fixture distro-libcuda
setenv COLUMNS=80
run
expect_line '^✗ libs\.libcuda          the loader picks /usr/lib/x86_64-linux-gnu/libcuda\.so\.1$'
expect_line '^                        from libnvidia-compute-535 \(via LD_LIBRARY_PATH\), not$'
expect_line '^      cause  LD_LIBRARY_PATH names /usr/lib/x86_64-linux-gnu, where the Linux$'
expect_line '^             NVIDIA driver package libnvidia-compute-535 installed$'
expect_line '^             grep -n LD_LIBRARY_PATH ~/\.bashrc ~/\.profile ~/\.zshrc /etc/environment$'
expect_line '^             # remove it for good$'
expect_line '^✗ Broken at the libs layer: the loader picks$'
expect_line '^  /usr/lib/x86_64-linux-gnu/libcuda\.so\.1 from libnvidia-compute-535 \(via$'
# Columns, not bytes: at 60 columns the marks count one each.
setenv COLUMNS=60
fixes_of
run
bad=$(printf '%s\n' "$OUT" | over 60 "$WORK/fixes")
if [ -z "$bad" ]; then ok "check fits 60 columns when COLUMNS=60"; else fail "COLUMNS=60: $bad"; fi
expect_line '^✓ platform\.kind         WSL2 \(kernel$'

# A healthy machine, and a broken one with -v (evidence: a long path stays whole).
fixture healthy-wsl2
setenv COLUMNS=80
run
expect_fits "check on a healthy machine"
fixture no-dxg
setenv COLUMNS=80
fixes_of -v
run -v
expect_fits "check -v on a broken machine" "$WORK/fixes"

# watch's summary (on stderr), bench, kb, explain, history, fix, every --help.
OUT=$(env -i PATH=/usr/bin:/bin HOME=/tmp LANG=C.UTF-8 COLUMNS=80 "$WSLGPU" watch \
	--nvml-lib=/nonexistent/libnvidia-ml.so.1 --interval 100ms -- sh -c 'sleep 1' 2>&1 >/dev/null)
expect_fits "watch's summary"
expect_line '^  job CPU          [^ ]+ +mean +[0-9.]+    max +[0-9.]+ of [0-9]+ CPUs?$'
fixture healthy-wsl2
setenv COLUMNS=80
run bench io /home/user /mnt/c/Users/alice --size 1M --files 20 --seconds 10
expect_fits "bench io"
expect_line '^/mnt/c/Users/alice$'
run bench gpu --max-size 64K --launches 200 --batch 500
expect_fits "bench gpu"
run kb
expect_fits "kb"
run kb bridge.dxg.missing libs.loader.ldpath_package
expect_fits "kb ID" "$WORK/kbfixes"
printf 'CUDA error: no CUDA-capable device is detected\nldconfig: /usr/lib/wsl/lib/libcuda.so.1 is not a symbolic link\n' >"$WORK/log"
run_json explain -f "$WORK/log"
jq -r '.matches[].causes[].fix[]' "$JSON" >"$WORK/xfixes"
run explain -f "$WORK/log"
expect_fits "explain" "$WORK/xfixes"
run explain -v -f "$WORK/log"
expect_fits "explain -v" "$WORK/xfixes"
run explain --list
expect_fits "explain --list"
run check --list
expect_fits "check --list"
for c in "" check explain bench watch smoke history report fix kb; do
	# shellcheck disable=SC2086
	OUT=$(env -i PATH=/usr/bin:/bin LANG=C.UTF-8 COLUMNS=80 "$WSLGPU" $c --help 2>&1)
	fits_later help "wslgpu $c --help" /dev/null
done
fits_now

# ---- 2. noise ----
fixture no-dxg
setenv COLUMNS=80
run_json
held=$(jq '[.checks[] | select(.evidence.blocked_by == "bridge.dxg")] | length' "$JSON")
run
expect_line "^      $held checks skipped until this is fixed \\(-v lists them\\)\$"
expect_no_line 'skipped: bridge\.dxg failed, fix that first'
# The verdict counts the same checks (it wraps at 80: join its lines).
verdict=$(printf '%s\n' "$OUT" | sed -n '/^✗ Broken at/,/^$/p' | tr '\n' ' ' | tr -s ' ')
case "$verdict" in
*"(bridge.dxg). $held checks are skipped until then."*) ok "the verdict counts the $held blocked checks" ;;
*) fail "the verdict does not count $held blocked checks: $verdict" ;;
esac
# Skips of their own (no docker) are not counted, and stay in place.
expect_line '^- containers\.docker +skipped: docker is not installed$'
run -v
expect_line '^- libs\.libcuda +skipped: bridge\.dxg failed, fix that first +\([0-9]+ ms\)$'
expect_line "^      $held checks skipped until this is fixed\$"

# The same cause and fix, said once.
fixture distro-libcuda
setenv COLUMNS=80
run
n=$(printf '%s\n' "$OUT" | grep -c 'That library expects /dev/nvidiactl' || true)
if [ "$n" = 1 ]; then ok "the shared cause is printed once"; else fail "the shared cause is printed $n times"; fi
expect_line '^      follows from libs\.libcuda above: the same cause, the same fix$'

# explain: the problem before the harmless message seen first, two causes.
fixture healthy-wsl2
setenv COLUMNS=80
printf 'ldconfig: /usr/lib/wsl/lib/libcuda.so.1 is not a symbolic link\nCUDA error: no CUDA-capable device is detected\n' >"$WORK/log2"
run explain -f "$WORK/log2"
first=$(printf '%s\n' "$OUT" | grep -E '^(✗|·|!) ' | head -1)
case "$first" in "✗ cuda:"*) ok "explain: the problem first" ;; *) fail "explain shows first: $first" ;; esac
expect_line '^    2\. '
expect_no_line '^    3\. '
expect_line '^             \+[0-9]+ more causes: -v$'
more=$(printf '%s\n' "$OUT" | sed -n 's/^ *+\([0-9]*\) more causes: -v$/\1/p' | head -1)
run explain -v -f "$WORK/log2"
# -v shows them all: the two, then the ones the short view counted.
expect_line "^    $((2 + ${more:-0}))\\. "
expect_no_line "^    $((3 + ${more:-0}))\\. "
expect_no_line 'more causes'

# ---- 3. from a finding to its entry ----
fixture no-dxg
setenv COLUMNS=80
run -v
expect_line '^      more   wslgpu kb bridge\.dxg\.'
run kb bridge.nvidia_dev
expect_rc 0
expect_line '^bridge\.nvidia_dev: [0-9]+ entries explain this check$'
expect_line '^bridge\.nvidia_dev\.no_driver +'
run kb libs.libcuda
expect_line '^libs\.loader\.ldpath_package +'
run kb libs
expect_line '^libs: [0-9]+ entries \(wslgpu kb libs\)$'
expect_line '^libs\.wsl_dir\.no_dir +'
run kb libs.loader
expect_line '^libs\.loader: [0-9]+ entries whose id starts with it$'
run kb bridge.nvidia_device
expect_rc 2
expect_err "no entry 'bridge\\.nvidia_device'"
run explain -v -f "$WORK/log2"
expect_line '^    more     wslgpu kb explain\.sig\.'
run fix
expect_line '^# more:  wslgpu kb bridge\.dxg\.'

# ---- 4. small things ----
# Colour: NO_COLOR turns it off, an explicit --color always still wins.
fixture healthy-wsl2
setenv NO_COLOR=1
run --color always
if printf '%s' "$OUT" | grep -q "$(printf '\033')\\["; then ok "--color always wins over NO_COLOR"
else fail "--color always gave no colour under NO_COLOR"; fi
if command -v script >/dev/null 2>&1 && script -qec true /dev/null >/dev/null 2>&1; then
	OUT=$(script -qec "env -i PATH=/usr/bin:/bin LANG=C.UTF-8 NO_COLOR=1 $WSLGPU --root $ROOT check --only platform" /dev/null 2>&1)
	if printf '%s' "$OUT" | grep -q "$(printf '\033')\\[3"; then fail "NO_COLOR on a terminal: colour"
	else ok "NO_COLOR on a terminal: no colour"; fi
	OUT=$(script -qec "env -i PATH=/usr/bin:/bin LANG=C.UTF-8 $WSLGPU --root $ROOT check --only platform" /dev/null 2>&1)
	if printf '%s' "$OUT" | grep -q "$(printf '\033')\\[3"; then ok "a terminal without NO_COLOR: colour"
	else fail "a terminal without NO_COLOR: no colour"; fi
else
	ok "colour on a terminal: not testable (no script(1) or pseudo-terminal)"
fi

# A time-out is T, one column: the ids stay aligned.
fixture healthy-wsl2
setenv COLUMNS=80 FAKE_CUDA_HANG=cuModuleLoadData
run --only cuda --timeout 2
expect_line '^T cuda\.kernel  probe did not finish within 2\.0 s'
expect_line '^✓ cuda\.init    driver supports'

# Outside UTF-8 the marks are ASCII.
fixture no-dxg
setenv COLUMNS=80 LC_ALL=C
run
expect_line '^\+ platform\.kind '
expect_line '^x bridge\.dxg '
expect_line '^- containers\.docker '
expect_line '^x Broken at the bridge layer'
if printf '%s' "$OUT" | LC_ALL=C grep -q '[^ -~]'; then fail "LC_ALL=C: non-ASCII in the report"
else ok "LC_ALL=C: the report is ASCII"; fi

# fix --apply's preview is the line it writes.
fixture healthy-wsl2
printf 'export CUDA_VISIBLE_DEVICES=""\n' >"$ROOT/home/user/.bashrc"
setenv COLUMNS=80 CUDA_VISIBLE_DEVICES=
run fix --apply --yes
now=$(printf '%s\n' "$OUT" | sed -n 's/^    now: //p' | head -1)
written=$(head -1 "$ROOT/home/user/.bashrc")
if [ -n "$now" ] && [ "$now" = "$written" ]; then ok "--apply showed the line it wrote: $now"
else fail "--apply showed '$now', wrote '$written'"; fi

# A why: cut at a sentence end outside quotes.
fixture docker-daemon-down
run fix
why=$(printf '%s\n' "$OUT" | grep -A3 '^# why: ' | head -4 | tr -d '\n')
q=$(printf '%s' "$why" | tr -cd '"' | wc -c)
if [ $((q % 2)) = 0 ]; then ok "why: quotes balanced"; else fail "why: cut inside a quotation: $why"; fi

# CUDA_VISIBLE_DEVICES set to the empty string, and "1 GPU".
fixture cuda-visible-devices-empty
run
expect_line '\(here set to the empty string\)'
expect_no_line '\(here: \)'
expect_line 'NVML counts 1 GPU, CUDA 0'

# report --markdown -o F and smoke --record say where they wrote.
fixture no-dxg
run report --markdown -o "$WORK/issue.md"
expect_err "^wslgpu report: wrote $WORK/issue\\.md "
fixture smoke-driver-downgrade
run smoke --policy "$top/tools/policy.example.ini" --db "$WORK/h.db" --junit "$WORK/j.xml"
expect_line "^  recorded in $WORK/h\\.db \\(wslgpu history --db $WORK/h\\.db\\)\$"
# JUnit: the suites add up to at most the total.
python3 - "$WORK/j.xml" <<'EOF' && ok "junit: the suites' times add up to at most the total" || fail "junit: suites exceed the total"
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
total = float(root.get("time"))
suites = sum(float(s.get("time")) for s in root.findall("testsuite"))
sys.exit(0 if suites <= total + 1e-9 else 1)
EOF

# One root cause, one problem, one fix: what follows from a cause is shown
# under it, counted once, and has no step of its own (consequence_of).
fixture toolkit-too-new
setenv COLUMNS=80
run check --brief
# the toolkit is too new for a fine driver: the toolkit's problem, said once
expect_line '^✗ toolkit\.nvcc '
expect_line '^  also +host\.driver \(the same cause\)$'
expect_no_line '^✗ host\.driver '
# the first fix is a toolkit the driver runs, a command whole
expect_line '^  fix +sudo apt-get install cuda-toolkit-12-4   # a toolkit this driver$'
run check
expect_line '^✗ Broken at the toolkit layer: CUDA 13\.0 toolkit'
# words for a person are comments, every wrapped line of them; no command
# or sentence is broken off short
expect_line '^             # or update the NVIDIA driver on Windows \(GeForce/RTX driver from$'
expect_no_line 'driver on$'
expect_line '1 finding follows from it\.$'
expect_line '^      follows from toolkit\.nvcc below: the same cause, the same fix$'
expect_no_line 'problems in all'
run_json check
expect_json '.summary.first_failure == "toolkit.nvcc" and .summary.problems == 1'
expect_json '(.checks[] | select(.id == "host.driver") | .consequence_of) == "toolkit.nvcc"'
run_json fix
expect_json '[.steps[].check] == ["toolkit.nvcc"]'
fixture container-no-gpu
setenv COLUMNS=80
run check --brief
expect_line '^  also +host\.driver_store, libs\.kernel_modules \(the same cause\)$'
expect_no_line '^. (host\.driver_store|libs\.kernel_modules) '
run check
expect_no_line 'problems in all'
fixture conda-libcuda
setenv COLUMNS=80
run fix
# cuda.load's failure is libs.libcuda's prediction come true: no second,
# different fix for the same file (dpkg -S on conda's library)
expect_line '^# also:  cuda\.load \(the same cause: fixed with it\)$'
expect_no_line '^dpkg -S '
expect_no_line '^# \[2\]'

done_testing
