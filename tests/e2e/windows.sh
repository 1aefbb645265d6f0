# windows.sh: `check --windows`, the Windows half read through interop
# (src/facts/windows.h), on the healthy WSL2 fixture with the stand-in
# Windows programs of tests/fakes/windows/ in its C:\Windows\System32:
# powershell.exe answering the batched query (and failing, hanging, cut
# short, answering in UTF-16 or with NULs), and without PowerShell the
# programs one by one (nvidia-smi.exe, wsl.exe, cmd.exe, reg.exe,
# wevtutil.exe, typeperf.exe). The stand-ins print what the real programs
# print (tests/fixtures/real/windows/ holds the real outputs).
. "$(dirname "$0")/lib.sh"

WIN_FAKES="$top/tests/fakes/windows"
REAL="$top/tests/fixtures/real/windows"

ev() { jq -r --arg id "$1" --arg k "$2" '.checks[] | select(.id == $id) | .evidence[$k] // empty | if type == "array" then join(",") else . end' "$JSON"; }
field() { jq -r --arg id "$1" --arg k "$2" '.checks[] | select(.id == $id) | .[$k] // empty' "$JSON"; }
expect_ev() {
	got=$(ev "$1" "$2")
	if [ "$got" = "$3" ]; then ok "$1 $2=$3"; else fail "$1 $2 is '$got', expected '$3'"; fi
}
expect_ev_match() {
	got=$(ev "$1" "$2")
	if printf '%s\n' "$got" | grep -Eq -- "$3"; then ok "$1 $2 ~ /$3/"; else fail "$1 $2 is '$got', not /$3/"; fi
}
expect_no_ev() {
	got=$(ev "$1" "$2")
	if [ -z "$got" ]; then ok "$1 has no $2"; else fail "$1 $2 is '$got', expected none"; fi
}
expect_field() {
	got=$(field "$1" "$2")
	if [ "$got" = "$3" ]; then ok "$1 .$2=$3"; else fail "$1 .$2 is '$got', expected '$3'"; fi
}
expect_field_match() {
	got=$(field "$1" "$2")
	if printf '%s\n' "$got" | grep -Eq -- "$3"; then ok "$1 .$2 ~ /$3/"; else fail "$1 .$2 is '$got', not /$3/"; fi
}

# Puts the stand-ins where Windows has the programs.
windows() {
	sys="$ROOT/mnt/c/Windows/System32"
	mkdir -p "$sys/WindowsPowerShell/v1.0"
	for p in nvidia-smi wsl cmd reg wevtutil typeperf; do cp "$WIN_FAKES/$p.exe" "$sys/"; done
	cp "$WIN_FAKES/powershell.exe" "$sys/WindowsPowerShell/v1.0/"
}

# ---- one PowerShell run answers every part ----
fixture healthy-wsl2
windows
run_json --windows --only host.driver
expect_rc 0
expect_status host.driver pass
expect_ev_match host.driver windows_query '^one PowerShell run, [0-9.]+ s$'
for p in smi-q wsl-version ver reg-version reg-graphics reg-machine video-controller events-tdr events-wu gpu-memory; do
	expect_ev host.driver "windows.part.$p" ok
