#!/bin/sh
# cli.sh: the command line itself, on the real binary: git's rules (only
# global options before the command word; one table knows every option),
# write errors on standard output, help and "did you mean", the edges of
# option values, tools/install-deps, tools/fixture, and the bash and zsh
# completions driven through real shells.
. "$(dirname "$0")/lib.sh"

# Runs wslgpu (no --root added) in the fixture's environment, stdout to $1.
run_to() { # FILE ARGS...
	to=$1; shift
	# shellcheck disable=SC2086
	env -i $(fixture_tool --env "$FIXTURE" | tr "\n" " ") MANPATH="$WORK/no-man" "$WSLGPU" "$@" >"$to" 2>"$WORK/err"
	RC=$?
	OUT=""
	[ -f "$to" ] && OUT=$(cat "$to")
	ERR=$(cat "$WORK/err")
}
bare() { run_to "$WORK/out" "$@"; }

fixture healthy-wsl2

# ---- git's rules: global options before the command word
run --color never check --only platform
expect_rc 0
expect_line '^✓ platform\.kind '
if printf '%s' "$OUT" | grep -q "$(printf '\033')"; then fail "--color never coloured"; else ok "--color never before the command"; fi
run --color always check --only platform
expect_rc 0
if printf '%s' "$OUT" | grep -q "$(printf '\033')\["; then ok "--color always before the command"; else fail "no colour"; fi
run --no-color check --only platform
expect_rc 0
run --color=never check --only platform.kind
expect_rc 0
bare --root="$ROOT" check --only platform.kind
expect_rc 0
expect_line '^✓ platform\.kind +WSL2'
run --color sometimes check
expect_rc 2
expect_err "--color: 'sometimes' is not auto, always or never"

# wslgpu alone is wslgpu check; options without a command word are check's
run
ids_alone=$(printf '%s\n' "$OUT" | awk '{ print $1, $2 }')
rc_alone=$RC
run check
ids_check=$(printf '%s\n' "$OUT" | awk '{ print $1, $2 }')
if [ "$rc_alone" = "$RC" ] && [ "$ids_alone" = "$ids_check" ]; then ok "wslgpu alone = wslgpu check"; else
	fail "wslgpu alone (rc $rc_alone) differs from wslgpu check (rc $RC)"; fi
run --only platform.kind -v
expect_rc 0
expect_line '^✓ platform\.kind '

# a command's option before the command word says where it belongs
run --json smoke
expect_rc 2
expect_err "'--json' is an option of 'smoke', not a global one: put it after the command word \(wslgpu smoke --json\)"
run --only libs check
expect_rc 2
expect_err 'wslgpu check --only libs\)'
run --list smoke
expect_rc 2
expect_err "'--list' is not a global option, nor an option of 'smoke' \(it is one of: check, explain\)"
run --bogus check
expect_rc 2
expect_err "^wslgpu: unknown option '--bogus'"
run --root
expect_rc 2

# The option table knows every option each command's --help lists, and
# whether it takes a value: before the command word, a flag F gives
# "'F' is an option of 'CMD'"; a valued option V given the value zzz too
# (were V taken for a flag, zzz would be the command word).
cmds=$("$WSLGPU" --help | sed -n 's/^  \([a-z][a-z]*\)  .*/\1/p')
n=0
bad=""
for c in $cmds; do
	[ "$c" = help ] || [ "$c" = kb ] && continue
	"$WSLGPU" "$c" --help | sed -n 's/^ \{1,\}\(-[a-zA-Z], \)\{0,1\}\(--[a-z][a-z-]*\)\( [A-Z][A-Z.]*\)\{0,1\}.*/\1 \2 \3/p' |
		tr -d , >"$WORK/opts"
	while read -r a b v; do
		case $a in --*) v=$b; b=$a; a="" ;; esac
		for o in $a $b; do
			case $o in --root | --color | --no-color | -h | --help) continue ;; esac
			n=$((n + 1))
			if [ -n "$v" ]; then set -- "$o" zzz "$c"; else set -- "$o" "$c"; fi
			err=$("$WSLGPU" "$@" 2>&1 >/dev/null)
			echo "$err" | grep -qF "'$o' is an option of '$c'" || bad="$bad [$c $o${v:+ $v}: $err]"
		done
	done <"$WORK/opts"
done
OUT=$bad
if [ -z "$bad" ] && [ "$n" -gt 60 ]; then ok "the option table knows all $n options of every --help"; else
	fail "the option table and --help disagree ($n options):$bad"; fi

