#!/bin/sh
# options.sh: what comes of declaring each command's options and formats
# once (src/cli/parse-options.h, src/report/format.c): check --brief, the
# did-you-mean of a mistyped option or check id, two outputs naming one
# file, write errors (exit 3), usage errors that echo what was typed, the
# completion data, and --help and the man pages agreeing with the
# declarations.
. "$(dirname "$0")/lib.sh"

# ---- check --brief: a format added as one file and one row
fixture no-dxg
run check --brief
expect_rc 1
expect_line '^✗ bridge\.dxg /dev/dxg is missing'
expect_line '^  fix        uname -r'
expect_line '^✗ Broken at the bridge layer'
[ "$(printf '%s\n' "$OUT" | grep -c '^[✗!] [a-z]*\.')" = 1 ] && ok "one line per problem" ||
	fail "problem lines: $OUT"
setenv COLUMNS=80
run check --brief
# awk counts bytes: the marks and the ellipsis are 3 bytes, one column
wide=$(printf '%s\n' "$OUT" | LC_ALL=C.UTF-8 awk 'length($0) > 80' | grep -v '^  fix ')
[ -z "$wide" ] && ok "--brief fits 80 columns (commands aside)" || fail "wider than 80: $wide"
fixture ldpath-stubs
run check --brief
expect_rc 1
expect_line '^✗ libs\.libcuda +the loader picks'
expect_line '^  fix        export LD_LIBRARY_PATH='
# every fix line --brief shows runs as printed
printf '%s\n' "$OUT" | sed -n 's/^  fix        //p' >"$WORK/fixes.sh"
if bash -n "$WORK/fixes.sh" 2>"$WORK/bash-n"; then ok "--brief's fix lines pass bash -n"; else
	fail "bash -n: $(cat "$WORK/bash-n")"; fi
fixture healthy-wsl2
run check --brief
expect_rc 0
expect_line '^✓ No problems found in [0-9]+ checks; 1 could not be verified \(toolkit\.packages\)\.$'
[ "$(printf '%s\n' "$OUT" | wc -l)" = 1 ] && ok "a healthy machine: the verdict alone" || fail "$OUT"
run check --brief --json
expect_rc 2
expect_err "^wslgpu check: --brief and --json exclude each other$"

# ---- fix --commands: a second format of fix, one file and one row
for f in ldpath-stubs no-dxg toolkit-too-new conda-libcuda healthy-wsl2; do
	fixture $f
	run fix --commands
	printf '%s\n' "$OUT" >"$WORK/commands.sh"
	if bash -n "$WORK/commands.sh" 2>"$WORK/bash-n"; then ok "$f: fix --commands passes bash -n"; else
		fail "$f: bash -n: $(cat "$WORK/bash-n")"; fi
	if grep -v '^#' "$WORK/commands.sh" | grep -q -e 'PS>' -e '<[a-z]' -e 'wsl\.exe' -e '\.exe '; then
		fail "$f: a Windows-side line or a template: $(grep -v '^#' "$WORK/commands.sh")"; else
		ok "$f: only commands for this shell"; fi
done
fixture ldpath-stubs
run fix --commands
expect_rc 1
expect_line '^#!/bin/sh$'
expect_line '^# \[1\] libs\.libcuda$'
expect_line '^export LD_LIBRARY_PATH=/usr/local/cuda/lib64   # for this shell'
expect_line '^grep -n stubs .*   # remove it where LD_LIBRARY_PATH is set for good$'
# Windows-side lines and lines for a person are counted, not printed.
fixture no-dxg
run fix --commands
expect_line "^# [0-9]+ more lines? of the plan .*: see 'wslgpu fix'$"
run fix --commands --json
expect_rc 2
run fix --commands --apply
expect_rc 2
expect_err "^wslgpu fix: --commands prints the plan; it does not go with --apply$"