done
# The Windows machine's id, hashed (the GUID itself is never shown).
expect_ev host.driver windows_host_hash "$(printf 'wslgpu-host:3f2504e0-4f89-11d3-9a0c-0305e82c3301' | sha256sum | cut -c1-16)"
if grep -qi 3f2504e0 "$JSON"; then fail "the MachineGuid itself is in the report"; else ok "the MachineGuid itself is not in the report"; fi
expect_ev host.driver windows_driver_version 551.23
expect_ev host.driver windows.gpu.0.driver_model WDDM
expect_ev host.driver windows.gpu.0.pstate P8
expect_ev host.driver windows.gpu.0.power "31.20 W of 320.00 W"
expect_ev host.driver windows.gpu.0.memory "1024 MiB of 10240 MiB in use"
expect_ev host.driver wsl_version 2.3.26.0
expect_ev host.driver dxcore_version 10.0.26100.1-240331-1435.ge-release
expect_ev host.driver windows_version 10.0.22631.4460
expect_ev host.driver windows_build "22631, 23H2"
expect_ev host.driver tdr_delay "2 s (Windows' default: TdrDelay is not set)"
expect_ev host.driver tdr_resets_7d 0
expect_ev host.driver windows_driver_wmi "NVIDIA 31.0.15.5123 (NVIDIA GeForce RTX 3080, dated 2024-02-22, oem42.inf)"
expect_ev host.driver gpu_memory_windows "512 MiB"
expect_ev host.driver gpu_memory_vm "512 MiB (vmmem, vmmemWSL)"
expect_ev host.driver gpu_memory_user "dwm (pid 1232): 512 MiB,vmmemWSL (pid 4321): 512 MiB"
expect_no_ev host.driver newer_store_driver
# The facts in -v.
run --windows -v --only host.driver
expect_line '^      · windows_build: +22631, 23H2$'
expect_line '^      · gpu_memory_user: +dwm \(pid 1232\): 512 MiB$'

# ---- display-driver resets: Display 4101 of the last 7 days ----
fixture healthy-wsl2
windows
setenv FAKE_WIN_RESETS=3 FAKE_WIN_TDRDELAY=8
run_json --windows --only host.driver
expect_status host.driver warn
expect_field host.driver kb host.windows.tdr
expect_field_match host.driver detail '^Windows reset the display driver 3 times in the last 7 days \(last [0-9-]+T[0-9:]+Z\)$'
expect_ev host.driver tdr_resets_7d 3
expect_ev host.driver tdr_delay "8 s (TdrDelay)"
expect_field_match host.driver cause 'The System log holds 3 such reset\(s\) of the last 7 days'
expect_field_match host.driver cause 'The time limit here is 8 s \(TdrDelay\)\.'
# Resets older than 7 days count for nothing; NVIDIA's own errors alone warn.
setenv FAKE_WIN_RESET_AGE=200
run_json --windows --only host.driver
expect_status host.driver pass
expect_ev host.driver tdr_resets_7d 0
fixture healthy-wsl2
windows
setenv FAKE_WIN_NVERR=2
run_json --windows --only host.driver
expect_field host.driver kb host.windows.tdr
expect_field host.driver detail "NVIDIA's Windows driver logged 2 errors in the last 7 days"
# explain's launch time-out names the finding and asks --windows to confirm.
run kb explain.sig.launch_timeout
expect_line 'host\.windows\.tdr'
expect_line 'wslgpu check --windows --only host\.driver'

# ---- an older driver than one in the driver store, installed by Windows Update ----
fixture healthy-wsl2
windows
store="$ROOT/usr/lib/wsl/drivers"
cp -r "$store/nv_dispi.inf_amd64_7e5fd280efaa5445" "$store/nv_dispi.inf_amd64_0a1b2c3d4e5f6071"
sed -i 's/31\.0\.15\.5123/31.0.15.5222/' "$store/nv_dispi.inf_amd64_0a1b2c3d4e5f6071/nv_dispi.inf"
setenv FAKE_WIN_DRIVER_VERSION=31.0.15.3623 "FAKE_WIN_WU=NVIDIA+-+Display+-+31.0.15.3623"
run_json --windows --only host.driver
expect_status host.driver warn
expect_field host.driver kb host.windows.driver_replaced
expect_field host.driver detail "Windows runs NVIDIA driver 31.0.15.3623, installed by Windows Update, older than 31.0.15.5222 in its driver store"
expect_ev host.driver wu_installed_active yes
expect_ev_match host.driver wu_driver_install '^NVIDIA - Display - 31\.0\.15\.3623, [0-9-]+T'
expect_field_match host.driver cause 'Windows Update installed the driver in use'
# Without Windows Update's event the cause does not name it.
setenv FAKE_WIN_DRIVER_VERSION=31.0.15.3623 FAKE_WIN_WU=
run_json --windows --only host.driver
expect_field host.driver kb host.windows.driver_replaced
expect_no_ev host.driver wu_installed_active
got=$(field host.driver cause)
case $got in *"Windows Update installed"*) fail "the cause names Windows Update without its event" ;; *) ok "no Windows Update claim without its event" ;; esac