# every global option works before every command
for c in $cmds; do
	bare --root "$ROOT" --color never --no-color "$c" --help
	if [ "$c" = watch ]; then
		[ "$RC" = 2 ] && echo "$ERR" | grep -q -- '--root does not apply' && ok "watch refuses a global --root" ||
			fail "watch with --root: rc $RC"
	elif [ "$RC" = 0 ] && [ -n "$OUT" ]; then ok "global options before $c"; else fail "global options before $c: rc $RC"; fi
done
bare --root /nonexistent history --db "$WORK/none.db"
expect_rc 1
expect_err 'no such database'

# -V, --version, --help
bare --version
expect_rc 0
expect_line '^wslgpu [0-9]+\.[0-9]+\.[0-9]+ \(commit '
# The date of the version facts (src/kb/versions.h), here and in kb.
expect_line '^knowledge: version tables of 20[0-9][0-9]-[01][0-9], last checked 20[0-9][0-9]-[01][0-9]-[0-3][0-9]$'
v=$OUT
bare kb
expect_line '^knowledge: version tables of 20[0-9][0-9]-[01][0-9], last checked 20[0-9][0-9]-[01][0-9]-[0-3][0-9] \(doc/facts\.md\)$'
bare -V
expect_rc 0
[ "$OUT" = "$v" ] && ok "-V = --version" || fail "-V differs from --version"
bare --help
expect_rc 0
expect_line '^  -V, --version '
expect_line '^      --root DIR '
expect_line '^      --color WHEN '
expect_line '^  help  '
bare -h
expect_rc 0
expect_line '^usage: wslgpu '

# ---- a failed write to standard output is an error (exit status 3)
full_rc() { # what ARGS...
	what=$1; shift
	run_to /dev/full "$@"
	if [ "$RC" = 3 ] && printf '%s\n' "$ERR" | grep -qx 'wslgpu: write error on standard output: No space left on device'; then
		ok "$what > /dev/full: exit 3 and the error"
	else fail "$what > /dev/full: rc $RC, stderr: $ERR"; fi
}
full_rc "check --json" --root "$ROOT" check --json --only platform
full_rc "check" --root "$ROOT" check --only platform
full_rc "history" history
full_rc "history --json" history --json
full_rc "kb" kb
full_rc "kb ID" kb bridge.dxg.missing
full_rc "check --list" check --list
full_rc "check --list --json" check --list --json
full_rc "--help" --help
full_rc "help" help
full_rc "help check" help check
full_rc "--version" --version
full_rc "-V" -V
# a failed check keeps its status unless the output was lost too
run_to /dev/null kb
expect_rc 0
# a closed standard output is not written to, and not an error (as git)
env -i PATH=/usr/bin:/bin "$WSLGPU" --version >&- 2>"$WORK/err"
RC=$?
expect_rc 0

# ---- help and "did you mean"
bare help --help
expect_rc 0
expect_line '^usage: wslgpu help \[COMMAND\]'
bare help -h
expect_rc 0
bare chek
expect_rc 2
expect_err "^wslgpu: 'chek' is not a wslgpu command\. See 'wslgpu --help'\.$"
expect_err '^The most similar command is$'
expect_err '^	check$'
bare histroy --json
expect_rc 2
expect_err '^	history$'
bare zzzzzz
expect_rc 2
expect_err "'zzzzzz' is not a wslgpu command"
if printf '%s\n' "$ERR" | grep -q 'most similar'; then fail "a suggestion for zzzzzz"; else ok "no suggestion for zzzzzz"; fi
bare help chek
expect_rc 2
expect_err "^wslgpu help: 'chek' is not a wslgpu command"
expect_err '^	check$'
bare help check extra
expect_rc 2