# ---- kb --search: an option added as one row of kb's declaration
FIXTURE=kb-search
bare() { "$WSLGPU" "$@" >"$WORK/out" 2>"$WORK/err"; RC=$?; OUT=$(cat "$WORK/out"); ERR=$(cat "$WORK/err"); }
bare kb --search STUB_library
expect_rc 0
expect_line "^[0-9]+ entries mention 'STUB_library'"
expect_line '^cuda\.init\.stub +cuInit returns CUDA_ERROR_STUB_LIBRARY'
bare kb --search zzzq-nothing
expect_rc 1
expect_err "^wslgpu kb: no entry mentions 'zzzq-nothing'"
bare kb --search stub libs
expect_rc 2
bare kb --help
expect_line '^      --search WORD    list the entries'
bare __complete options kb
expect_line "^-	--search	WORD	nothing	"

# ---- every write error exits 3
FIXTURE=write-errors
NO_NVML=--nvml-lib=/nonexistent/libnvidia-ml.so.1
bare watch -q "$NO_NVML" --csv /dev/full -- sh -c 'sleep 1.2'
expect_rc 3
expect_err '^wslgpu watch: --csv /dev/full: No space left on device'
expect_err '^wslgpu watch: exit status 3: an output was not written \(the command exited with status 0\)$'
bare watch -q "$NO_NVML" --json=/dev/full -- sh -c 'exit 4'
expect_rc 3
expect_err '^wslgpu watch: --json /dev/full: No space left on device'
expect_err 'the command exited with status 4'
mkdir -p "$WORK/a-dir"
bare watch -q "$NO_NVML" --svg "$WORK/a-dir" -- true
expect_rc 3
expect_err '^wslgpu watch: --svg .*a-dir: is a directory'
bare watch -q "$NO_NVML" --csv "$WORK/no-such-dir/w.csv" -- true
expect_rc 3
bare watch -q "$NO_NVML" --csv "$WORK/w.csv" --json="$WORK/w.json" -- true
expect_rc 0
# A closed standard output: what a command printed went nowhere.
fixture healthy-wsl2
closed() { # ARGS...: wslgpu with standard output closed
	# shellcheck disable=SC2046
	env -i $(fixture_tool --env "$FIXTURE" | tr "\n" " ") "$WSLGPU" "$@" >&- 2>"$WORK/err"
	RC=$?
	ERR=$(cat "$WORK/err")
}
for c in "check --only platform" "kb" "kb bridge.dxg.missing" "smoke --only platform" "check --list" "fix --only platform"; do
	# shellcheck disable=SC2086
	closed --root "$ROOT" $c
	if [ "$RC" = 3 ] && printf '%s\n' "$ERR" | grep -qx 'wslgpu: standard output is closed: what the command printed was lost'; then
		ok "$c >&-: exit 3 and why"; else fail "$c >&-: rc $RC, $ERR"; fi
done
# and nothing it writes lands in a file it opened on descriptor 1
closed --root "$ROOT" smoke --only platform --junit "$WORK/closed.xml"
expect_rc 3
if head -c 5 "$WORK/closed.xml" | grep -q '<?xml'; then ok "the JUnit file holds only JUnit"; else fail "closed.xml: $(head -c 100 "$WORK/closed.xml")"; fi
# --version and --help are not a command's output: git's answer (0)
closed --version
expect_rc 0
closed --help
expect_rc 0

# ---- did you mean
fixture healthy-wsl2
run check --jsn
expect_rc 2
expect_err "^wslgpu check: unknown option '--jsn'; did you mean '--json'\?$"
run --jsn check
expect_rc 2
expect_err "^wslgpu: unknown option '--jsn'; did you mean '--json'\?$"
run smoke --polcy x.ini
expect_rc 2
expect_err "did you mean '--policy'"
run check --only cuda.kernl
expect_rc 2
expect_err "^wslgpu check: --only: 'cuda.kernl' is neither a layer nor a check id; did you mean 'cuda.kernel'\? "
run check --only platform,lbs
expect_rc 2
expect_err "did you mean 'libs'"
run check --only zzzzzzzz
expect_rc 2
if printf '%s\n' "$ERR" | grep -q 'did you mean'; then fail "a suggestion for zzzzzzzz"; else ok "no suggestion for zzzzzzzz"; fi
# an option abbreviated to a unique prefix still works (as getopt_long), an
# ambiguous one is named
run check --stri --only platform.kind
expect_rc 0
run fix --ap --y --only platform.kind
expect_rc 0
expect_line '^wslgpu fix --apply: nothing to apply automatically\.$'
run smoke --pu x
expect_rc 2
expect_err "option '--pu' is ambiguous: --push, --push-delete"

