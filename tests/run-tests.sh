#!/bin/sh
# run-tests.sh [SELECTOR...]: runs the tests of the project in parallel under
# prove (TAP), then prints what failed and one closing line
# "total: N passed, N failed, N todo (F files, S s)"; the exit status is 0 only when
# nothing failed. `make check` calls it with BUILD set (T=... passes
# selectors). doc/testing.md describes it.
#
#   unit tests:  $BUILD/tests/test_* (cmocka, CMOCKA_MESSAGE_OUTPUT=TAP)
#   e2e tests:   tests/e2e/*.sh (the real binary on fixture machines)
#   real tests:  tests/real/*.sh (the same, held against the real NVIDIA
#                software; an assertion that fails today for a known reason
#                prints "not ok ... # TODO reason", counted apart, and shown)
#
# A SELECTOR is NAME or NAME:CASE. NAME (a shell pattern) picks the e2e
# script tests/e2e/NAME.sh and the unit test test_NAME (or NAME itself:
# test_libs, e2e/libs and unit/test_libs pick one); CASE (a pattern too)
# picks, in a unit test, the cmocka functions of that name, and in an e2e
# script the runs and assertions on that fixture (tests/e2e/lib.sh):
#   tests/run-tests.sh libs                     both libs tests
#   tests/run-tests.sh libs:ldpath-stubs        one fixture of libs.sh
#   tests/run-tests.sh kbgen:test_messages      one cmocka function
# A script whose header has the line "# test-parts: N" runs as N tests,
# e2e/NAME@1 .. e2e/NAME@N (WSLGPU_TEST_PART=K/N; NAME picks them all,
# NAME@K one).
# TEST_JOBS sets how many run at once (default: twice the CPUs, as the e2e
# tests mostly wait on the processes they start). Each test's output is
# kept in $BUILD/test-logs/.
set -u
BUILD=${BUILD:-build}
export BUILD
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 3
LOGS=$BUILD/test-logs
NL='
'

# ---- one test, as prove runs it: TAP on stdout ----
# NAME is unit/test_X or e2e/X, with :CASE or not. The plan is printed
# last, from the TAP lines the test printed (the e2e scripts print none: an
# assertion in a subshell would make their own count wrong); an e2e script
# that stops before its closing "e2e-result:" line fails.
if [ "${1:-}" = --one ]; then
	name=${2%%:*}
	case $2 in *:*) WSLGPU_TEST_CASE=${2#*:} ;; *) WSLGPU_TEST_CASE="" ;; esac
	export WSLGPU_TEST_CASE
	# e2e/NAME@K: part K of a script whose header says "# test-parts: N"
	# (lib.sh's `mine` and `in_part` pick a part's share)
	WSLGPU_TEST_PART=""
	case $name in *@*)
		n=$(sed -n 's/^# test-parts: \([0-9]*\)$/\1/p' "tests/${name%@*}.sh")
		WSLGPU_TEST_PART=${name#*@}/$n
		name=${name%@*}
		;;
	esac
	export WSLGPU_TEST_PART
	log=$LOGS/$(echo "$2" | tr '/:*?[]' '______')
	read -r up0 _ </proc/uptime
	case $name in
	unit/*) CMOCKA_MESSAGE_OUTPUT=TAP "$BUILD/tests/${name#unit/}" >"$log.out" 2>"$log.err" ;;
	e2e/*) sh "tests/e2e/${name#e2e/}.sh" >"$log.out" 2>"$log.err" ;;
	real/*) sh "tests/real/${name#real/}.sh" >"$log.out" 2>"$log.err" ;;
	*) echo "Bail out! no test $2"; exit 2 ;;
	esac
	rc=$?
	# Its wall and CPU seconds (the shell's children's times: the test's).
	read -r up1 _ </proc/uptime
	times >"$log.times"
	awk -v w0="$up0" -v w1="$up1" 'NR == 2 { gsub(/s/, ""); split($1, u, "m"); split($2, y, "m")
		printf "%.2f %.2f %.2f\n", w1 - w0, u[1] * 60 + u[2], y[1] * 60 + y[2] }' "$log.times" >"$log.secs"
	cat "$log.out"
	case $name in e2e/* | real/*)
		n=$(grep -c -E '^(not )?ok( |$)' "$log.out")
		if ! grep -q '^e2e-result:' "$log.out"; then
			echo "not ok - the script stopped before its end (exit status $rc)"
			n=$((n + 1))
		fi
		# A command the script itself calls that does not exist (a
		# helper another script defines) makes sh say so and go on: an
		# assertion that silently asserted nothing.
		missing=$(grep -E '^[^ ]+\.sh: [0-9]+: [^ ]+: not found$' "$log.err")
		if [ -n "$missing" ]; then
			printf 'not ok - the script called a command that does not exist\n'
			printf '%s\n' "$missing" | sed 's/^/# /'
			n=$((n + 1))
			rc=1
		fi
		echo "1..$n"
		;;
	esac
	echo "$rc" >"$log.rc"
	exit "$rc"
fi

# ---- which tests ----
all=""
# A script whose header says "# test-parts: N" runs as N tests, e2e/NAME@1
# to e2e/NAME@N, each with a share of its fixtures (lib.sh's `mine`): a
# long loop over every fixture would otherwise be the one test still
# running at the end, on one CPU.
parts=$(grep -H '^# test-parts: [0-9]*$' tests/e2e/*.sh)
for t in tests/e2e/*.sh; do
	case $t in */lib.sh) continue ;; esac
	t=${t%.sh}
	n=""
	case $parts in *"$t.sh:# test-parts: "*)
		n=${parts#*"$t.sh:# test-parts: "}
		n=${n%%"$NL"*}
		;;
	esac
	if [ -n "$n" ]; then
		k=1
		while [ "$k" -le "$n" ]; do all="$all e2e/${t##*/}@$k"; k=$((k + 1)); done
	else
		all="$all e2e/${t##*/}"
	fi
done
for t in tests/real/*.sh; do
	case $t in */lib.sh) continue ;; esac
	all="$all real/$(basename "$t" .sh)"
