#!/bin/sh
# fixuser.sh: a fix line's sudo is for whoever types it (issue 29): root
# needs none, a container's root often has none installed; a user without
# sudo gets the command and "as root". The same line in check, --brief,
# --json, fix, fix --commands, fix --json, report --markdown, smoke and
# explain --check (all read it where the KB entry is filled in). The
# effective uid is WSLGPU_TEST_EUID (tools/fixture sets 1000); sudo is
# looked up inside the fixture root.
. "$(dirname "$0")/lib.sh"

AS_ROOT='# as root: there is no sudo here'

# Every view, into $WORK/all: the lines a user would read or paste.
all_views() {
	: >"$WORK/all"
	for args in "check" "check --brief" "check --json" "fix" "fix --commands" "fix --json" \
		"report --markdown" "smoke --json"; do
		# shellcheck disable=SC2086
		run $args
		printf '%s\n' "$OUT" >>"$WORK/all"
	done
}

# ---- a WSL user with sudo: the KB's lines as written
fixture distro-libcuda
run fix --commands
expect_line '^sudo apt-get remove --purge libnvidia-compute-535$'
expect_line '^sudo ldconfig$'
expect_no_line 'as root'

# ---- root (sudo installed or not): no sudo anywhere
for have_sudo in yes no; do
	fixture distro-libcuda
	[ $have_sudo = no ] && rm "$ROOT/usr/bin/sudo"
	setenv WSLGPU_TEST_EUID=0
	run fix --commands
	expect_line '^apt-get remove --purge libnvidia-compute-535$'
	expect_line '^ldconfig$'
	expect_line '^apt-get remove --purge nvidia-utils-535   # the package that owns /usr/bin/nvidia-smi$'
	printf '%s\n' "$OUT" >"$WORK/plan.sh"
	if bash -n "$WORK/plan.sh"; then ok "root (sudo: $have_sudo): fix --commands passes bash -n"; else
		fail "root (sudo: $have_sudo): fix --commands fails bash -n"; fi
	run_json fix
	expect_json '[.steps[].commands[] | select(.command == "apt-get remove --purge libnvidia-compute-535")] | length == 1'
	# root's commands still change the system
	expect_json '.steps[0].risk == "high"'
	all_views
	if grep -Eq '(^|[|;&(:] *|fix +|"|then )sudo ' "$WORK/all"; then
		fail "root (sudo: $have_sudo): a view still says sudo: $(grep -E '(^|[|;&(:] *|fix +|"|then )sudo ' "$WORK/all" | head -3)"
	else
		ok "root (sudo: $have_sudo): no view says sudo"
	fi
	if grep -q 'as root' "$WORK/all"; then fail "root: told to become root"; else ok "root: no 'as root' remark"; fi
done

# ---- a user without sudo: the command, and to run it as root
fixture distro-libcuda
rm "$ROOT/usr/bin/sudo"
run fix --commands
expect_line "^apt-get remove --purge libnvidia-compute-535   $AS_ROOT\$"
expect_line "^ldconfig   $AS_ROOT\$"
expect_line "^apt-get remove --purge nvidia-utils-535   # the package that owns /usr/bin/nvidia-smi; as root: there is no sudo here\$"
# a command for this shell stays as it is
expect_line '^unset LD_LIBRARY_PATH   # for this shell$'
printf '%s\n' "$OUT" >"$WORK/plan.sh"
if bash -n "$WORK/plan.sh"; then ok "no sudo: fix --commands passes bash -n"; else fail "no sudo: fix --commands fails bash -n"; fi
run fix
expect_line '^# needs root'
run_json check
expect_json '.checks[] | select(.id == "libs.libcuda") | .fix | index("sudo ldconfig   (as root: there is no sudo here)") == null'
expect_json '.checks[] | select(.id == "libs.libcuda") | [.fix[] | select(startswith("ldconfig"))] | length == 1'
run_json fix
expect_json '[.steps[].commands[] | select(.command == "ldconfig")][0].needs_root'
all_views
if grep -Eq '(^|[|;&(:] *|fix +|"|then )sudo ' "$WORK/all"; then
	fail "no sudo: a view still says sudo: $(grep -E '(^|[|;&(:] *|fix +|"|then )sudo ' "$WORK/all" | head -3)"
else
	ok "no sudo: no view says sudo"
fi
run check --brief
expect_line 'as root: there is no sudo here'
run report --markdown
expect_line "ldconfig +$AS_ROOT"

# ---- a container's root without sudo (docker's default): the host's lines
# keep their sudo, the host is not this container
fixture container-no-gpu
[ -e "$ROOT/usr/bin/sudo" ] && fail "container-no-gpu has a sudo" || ok "container-no-gpu has no sudo"
run check -v
expect_line '# on the host: sudo modprobe nvidia'
expect_no_line 'as root: there is no sudo here'
setenv WSLGPU_TEST_EUID=1000
run check -v
expect_line '# on the host: sudo modprobe nvidia'

done_testing