# ---- two outputs naming one file
mkdir -p "$WORK/o"
run smoke --only platform --junit "$WORK/o/x" --prom "$WORK/o/x"
expect_rc 2
expect_err "^wslgpu smoke: --junit and --prom name the same file \(.*/o/x\): give each output its own$"
[ ! -e "$WORK/o/x" ] && ok "nothing written" || fail "$WORK/o/x written"
run smoke --only platform --junit "$WORK/o/y" --db "$WORK/o/../o/y"
expect_rc 2
expect_err "--junit and --db name the same file"
run smoke --only platform --junit "$WORK/o/a" --junit "$WORK/o/b" --prom "$WORK/o/a"
expect_rc 0
[ -s "$WORK/o/a" ] && [ -s "$WORK/o/b" ] && ok "a repeated option's last value is the output" ||
	fail "$(ls "$WORK/o")"
run smoke --only platform --junit /dev/null --prom /dev/null
expect_rc 0
bare watch -q "$NO_NVML" --csv "$WORK/o/w" --svg "$WORK/o/w" -- true
expect_rc 2
expect_err "--csv and --svg name the same file"
bare watch -q "$NO_NVML" --json="$WORK/o/w" --csv "$WORK/o/w" -- true
expect_rc 2
# standard output and devices are written through, not replaced: any
# number of outputs may name them
run smoke --only platform --junit - --prom -
expect_rc 0
expect_line '^<testsuites '
expect_line '^wslgpu_smoke_success '

# ---- usage errors show what was typed, escaped: no raw control character
bare --root "$(printf '/nonexistent/a\nb\033[31m')" check
expect_rc 2
expect_err '^wslgpu: --root /nonexistent/a\\nb\\x1b\[31m: No such file or directory$'
if grep -q "$(printf '\033')" "$WORK/err"; then fail "an escape character on stderr"; else ok "no escape character"; fi
[ "$(wc -l <"$WORK/err")" = 2 ] && ok "the message and the hint, two lines" || fail "$(cat "$WORK/err")"
run check --only "$(printf 'x\ny')"
expect_rc 2
if grep -qF "'x\\ny' is neither a layer nor a check id" "$WORK/err"; then ok "--only x<newline>y escaped"; else
	fail "not escaped: $(cat "$WORK/err")"; fi
run check "$(printf -- '--x\033]0;title\007')"
expect_rc 2
if grep -q "$(printf '\033')" "$WORK/err"; then fail "an escape character on stderr"; else ok "an unknown option escaped"; fi

# ---- the completion data comes from the declarations
bare __complete checks
expect_line '^libs\.libcuda$'
expect_line '^cuda$'
expect_no_line '^policy'
bare __complete options smoke
expect_line "^-	--junit	FILE	file	also write JUnit XML"
expect_line "^-	--only	LIST	checks	"
expect_line "^-	--color	WHEN	words:auto,always,never	"
expect_no_line 'no-fork'
bare __complete options watch
expect_line "^-	--json	=FILE	file	"
bare __complete commands
expect_line "^check	prove the GPU compute chain"
expect_no_line '^__complete'
bare __complete nonsense
expect_rc 2
BC=/usr/share/bash-completion/bash_completion
complete_bash() { # WORDS... (the last one is being completed)
	env -i PATH="$BUILD:/usr/bin:/bin" HOME="$WORK" bash --norc --noprofile -c '
		[ -f "$1" ] && . "$1"; shift
		. "$1"; shift
		COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
		COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}
		_wslgpu wslgpu "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
		printf "%s\n" "${COMPREPLY[@]}"' complete "$BC" "$top/completions/wslgpu.bash" "$@" 2>&1
}
OUT=$(complete_bash wslgpu check --only pol)
[ -z "$OUT" ] && ok "bash: no policy.* after check --only" || fail "bash offers: $OUT"
OUT=$(complete_bash wslgpu smoke --only p)
if printf '%s\n' "$OUT" | grep -q '^policy'; then fail "bash: smoke --only offers $OUT"; else
	ok "bash: no policy.* after smoke --only"; fi
