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
expect_line '^✓ No problems found in [0-9]+ checks\.$'
[ "$(printf '%s\n' "$OUT" | wc -l)" = 1 ] && ok "a healthy machine: the verdict alone" || fail "$OUT"
run check --brief --json
expect_rc 2
expect_err "^wslgpu check: --brief and --json exclude each other$"

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

done_testing
