#!/bin/sh
# plans.sh: a plan converges (issue 29). For every fixture machine whose
# `fix --commands` holds environment steps (export or unset of
# LD_LIBRARY_PATH, CUDA_VISIBLE_DEVICES, PATH...), those steps are run in
# a shell with the fixture's environment, as the user would paste them, and
# `check` runs again in what they leave: each check a step was for no
# longer fails or warns with the same KB entry, and no environment finding
# appears that was not there before (no step restored what an earlier one
# removed, none left an empty entry that adds the current directory).
. "$(dirname "$0")/lib.sh"

# "check kb status" of every fail and warn in a check --json file.
findings() {
	jq -r '.checks[] | select(.status == "fail" or .status == "warn") |
		"\(.id) \(.kb // "-") \(.status)"' "$1"
}
# "check: detail" of every fail and warn, and of the further findings a
# check names beside its first ("also": a check reports one KB entry, and
# the plan has that entry's fix; the others show once it is fixed).
details() {
	jq -r '.checks[] | select(.status == "fail" or .status == "warn") |
		"\(.id): \(.detail)", (.evidence.also // [] | if type == "array" then .[] else . end |
		"\(.id // ""): \(.)")' "$1" 2>/dev/null
	jq -r '.checks[] | . as $c | (.evidence.also // [] | if type == "array" then .[] else . end |
		"\($c.id): \(.)")' "$1"
}
# Whether a finding is about the environment of the shell.
env_finding() { # "check kb status"
	case $1 in
	'libs.env '* | *ldpath* | *visible* | *[._]env[._\ ]* | *cuda_home* | *stub*) return 0 ;;
	esac
	return 1
}

n=0
for name in $(fixture_tool --list); do
	fixture "$name"
	selected || continue
	shared run fix --commands
	# the environment steps, and the checks whose steps they are
	printf '%s\n' "$OUT" | grep -E '^(export|unset) ' >"$WORK/steps" || continue
	printf '%s\n' "$OUT" | awk '/^# \[[0-9]+\] /{check=$3} /^(export|unset) /{print check}' |
		sort -u >"$WORK/targets"
	n=$((n + 1))
	shared run_json check
	findings "$JSON" >"$WORK/before"
	details "$JSON" >"$WORK/before.details"
	# the steps as the user pastes them, in the fixture's shell, then check
	# shellcheck disable=SC2086
	env -i $RUN_VARS COLUMNS=1000 sh -c '. "$1" && exec "$2" --root "$3" check --json' sh \
		"$WORK/steps" "$WSLGPU" "$ROOT" >"$WORK/after.json" 2>"$WORK/after.err"
	if ! jq -e . "$WORK/after.json" >/dev/null 2>&1; then
		fail "check after the steps printed no JSON: $(head -3 "$WORK/after.err")"
		continue
	fi
	findings "$WORK/after.json" >"$WORK/after"
	steps=$(tr '\n' ';' <"$WORK/steps")
	while read -r check; do
		was=$(grep "^$check " "$WORK/before" | head -1)
		[ -n "$was" ] || { fail "step for $check, which did not fail or warn"; continue; }
		kb=$(echo "$was" | cut -d' ' -f2)
		if grep -q "^$check $kb " "$WORK/after"; then
			fail "$check still says $kb after: $steps"
		else
			ok "$check no longer says $kb after: $steps"
		fi
	done <"$WORK/targets"
	new=""
	while read -r f; do
		grep -qxF "$f" "$WORK/before" && continue
		env_finding "$f" || continue
		# one the check named before beside its first is not new
		check=${f%% *}
		detail=$(jq -r --arg id "$check" '.checks[] | select(.id == $id) | .detail' "$WORK/after.json")
		grep -qxF "$check: $detail" "$WORK/before.details" && continue
		new="$new [$f: $detail]"
	done <"$WORK/after"
	if [ -z "$new" ]; then ok "no new environment finding after: $steps"; else
		fail "new environment findings after $steps:$new"; fi
done
if [ -z "${WSLGPU_TEST_CASE:-}" ]; then
	# the fixtures that have such steps (ldpath-stubs, conda-libcuda,
	# distro-libcuda, cuda-visible-devices-empty, ...) were all tried
	if [ "$n" -ge 5 ]; then ok "$n plans with environment steps tried"; else
		fail "only $n plans with environment steps"; fi
fi

done_testing