printf '%s\n' "$OUT" | grep -qx perf && ok "bash: smoke --only p offers perf" || fail "$OUT"
OUT=$(complete_bash wslgpu check --br)
[ "$OUT" = --brief ] && ok "bash: check --br offers --brief" || fail "$OUT"
OUT=$(complete_bash wslgpu kb --se)
[ "$OUT" = --search ] && ok "bash: kb --se offers --search" || fail "$OUT"
OUT=$(complete_bash wslgpu watch --json=)
[ -n "$OUT" ] && ok "bash: watch --json= offers files" || fail "nothing after --json="
if command -v zsh >/dev/null 2>&1 && zsh -fc 'zmodload zsh/zpty' 2>/dev/null; then
	OUT=$(env -i PATH="$BUILD:/usr/bin:/bin" HOME="$WORK" TERM=xterm zsh -f "$top/tests/e2e/complete.zsh" "$top/completions" "wslgpu check --only " 2>&1)
	if printf '%s\n' "$OUT" | grep -q 'policy'; then fail "zsh: check --only offers policy: $OUT"; else
		printf '%s\n' "$OUT" | grep -qx libs && ok "zsh: check --only offers no policy.*" || fail "zsh: $OUT"; fi
fi

# ---- the man pages say what the declarations say: each page's OPTIONS
# tags are options the command declares, and take a value exactly when
# the declaration does (install.sh checks the other way: every option of
# --help is in the page)
FIXTURE=man-pages
if command -v mandoc >/dev/null 2>&1; then
	for c in $("$WSLGPU" __complete commands | cut -f1); do
		[ "$c" = help ] && continue
		"$WSLGPU" __complete options "$c" >"$WORK/decl"
		mandoc -Tascii "$top/doc/wslgpu-$c.1" | col -bx |
			awk '/^[A-Z][A-Z ]*$/ { on = ($0 == "OPTIONS"); next } on' |
			sed -n 's/^ \{3,8\}\(-.*\)$/\1/p' | sed 's/  .*//' >"$WORK/tags"
		bad=""
		while IFS= read -r tag; do
			# "-v, --verbose", "--only list", "--json[=file]", "-f file, --file file"
			printf '%s\n' "$tag" | tr ',' '\n' | sed 's/^ *//' >"$WORK/words"
			while read -r opt val; do
				name=${opt%%[[=]*}
				case $opt in *\[=*) val="=" ;; esac
				line=$(awk -F'\t' -v o="$name" '$1 == o || $2 == o' "$WORK/decl")
				if [ -z "$line" ]; then bad="$bad $name(undeclared)"; continue; fi
				arg=$(printf '%s\n' "$line" | cut -f3)
				if [ -n "$val" ] && [ "$arg" = - ]; then bad="$bad $name(a value in the page only)"; fi
				if [ -z "$val" ] && [ "$arg" != - ] && [ "${arg#=}" = "$arg" ]; then
					bad="$bad $name(no value in the page)"; fi
			done <"$WORK/words"
		done <"$WORK/tags"
		[ -z "$bad" ] && ok "wslgpu-$c.1 documents only what $c declares" || fail "wslgpu-$c.1:$bad"
	done
else
	echo "# mandoc not installed: the man pages were not compared"
fi

done_testing