# help CMD: man's page wslgpu-CMD when man finds it, else CMD --help
MANPATH="$WORK/no-man" "$WSLGPU" check --help >"$WORK/check.help"
bare help check
expect_rc 0
if [ "$OUT" = "$(cat "$WORK/check.help")" ]; then ok "help check without a page = check --help"; else fail "help check: $OUT"; fi
bare --help check
expect_rc 0
[ "$OUT" = "$(cat "$WORK/check.help")" ] && ok "--help check = help check" || fail "--help check"
# a man that knows the page is run with it (and replaces wslgpu)
mkdir -p "$WORK/bin"
cat >"$WORK/bin/man" <<EOF
#!/bin/sh
[ "\$1" = -w ] && { [ "\$2" = wslgpu-check ] && exit 0; exit 16; }
echo "fake man: \$*"
EOF
chmod +x "$WORK/bin/man"
env -i PATH="$WORK/bin:/usr/bin:/bin" "$WSLGPU" help check >"$WORK/out" 2>&1
RC=$?
OUT=$(cat "$WORK/out")
expect_rc 0
expect_line '^fake man: wslgpu-check$'
env -i PATH="$WORK/bin:/usr/bin:/bin" "$WSLGPU" help smoke >"$WORK/out" 2>&1
OUT=$(cat "$WORK/out")
expect_line '^usage: wslgpu smoke '
# the real man, with a page on MANPATH
if command -v man >/dev/null 2>&1; then
	mkdir -p "$WORK/man/man1"
	printf '.TH WSLGPU-BENCH 1\n.SH NAME\nwslgpu-bench \\- the page from MANPATH\n' >"$WORK/man/man1/wslgpu-bench.1"
	env -i PATH=/usr/bin:/bin MANPATH="$WORK/man" MANPAGER=cat PAGER=cat "$WSLGPU" help bench >"$WORK/out" 2>&1
	RC=$?
	OUT=$(cat "$WORK/out")
	expect_rc 0
	expect_line 'the page from MANPATH'
fi

# ---- command-line edges
fixture no-dxg
run check --only ''
expect_rc 2
expect_err '--only: the list is empty'
run check --only ' , '
expect_rc 2
run --root '' check
expect_rc 2
expect_err '^wslgpu: --root: the directory name is empty'
fixture healthy-wsl2
for t in 0 0.0001 0x10 1e3 ' 5' -1 inf 3600.5 . 5.; do
	run check --only platform.kind --timeout "$t"
	if [ "$RC" = 2 ] && printf '%s\n' "$ERR" | grep -q -- "--timeout: '$t' is not a number of seconds from 0.1 to 3600"; then
		ok "--timeout '$t' refused, with the rule"; else fail "--timeout '$t': rc $RC, $ERR"; fi
done
# Accepted: the check ran, and passed or was stopped at that very limit (0.1 s
# is less than a sanitizer build on a loaded machine may need for a probe).
for t in 0.1 2.5 10 3600; do
	run check --only platform.kind --timeout "$t"
	at=$(printf '%.1f' "$t")
	if [ "$RC" = 0 ] || { [ "$RC" = 1 ] && printf '%s\n' "$OUT" | grep -q "did not finish within $at s"; }; then
		ok "--timeout $t accepted"
	else fail "--timeout $t: rc $RC $ERR"; fi
done
run bench io --seconds 0x10
expect_rc 2
expect_err "--seconds: '0x10' is not a number of seconds from 0.1 to 86400"

fixture tiny-wslconfig
run check --strict
expect_rc 1
expect_line '^! No failures, 1 warning \(first: perf\.memory\); 1 could not be verified \(toolkit\.packages\); --strict: warnings fail the run\.$'
run check
expect_rc 0
expect_line '^! No failures, 1 warning \(first: perf\.memory\); 1 could not be verified \(toolkit\.packages\)\.$'

fixture healthy-wsl2
run check --only platform.kind --python /nonexistent
expect_rc 0
expect_err "^wslgpu check: warning: --python /nonexistent: /nonexistent is not an executable file on the described machine$"
run check --only platform.kind --python ''
expect_rc 2

run bench disk
expect_rc 2
expect_err "^wslgpu bench: 'disk' is neither a subcommand \(io: disk I/O, gpu: the GPU path\) nor a directory$"
[ -z "$OUT" ] && ok "bench disk measures nothing" || fail "bench disk printed: $OUT"
run bench gpus
expect_rc 2
expect_err "did you mean 'gpu'\?"

bare --root "$top/tests/fixtures/healthy-wsl2" check
expect_rc 2
expect_err "^wslgpu: --root $top/tests/fixtures/healthy-wsl2: no proc/ or etc/ in it, so it is not a root file system; did you mean $top/tests/fixtures/healthy-wsl2/root\?$"
if printf '%s\n' "$OUT$ERR" | grep -q 'mount -t proc'; then fail "still suggests mount -t proc"; else ok "no mount -t proc"; fi
mkdir -p "$WORK/empty"
bare --root "$WORK/empty" check --only platform.kind
if printf '%s\n' "$ERR" | grep -q 'did you mean'; then fail "did you mean without a root/"; else ok "an empty --root is checked as before"; fi