# ---- the GPU's memory held by Windows programs ----
fixture healthy-wsl2
windows
setenv "FAKE_WIN_MEM=chrome:7700:4096;dwm:1232:1536;vmmemWSL:4321:512" FAKE_WIN_SMI_MEM_MIB=8192
run_json --windows --only host.driver
expect_status host.driver warn
expect_field host.driver kb host.windows.gpu_memory
expect_field host.driver detail "Windows programs hold 5632 MiB of 8192 MiB of the GPU's memory, most of it chrome"
expect_ev host.driver gpu_memory_top chrome
expect_field_match host.driver cause 'Windows programs hold 5632 MiB here \(6144 MiB of 8192 MiB in use in all\), the most chrome\.'

# ---- TCC and MCDM GPUs through the batched query ----
fixture healthy-wsl2
windows
setenv "FAKE_WIN_SMI_GPUS=NVIDIA+GeForce+RTX+3080:WDDM;NVIDIA+L40S:TCC"
run_json --windows --only host.driver
expect_field host.driver kb host.driver.tcc
expect_ev host.driver tcc_gpu "GPU 1: NVIDIA L40S"
setenv "FAKE_WIN_SMI_GPUS=NVIDIA+GeForce+RTX+3080:WDDM;NVIDIA+RTX+PRO+6000:MCDM"
run_json --windows --only host.driver
expect_field host.driver kb host.driver.windows_mismatch
expect_field host.driver detail "Windows lists 2 GPUs (in the MCDM driver model: some), WSL's NVML 1"

# ---- localized Windows: wsl.exe --version as real Japanese and Chinese machines print it ----
fixture healthy-wsl2
windows
setenv "FAKE_WSL_CAPTURE=$REAL/wslver-ja-1.2.0.0-win11.txt"
run_json --windows --only host.driver
expect_ev host.driver wsl_version 1.2.0.0
expect_ev host.driver wsl_kernel_version 5.15.90.1
expect_ev host.driver windows_version 10.0.22621.1555
setenv "FAKE_WSL_CAPTURE=$REAL/wslver-zh-2.5.9.0-noiwsl.txt" FAKE_WIN_VER_WORD=版本
run_json --windows --only host.driver
expect_ev host.driver wsl_version 2.5.9.0
expect_ev host.driver windows_version 10.0.26100.4202
expect_ev host.driver windows.part.ver ok
# ... and as wsl.exe writes it when WSL_UTF8 does not reach it: UTF-16LE.
setenv "FAKE_WSL_CAPTURE=$REAL/wslver-fr-2.3.26.0-rocm.txt" FAKE_WSL_UTF16=1
run_json --windows --only host.driver
expect_ev host.driver wsl_version 2.3.26.0
expect_ev host.driver wsl_kernel_version 5.15.167.4-1

# ---- PowerShell's output garbled, cut short, noisy ----
fixture healthy-wsl2
windows
for mode in utf16 nul noise; do
	setenv FAKE_PS=$mode
	run_json --windows --only host.driver
	expect_status host.driver pass
	expect_ev host.driver wsl_version 2.3.26.0
	expect_ev host.driver windows.part.gpu-memory ok
