# platform.sh: platform layer on fixture machines.
. "$(dirname "$0")/lib.sh"

fixture healthy-wsl2
run_json --only platform
expect_rc 0
expect_status platform.kind pass
expect_json '.platform.kind == "wsl2"'
expect_json '.platform.kernel == "5.15.167.4-microsoft-standard-WSL2"'
expect_json '.platform.distro == "Ubuntu 22.04.4 LTS"'
expect_json '.schema == "wslgpu/check/2"'
expect_status platform.systemd pass
expect_status platform.interop pass
run --only platform
expect_line '^✓ platform\.kind +WSL2 \(kernel 5\.15\.167\.4-microsoft-standard-WSL2\)$'
expect_line '^✓ No problems found in 5 checks\.$'

fixture wsl1
run
expect_rc 1
expect_line '^✗ platform\.kind +this distribution runs under WSL1'
expect_line 'fix +wsl\.exe -l -v'
# the distribution's name is known (WSL_DISTRO_NAME): filled in
expect_line '^             wsl\.exe --set-version Ubuntu 2   # in PowerShell$'
expect_no_line 'DISTRO'
# The checks it holds back are one line under it; -v lists each.
expect_line '^      [0-9]+ checks skipped until this is fixed \(-v lists them\)$'
expect_no_line '^- platform\.kernel'
run -v
expect_line '^- platform\.kernel +skipped: platform\.kind failed, fix that first +\([0-9]+ ms\)$'
expect_line '^✗ Broken at the platform layer'
run_json
expect_json '.platform.kind == "wsl1"'
expect_json '.summary.first_failure == "platform.kind"'
expect_json '[.checks[] | select(.id != "platform.kind") | .status] | all(. == "skip")'
expect_json '.summary.status == "fail"'
# unknown, it stays a template to complete, never run
setenv WSL_DISTRO_NAME=
run
expect_line '^             # wsl\.exe --set-version DISTRO 2   # in PowerShell; a template: put in DISTRO, the NAME'
# --windows is never met with silence: host.driver, which asks, was held back
run --windows
expect_err 'warning: --windows: Windows was not asked: host\.driver skipped: platform\.kind failed'
run --windows --only platform.kind
expect_err 'warning: --windows: Windows was not asked: host\.driver, which asks it, was not selected'

# systemd asked for in wsl.conf but not running: WSL was not restarted.
fixture healthy-wsl2
echo init > "$ROOT/proc/1/comm"
run_json --only platform.systemd
expect_status platform.systemd warn
expect_json '.checks[0].fix[0] | test("wsl.exe --shutdown")'

# A custom kernel whose string names no Microsoft is still WSL2 by its markers.
fixture healthy-wsl2
echo 6.6.36-custom > "$ROOT/proc/sys/kernel/osrelease"
run_json --only platform.kind
expect_json '.platform.kind == "wsl2"'
expect_json '.checks[0].evidence.note | test("custom kernel")'

# Old WSL kernel: warn below 5.10.16.3, fail below 4.19.121.
fixture healthy-wsl2
echo 4.19.128-microsoft-standard > "$ROOT/proc/sys/kernel/osrelease"
run_json --only platform.kernel
expect_status platform.kernel warn
echo 4.19.104-microsoft-standard > "$ROOT/proc/sys/kernel/osrelease"
run_json --only platform.kernel
expect_status platform.kernel fail
expect_rc 1

# The WSL releases that ship a kernel (src/kb/versions.c), and a kernel newer
# than that table: said so, not guessed into an older release.
echo 6.6.87.2-microsoft-standard-WSL2 > "$ROOT/proc/sys/kernel/osrelease"
run_json --only platform.kernel
expect_status platform.kernel pass
expect_json '.checks[0].evidence.wsl_releases == "WSL 2.5.9 to 2.6.3"'
echo 6.18.26.1-microsoft-standard-WSL2 > "$ROOT/proc/sys/kernel/osrelease"
run_json --only platform.kernel
expect_json '.checks[0].evidence.wsl_releases == "WSL 2.8.5 to 2.8.8, 2.7.4 to 2.7.7"'
echo 6.18.99.1-microsoft-standard-WSL2 > "$ROOT/proc/sys/kernel/osrelease"
run_json --only platform.kernel
expect_status platform.kernel pass
expect_json '.checks[0].evidence.kernel_known == "kernel 6.18.99.1-microsoft-standard-WSL2 is newer than this tool\u0027s knowledge of 2026-12 (its table ends at 6.18.35.2)"'
expect_json '.checks[0].evidence.wsl_releases == null'

done_testing