# ---- tools/install-deps, with apt-get, sudo and id standing in
FIXTURE=install-deps
mkdir -p "$WORK/deps"
for t in sh sed tr dirname cat env mkdir rm find; do ln -sf "$(command -v $t)" "$WORK/deps/$t"; done
printf '#!/bin/sh\necho "apt-get $*" >>"%s/deps.log"\n' "$WORK" >"$WORK/deps/apt-get"
printf '#!/bin/sh\necho "${FAKE_UID:-0}"\n' >"$WORK/deps/id"
chmod +x "$WORK/deps/apt-get" "$WORK/deps/id"
deps() { rm -f "$WORK/deps.log"; env -i PATH="$WORK/deps" "$@" >"$WORK/out" 2>"$WORK/err"; RC=$?;
	OUT=$(cat "$WORK/deps.log" 2>/dev/null); ERR=$(cat "$WORK/err"); }
build_pkgs=$(grep -v '^#' "$top/tools/debian-packages-build.txt" | tr '\n' ' ')
deps "$top/tools/install-deps"
expect_rc 0
expect_line '^apt-get update -qq$'
[ "$(printf '%s\n' "$OUT" | grep -c update)" = 1 ] && ok "apt-get update once" || fail "update count"
expect_line "^apt-get install -y -qq --no-install-recommends ${build_pkgs% }\$"
expect_no_line 'zsh|cmocka|jq'
# --test also unpacks the real NVIDIA packages (tests/real/): already there
# (WSLGPU_CACHE holds each one's control file), nothing is downloaded.
real_pkgs=$(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$top/tools/debian-packages-real.txt")
for p in $real_pkgs; do mkdir -p "$WORK/cache/debian/real/$p/DEBIAN" && : >"$WORK/cache/debian/real/$p/DEBIAN/control"; done
printf '%s 1\n' $real_pkgs >"$WORK/cache/debian/real/.packages"
deps WSLGPU_CACHE="$WORK/cache" "$top/tools/install-deps" --test
expect_rc 0
expect_line '^apt-get install .*build-essential.*libcmocka-dev.*zsh'
expect_no_line 'Dir::Etc::SourceParts'
grep -q 'already unpacked' "$WORK/out" && ok "the real packages: a cache hit" || fail "no cache hit: $(cat "$WORK/out")"
# One missing: the private apt configuration downloads, never the system's
# sources; a download that leaves no package fails loudly.
rm -r "$WORK/cache/debian/real/libcuda1"
deps WSLGPU_CACHE="$WORK/cache" "$top/tools/install-deps" --test
expect_rc 1
expect_line "^apt-get -qq -o Dir::Etc::SourceParts=$WORK/cache/debian/apt/sources.list.d -o Dir::Etc::sourcelist=/dev/null .* update\$"
expect_line '^apt-get -qq .* download libcuda1 libnvidia-ml1 nvidia-smi '
expect_err 'apt-get download left no libcuda1 package'
grep -q 'non-free' "$WORK/cache/debian/apt/sources.list.d/bookworm.sources" && ok "its sources name non-free" || fail "no non-free"
deps FAKE_UID=1000 "$top/tools/install-deps"
expect_rc 1
expect_err 'installing packages needs root, and there is no sudo here'
[ -z "$OUT" ] && ok "no apt-get without root" || fail "apt-get ran: $OUT"
printf '#!/bin/sh\necho "sudo $*" >>"%s/deps.log"\n' "$WORK" >"$WORK/deps/sudo"
chmod +x "$WORK/deps/sudo"
deps FAKE_UID=1000 "$top/tools/install-deps"
expect_rc 0
expect_line '^sudo env DEBIAN_FRONTEND=noninteractive apt-get update -qq$'
expect_line '^sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends build-essential '
n_build=$(grep -vc '^#' "$top/tools/debian-packages-build.txt")
[ "$n_build" -le 7 ] && ok "$n_build build packages" || fail "$n_build build packages"
dups=$(cat "$top/tools/debian-packages-build.txt" "$top/tools/debian-packages-test.txt" | sort | uniq -d)
[ -z "$dups" ] && ok "no package in both lists" || fail "in both lists: $dups"
grep -q 'tools/install-deps --test' "$top/.ci/run" && ok ".ci/run uses tools/install-deps --test" || fail ".ci/run"

# ---- tools/fixture: the machine the tests see, by hand
FIXTURE=tools-fixture
BUILD="$BUILD" FAKES="$FAKES" WSLGPU="$WSLGPU" sh "$top/tools/fixture" healthy-wsl2 -- check >"$WORK/out" 2>"$WORK/err"
RC=$?
OUT=$(cat "$WORK/out")
ERR=$(cat "$WORK/err")
expect_rc 0
expect_line '^✓ No problems found in [0-9]+ checks; 1 could not be verified \(toolkit\.packages\)\.$'
expect_no_line '^[✗!] '
expect_line '^✓ cuda\.kernel '
BUILD="$BUILD" FAKES="$FAKES" WSLGPU="$WSLGPU" sh "$top/tools/fixture" healthy-wsl2 >"$WORK/out" 2>"$WORK/err"
RC=$?
OUT=$(cat "$WORK/out")
expect_rc 0
ROOT_SAVED=$ROOT
eval "$(grep -E '^(ROOT|FIXTURE_ENV)=' "$WORK/out")"
if [ -f "$ROOT/etc/ld.so.cache" ] && [ -z "$(find "$ROOT" -name .keep)" ] &&
	head -c 4 "$ROOT/usr/lib/wsl/lib/libcuda.so.1" | grep -q ELF; then
	ok "tools/fixture prepares the copy (cache, fakes, no .keep)"; else fail "the copy in $ROOT"; fi
# shellcheck disable=SC2086
env -i $FIXTURE_ENV "$WSLGPU" --root "$ROOT" check >"$WORK/out2" 2>&1
[ $? = 0 ] && ok "the printed ROOT and FIXTURE_ENV pass" || fail "printed env: $(tail -3 "$WORK/out2")"
rm -rf "$(dirname "$ROOT")"
ROOT=$ROOT_SAVED
sh "$top/tools/fixture" no-such-fixture -- check >"$WORK/out" 2>"$WORK/err"
RC=$?
ERR=$(cat "$WORK/err")
expect_rc 3
expect_err 'no fixture no-such-fixture'
mkdir -p "$WORK/tmp"
for m in -- ''; do
	TMPDIR="$WORK/tmp" FAKES="$WORK/no-fakes" sh "$top/tools/fixture" healthy-wsl2 $m >"$WORK/out" 2>"$WORK/err"
	RC=$?
	ERR=$(cat "$WORK/err")
	expect_rc 3
	expect_err 'build the fake libraries first \(make fakes\)'
done
TMPDIR="$WORK/tmp" BUILD="$BUILD" FAKES="$FAKES" WSLGPU="$WSLGPU" sh "$top/tools/fixture" healthy-wsl2 -- --only platform.kind >/dev/null 2>&1
left=$(ls -A "$WORK/tmp")
[ -z "$left" ] && ok "no copy left behind" || fail "left behind: $left"

# ---- completions, in real shells
FIXTURE=completion
C="$top/completions"
BC=/usr/share/bash-completion/bash_completion
complete_bash() { # WORDS... (the last one is being completed)
	env -i PATH="$BUILD:/usr/bin:/bin" HOME="$WORK" bash --norc --noprofile -c '
		[ -f "$1" ] && . "$1"; shift
		. "$1"; shift
		COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
		COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}
		_wslgpu wslgpu "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
		printf "%s\n" "${COMPREPLY[@]}"' complete "$BC" "$C/wslgpu.bash" "$@" 2>&1
}
complete_zsh() { # WORDS...: as complete_bash, by complete.zsh (one line)
	# answered by the batch below when it asked this line
	_zi=0
	while IFS= read -r _zl; do
		_zi=$((_zi + 1))
		if [ "$_zl" = "$*" ] && [ -f "$WORK/zsh/$_zi" ]; then cat "$WORK/zsh/$_zi"; return; fi
	done <<EOF
$ZSH_LINES
EOF
	env -i PATH="$BUILD:/usr/bin:/bin" HOME="$WORK" TERM=xterm zsh -f "$top/tests/e2e/complete.zsh" "$C" "$*" 2>&1
}
# offers SHELL EXPECTED WORDS...: the completion of WORDS includes EXPECTED
# (a line, exactly) and no error.
offers() {
	sh_=$1 want=$2; shift 2
	if [ "$sh_" = bash ]; then OUT=$(complete_bash wslgpu "$@"); else OUT=$(complete_zsh wslgpu "$@"); fi
	if printf '%s\n' "$OUT" | grep -q '^error:'; then fail "$sh_ '$*': $OUT"; return; fi
	if printf '%s\n' "$OUT" | grep -qxF -- "$want"; then ok "$sh_ '$*' offers $want"; else
		fail "$sh_ '$*': no '$want' in: $(echo $OUT | cut -c1-300)"; fi
}
shells=bash
if command -v zsh >/dev/null 2>&1 && zsh -fc 'zmodload zsh/zpty' 2>/dev/null; then shells="bash zsh"; else
	echo "# zsh with zpty not installed: zsh completion not tested"; fi