done
for t in "$BUILD"/tests/test_*; do
	[ -f "$t" ] && [ -x "$t" ] || continue
	all="$all unit/$(basename "$t")"
done

if [ $# -eq 0 ]; then
	picked=$all
else
	picked=""
	for sel in "$@"; do
		pat=${sel%%:*}
		case $sel in *:*) cs=:${sel#*:} ;; *) cs="" ;; esac
		n=0
		for t in $all; do
			short=${t#*/}
			# shellcheck disable=SC2254
			# (NAME picks all parts of e2e/NAME@K, NAME@K one)
			case $t in
			$pat | */$pat | unit/test_$pat) picked="$picked $t$cs"; n=$((n + 1)) ;;
			*@*) case ${t%@*} in $pat | */$pat) picked="$picked $t$cs"; n=$((n + 1)) ;; esac ;;
			esac
		done
		if [ $n -eq 0 ]; then
			echo "run-tests.sh: no test is named '$pat' (e2e: tests/e2e/NAME.sh, unit: $BUILD/tests/test_NAME)" >&2
			exit 2
		fi
	done
fi

# ---- run them ----
if ! command -v prove >/dev/null; then
	echo "run-tests.sh: prove (Perl's TAP harness, Debian package perl) is needed" >&2
	exit 3
fi
jobs=${TEST_JOBS:-$(($(nproc 2>/dev/null || echo 1) * 2))}
rm -rf "$LOGS"
mkdir -p "$LOGS"
# What the tests would each make alike is made once in this run and copied
# from there: every fixture (tools/fixture) and the programs tests/real
# compiles. A new run makes them again, from the sources and fakes of now.
case $BUILD in /*) WSLGPU_TEST_CACHE=$BUILD/test-cache ;; *) WSLGPU_TEST_CACHE=$top/$BUILD/test-cache ;; esac
WSLGPU_FIXTURE_CACHE=$WSLGPU_TEST_CACHE/fixtures
export WSLGPU_TEST_CACHE WSLGPU_FIXTURE_CACHE
rm -rf "$WSLGPU_TEST_CACHE"
t0=$(date +%s)
# prove -j starts the tests in the order it is given: the slowest first, by
# their wall times in this build's last run ($BUILD/test-times) or, for a
# test it has not timed, in tests/test-times (a whole run on 2 CPUs), so
# that no long test starts last and the jobs end together.
picked=$(for t in $picked; do echo "$t"; done |
	awk -v mine="$BUILD/test-times" -v known=tests/test-times '
	BEGIN { while ((getline l < known) > 0) if (l !~ /^#/) { split(l, f, " "); w[f[1]] = f[2] }
		while ((getline l < mine) > 0) { split(l, f, " "); w[f[1]] = f[2] } }
	{ n = $0; sub(/:.*/, "", n); b = n; sub(/@.*/, "", b)
		print (n in w ? w[n] : b in w ? w[b] : 0), $0 }' |
	sort -s -k1,1 -rn | cut -d' ' -f2- | tr '\n' ' ')
