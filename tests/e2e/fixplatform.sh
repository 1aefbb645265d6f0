#!/bin/sh
# fixplatform.sh: a fix must work where it is typed. Off WSL (native Linux,
# a container) no view shows a WSL step -- check, check -v, --brief, --json,
# fix, fix --json, fix --commands, report --markdown and --html -- although
# the same finding on WSL2 keeps it; on WSL no view shows a native-only step
# (the kernel module's version, a reboot after a driver update). Every
# result's fixes are chosen for platform.kind's platform (JSON fixes_for).
. "$(dirname "$0")/lib.sh"

with() { EXTRA_ENV=""; [ $# -gt 0 ] && setenv "$@"; }

# The words of a step for WSL or for Windows (a cause may still say what
# the same error means on WSL; these are steps, not explanations).
WSL_STEP='wsl\.exe|wsl --|PowerShell|nvidia-smi\.exe|\.wslconfig|/usr/lib/wsl|--windows|Windows driver|Windows-side|on WSL|in WSL'
# ...and of a step for Linux outside WSL.
NATIVE_STEP='/proc/driver/nvidia|sudo reboot|natively|modprobe nvidia|dkms status|mokutil'

# fix_lines VIEW: the fix lines of the last run's output of VIEW (not its
# causes, details or skipped checks, which may say what WSL is): the
# terminal's "fix" blocks, the JSON's fix arrays and plan commands, the
# plan's commands, its Windows lines (# PS>) and risks, Markdown's code
# blocks and HTML's <pre>.
fix_lines() {
	case $1 in
	check*--json) printf '%s\n' "$OUT" | jq -r '.checks[].fix[]' ;;
	check*) printf '%s\n' "$OUT" | awk '/^ +fix +/ { f = 1; print; next }
		f && /^             / { print; next } { f = 0 }' ;;
	"fix --json") printf '%s\n' "$OUT" | jq -r '.steps[] | (.commands[] | .line, .risk_reason), .risk_reason' ;;
	"fix --commands") printf '%s\n' "$OUT" | grep -v '^#' ;;
	fix) printf '%s\n' "$OUT" | grep -Ev '^#( |$)' ; printf '%s\n' "$OUT" | grep -E '^# (PS>|do:|risk:|Windows:)' ;;
	"report --markdown") printf '%s\n' "$OUT" | awk '/^```/ { f = !f; next } f' ;;
	"report --html") printf '%s\n' "$OUT" | awk '/<pre>/ { f = 1 } f { print } /<\/pre>/ { f = 0 }' ;;
	esac
}

# no_step_in VIEW REGEX: no fix line of the last run matches REGEX, and
# the view showed some (the extraction reads that view's format; --commands
# may have none to run).
no_step_in() {
	selected || return 0
	lines=$(fix_lines "$1")
	hit=$(printf '%s\n' "$lines" | grep -E "$2" | head -1)
	if [ -z "$lines" ] && [ "$1" != "fix --commands" ]; then fail "$1: no fix line found to read"
	elif [ -z "$hit" ]; then ok "$1: no step for another platform"
	else fail "$1: a step for another platform: $hit"; fi
}

# every_view REGEX: each view of the current fixture and fault shows none.
every_view() {
	for view in "check" "check -v" "check --brief" "check --json" "fix" "fix --json" \
		"fix --commands" "report --markdown" "report --html"; do
		# shellcheck disable=SC2086
		run $view
		no_step_in "$view" "$1"
	done
}

# ---- native Linux: CUDA's and NVML's findings that also name WSL ----
# cuInit 3 and 304, a launch failure, a PTX the JIT refuses, NVML's 999:
# general entries whose later steps are WSL's (wsl.exe --shutdown, the
# Windows view).
fixture native-nvidia
for fault in FAKE_CUDA_FAIL=cuInit:3 FAKE_CUDA_FAIL=cuInit:304 \
	FAKE_CUDA_FAIL=cuLaunchKernel:719 FAKE_CUDA_FAIL=cuModuleLoadData:218 \
	FAKE_NVML_FAIL=nvmlInit_v2:999; do
	with "$fault"
	every_view "$WSL_STEP"
	run_json
	expect_json '[.checks[] | select(.fixes_for != "native")] == []'
	expect_json '[.checks[] | select(.status != "pass") | .fix[]] | length > 0'