# EXPECTED WORDS... (offers), in both shells
OFFERS='check ch
help he
--color --co
--version --ve
always --color al
check --root /tmp ch
check --color never ch
platform.kind check --only platform.k
libs check --only li
bridge.dxg.missing kb bridge.dxg.
history help hi
gpu bench g
never check --color n
--apply fix --ap
--policy smoke --pol
--changes history --ch'
# Every line zsh is asked below, asked of one zsh (complete.zsh --each):
# a zsh's compinit is 2 s of CPU. Should that zsh say anything on its
# standard error or fail, each line is asked of a zsh of its own instead.
ZSH_LINES=""
if [ "${shells#*zsh}" != "$shells" ]; then
	ZSH_LINES=$(printf '%s\n' "$OFFERS" | while read -r _want words; do echo "wslgpu $words"; done
		echo "wslgpu check --only platform,bridge.d"
		echo "wslgpu check --only "
		for c in $cmds; do [ "$c" = help ] || [ "$c" = kb ] || echo "wslgpu $c --"; done)
	mkdir "$WORK/zsh"
	# one argument a line
	(IFS=$NL; set -f; exec env -i PATH="$BUILD:/usr/bin:/bin" HOME="$WORK" TERM=xterm zsh -f \
		"$top/tests/e2e/complete.zsh" "$C" --each "$WORK/zsh" $ZSH_LINES) 2>"$WORK/zsh.err" >&2 &&
		[ ! -s "$WORK/zsh.err" ] || rm -f "$WORK"/zsh/*
fi
for s in $shells; do
	while read -r want words; do
		# shellcheck disable=SC2086
		offers $s "$want" $words </dev/null
	done <<EOF
$OFFERS
EOF
done
offers bash platform,bridge.dxg check --only platform,bridge.d
[ "${shells#*zsh}" != "$shells" ] && offers zsh bridge.dxg check --only platform,bridge.d
# every id of the KB and of check --list is offered after its prefix
OUT=$(complete_bash wslgpu kb bridge.dxg.)
want=$("$WSLGPU" kb | awk '$1 ~ /^bridge\.dxg\./ { print $1 }' | sort)
[ "$(printf '%s\n' "$OUT" | sort)" = "$want" ] && ok "bash: kb offers exactly the bridge.dxg.* entries" ||
	fail "bash kb bridge.dxg.: $OUT"
# no zsh error for --only (the reported _values:compvalues:11: not enough arguments)
if [ "${shells#*zsh}" != "$shells" ]; then
	OUT=$(complete_zsh wslgpu check --only '')
	if printf '%s\n' "$OUT" | grep -q 'error\|not enough'; then fail "zsh --only: $OUT"; else
		printf '%s\n' "$OUT" | grep -qx platform && ok "zsh check --only TAB offers the layers" || fail "zsh --only: $OUT"; fi
fi
# every option of every command is offered after the command word
for c in $cmds; do
	[ "$c" = help ] || [ "$c" = kb ] && continue
	want=$("$WSLGPU" "$c" --help | sed -n 's/^ \{1,\}\(-[a-zA-Z], \)\{0,1\}\(--[a-z][a-z-]*\).*/\2/p' | sort -u)
	for s in $shells; do
		if [ $s = bash ]; then got=$(complete_bash wslgpu "$c" --); else got=$(complete_zsh wslgpu "$c" --); fi
		missing=""
		for o in $want; do printf '%s\n' "$got" | grep -qxF -- "$o" || missing="$missing $o"; done
		OUT=$got
		[ -z "$missing" ] && ok "$s: every option of $c" || fail "$s: $c does not offer:$missing"
	done
done

done_testing