# shellcheck disable=SC2086
prove -j "$jobs" --exec "sh $0 --one" $picked
prc=$?
secs=$(($(date +%s) - t0))

# Each whole test's wall, user and system seconds, kept for the next run's
# order ($BUILD/test-times: NAME WALL USER SYS, the slowest first).
for t in $picked; do
	case $t in *:*) continue ;; esac
	log=$LOGS/$(echo "$t" | tr '/:*?[]' '______')
	[ -s "$log.secs" ] && echo "$t $(cat "$log.secs")"
done >"$LOGS/times"
if [ -s "$LOGS/times" ]; then
	{ cat "$LOGS/times"; cat "$BUILD/test-times" 2>/dev/null; } |
		awk '!seen[$1]++' | sort -k2,2 -rn >"$BUILD/test-times.new" &&
		mv "$BUILD/test-times.new" "$BUILD/test-times"
fi

# ---- what failed, and the closing line ----
passed=0 failed=0 todo=0 files=0 failing="" todos=""
for t in $picked; do
	log=$LOGS/$(echo "$t" | tr '/:*?[]' '______')
	files=$((files + 1))
	ok=$(grep -c -E '^ok( |$)' "$log.out" 2>/dev/null)
	bad=$(grep -E '^not ok( |$)' "$log.out" 2>/dev/null | grep -c -v ' # TODO ')
	# Known failures (tests/real: "not ok - ... # TODO reason") are not
	# failures, and never silent: each is shown at the end, every run.
	known=$(grep -E '^(not )?ok( |$).* # TODO ' "$log.out" 2>/dev/null)
	if [ -n "$known" ]; then
		todo=$((todo + $(printf '%s\n' "$known" | grep -c '^not ok')))
		todos="$todos$NL$(printf '%s\n' "$known" | sed "s|^|  $t: |")"
	fi
	rc=$(cat "$log.rc" 2>/dev/null || echo "?")
	passed=$((passed + ${ok:-0}))
	if [ "${bad:-0}" -gt 0 ] || [ "$rc" != 0 ]; then
		[ "${bad:-0}" -gt 0 ] || bad=1
		failed=$((failed + bad))
		failing="$failing $t"
		# The first failed case, as a selector that runs it alone: the
		# cmocka function, or the fixture an e2e assertion names.
		first=$(awk '/^not ok/ && !/ # TODO / { sub(/^not ok [0-9]* *(- )?/, ""); print; exit }' "$log.out")
		case $t in unit/*) first=${first%% *} ;; *) first=${first%%:*} ;; esac
		name=${t#*/}
		name=${name%%:*}
		echo
		echo "==== $t: $bad failed, exit status $rc (all of it: $log.out, $log.err)"
		[ -n "$first" ] && echo "run it alone: BUILD=$BUILD tests/run-tests.sh '${name#test_}:$first'"
		# Each failed assertion with its details (its "# " lines).
		awk '/^not ok/ && !/ # TODO / { show = 1; print; next } /^not ok/ { show = 0; next } /^ok/ { show = 0 } show && /^#/' "$log.out" |
			head -120
		if [ -s "$log.err" ]; then
			echo "---- stderr (last lines)"
			tail -n 20 "$log.err"
		fi
	fi
done
if [ "$prc" -ne 0 ] && [ "$failed" -eq 0 ]; then
	# prove saw what the counts above do not: TAP that is not valid.
	failed=1
	failing=" (prove: see its report above)"
fi
if [ -n "$todos" ]; then
	echo
	echo "known failures (TODO, not counted as failed):$todos"
fi
echo
[ -n "$failing" ] && echo "failing:$failing"
cpu=$(awk '{ u += $3; s += $4 } END { printf "%.0f", u + s }' "$LOGS/times")
echo "total: $passed passed, $failed failed, $todo todo ($files files, $secs s, $cpu s CPU)"
[ "$failed" -eq 0 ] && [ "$prc" -eq 0 ]