done
# what is left holds there, and comes first
with FAKE_CUDA_FAIL=cuInit:3
run_json --only cuda.init
expect_json '.checks[] | select(.id == "cuda.init") | .fix == ["unset CUDA_VISIBLE_DEVICES", "nvidia-smi   # does the driver answer, and list the GPU?"]'
with FAKE_NVML_FAIL=nvmlInit_v2:999
run_json --only nvml.init
expect_json '.checks[] | select(.id == "nvml.init") | .fix == ["nvidia-smi"]'
# an aside for WSL in a remark goes, the step stays
with FAKE_NVML_FAIL=nvmlInit_v2:18
run_json --only nvml.init
expect_json '.checks[] | select(.id == "nvml.init") | .kb == "nvml.init.version_mismatch"'
expect_json '.checks[] | select(.id == "nvml.init") | .fix[0] == "ldconfig -p | grep libnvidia-ml   # the copies programs may load"'
expect_json '[.checks[] | select(.id == "nvml.init") | .fix[] | select(test("/proc/driver/nvidia"))] | length == 1'
every_view "$WSL_STEP"

# ---- the same findings on WSL2 keep their WSL steps ----
fixture healthy-wsl2
with FAKE_CUDA_FAIL=cuInit:3
run_json --only cuda.init
expect_json '.checks[] | select(.id == "cuda.init") | .fixes_for == "wsl2"'
expect_json '.checks[] | select(.id == "cuda.init") | .fix[2] | startswith("wsl.exe --shutdown")'
run fix
expect_line '^# PS> wsl\.exe --shutdown'
expect_line 'Windows-side commands'
# ...and show no native-only step: NVML 18 inside WSL is a Linux driver's
# library, not a kernel module to reload
with FAKE_NVML_FAIL=nvmlInit_v2:18
run_json --only nvml.init
expect_json '.checks[] | select(.id == "nvml.init") | .fix[0] | startswith("ldconfig -p | grep libnvidia-ml   # the copies programs may load")'
expect_json '.checks[] | select(.id == "nvml.init") | .fix[1] | startswith("wslgpu check --only libs   # on WSL: a Linux driver'"'"'s library that shadows /usr/lib/wsl/lib")'
every_view "$NATIVE_STEP"

# ---- a container on native Linux (no GPU handed in) ----
fixture container-no-gpu
every_view "$WSL_STEP"
run_json
expect_json '[.checks[] | select(.fixes_for != "container")] == []'

# ---- sources: off WSL, WSL's and Windows' pages go where another is left ----
WSL_PAGE='wsl|learn[.]microsoft[.]com/en-us/windows/'
for fx in native-nvidia container-no-gpu; do
	fixture "$fx"
	with CUDA_HOME=/nonexistent
	run_json
	expect_json '.checks[] | select(.id == "libs.env") | .source | length > 0'
	expect_json "[.checks[] | select(.source | length > 1) | select(any(.source[]; test(\"$WSL_PAGE\")))] == []"
	run check -v
	if selected; then
		if printf '%s\n' "$OUT" | grep -E '^ +source ' | grep -qE "$WSL_PAGE"; then
			fail "check -v: a WSL page as a source off WSL"
		else ok "check -v: no WSL page as a source off WSL"; fi
	fi
done
# ...on WSL2 the same entry keeps them
fixture healthy-wsl2
with CUDA_HOME=/nonexistent
run_json
expect_json '.checks[] | select(.id == "libs.env") | any(.source[]; test("wsl-user-guide"))'

# ---- WSL fixtures with Linux driver packages, nouveau, Docker ----
for fx in dpkg-linux-driver nouveau-loaded docker-ce-no-toolkit docker-permission; do
	fixture "$fx"
	run_json
	expect_json '[.checks[] | select(.fixes_for != "wsl2")] == []'
	run check
	no_step_in check 'natively|/proc/driver/nvidia|sudo reboot|dkms status|mokutil'
done

done_testing