done
# Cut short: the parts that came are read, the time-out is said, no fallback.
# A limit of seconds, not 1.4 s: the stand-in must print its first parts
# before it, on a machine under any load (at load 20 on 2 CPUs its bash took
# longer than 1.4 s to start).
setenv FAKE_PS=cut
run_json --windows --timeout 6 --only host.driver
expect_status host.driver pass
expect_ev host.driver wsl_version 2.3.26.0
expect_ev host.driver windows.part.ver ok
expect_no_ev host.driver windows.part.gpu-memory
expect_ev_match host.driver windows_partial 'gave 3 of its parts: no answer within 4\.2 s'

# ---- PowerShell hangs: --windows says Windows did not answer, within the limit ----
fixture healthy-wsl2
windows
setenv FAKE_PS=hang
run_json --windows --timeout 2 --only host.driver
expect_status host.driver warn
expect_field host.driver kb host.windows.unreachable
expect_field_match host.driver detail '^--windows: Windows did not answer: PowerShell \(/mnt/c/Windows/System32/WindowsPowerShell/v1\.0/powershell\.exe\) no answer within 1\.4 s$'
if awk -v s="$SECS" 'BEGIN { exit !(s < 6) }'; then ok "a hanging PowerShell costs its limit ($SECS s)"; else fail "took $SECS s"; fi

# ---- PowerShell fails: the programs one by one answer instead ----
setenv FAKE_PS=fail
run_json --windows --only host.driver
expect_status host.driver pass
expect_ev_match host.driver windows_query '^the programs one by one \(no PowerShell\), '
expect_ev host.driver wsl_version 2.3.26.0
expect_ev host.driver windows_build "22631, 23H2"
expect_ev host.driver gpu_memory_windows "512 MiB"

# ---- no PowerShell: the programs one by one, the same facts ----
fixture healthy-wsl2
windows
rm "$ROOT/mnt/c/Windows/System32/WindowsPowerShell/v1.0/powershell.exe"
setenv FAKE_WIN_RESETS=1
run_json --windows --only host.driver
expect_field host.driver kb host.windows.tdr
expect_ev_match host.driver windows_query '^the programs one by one'
for p in smi-q wsl-version ver reg-version reg-graphics reg-machine events-tdr events-wu gpu-memory; do
	expect_ev host.driver "windows.part.$p" ok
done
expect_ev host.driver windows_host_hash "$(printf 'wslgpu-host:3f2504e0-4f89-11d3-9a0c-0305e82c3301' | sha256sum | cut -c1-16)"
expect_ev host.driver windows.gpu.0.pstate P8
expect_ev host.driver gpu_memory_user "dwm (pid 1232): 512 MiB,vmmemWSL (pid 4321): 512 MiB"
# One program hanging costs its share, the others still answer.
cp "$top/tests/fakes/nvidia-smi/hang" "$ROOT/mnt/c/Windows/System32/nvidia-smi.exe"
run_json --windows --timeout 3 --only host.driver
expect_ev_match host.driver windows.part.smi-q '^timeout: nvidia-smi\.exe no answer within'
expect_ev host.driver wsl_version 2.3.26.0
expect_ev host.driver windows.part.ver ok

# ---- nothing Windows to run at all ----
fixture healthy-wsl2
run_json --windows --only host.driver
expect_status host.driver warn
expect_field host.driver kb host.windows.unreachable
expect_field_match host.driver detail 'neither powershell\.exe nor any of the programs it would run was found'

# ---- not WSL: --windows says there is nothing to ask ----
fixture native-nvidia
run_json --windows --only host.driver
expect_ev host.driver windows "not WSL: there is no Windows side to ask"
got=$(jq -r '.checks[] | select(.id == "host.driver") | .evidence.also // empty | if type == "array" then join("|") else . end' "$JSON")
kb=$(field host.driver kb)
case "$kb $got" in *host.windows.not_wsl*) ok "the note names host.windows.not_wsl" ;; *) fail "no host.windows.not_wsl note: kb=$kb also=$got" ;; esac

done_testing
