#!/bin/sh
# layouts.sh: the real 535 and 470 driver user space (Debian's packages) in
# the layouts users have: Ubuntu's libnvidia-compute-NNN, Debian's
# nvidia/current behind /etc/alternatives links, a .run copy owned by no
# package, a conda environment's libcuda; on WSL2 (shadowing the Windows
# driver's libraries), on native Linux with no module, and on native Linux
# whose module the root describes as loaded. Each time wslgpu's evidence is
# held against what the real loader, libcuda, NVML, nvidia-smi and dpkg
# answer in the same run (lib.sh: compare_*).
. "$(dirname "$0")/lib.sh"
real_require

CHECKS="libs.libcuda cuda.load cuda.init nvml.init nvml.smi host.driver toolkit.packages"

# A WSL2 root with Ubuntu's packages and LD_LIBRARY_PATH putting the Linux
# driver first (microsoft/WSL#9099's rc): the loader maps the Linux driver's
# libcuda; its real cuInit answers 100 in WSL.
scenario wsl-ubuntu-535 healthy-wsl2 LD_LIBRARY_PATH=:/usr/lib/x86_64-linux-gnu
ubuntu_compute 535
ldcache
run_json check
compare_cuda
compare_nvml
compare_smi
expect_eq "libs.libcuda names the package" "$(ev libs.libcuda package)" "libnvidia-compute-535"
expect_eq "libs.libcuda reads the library's version" "$(ev libs.libcuda library_version)" \
	"$(basename "$(ev cuda.load loaded)" | sed 's/^libcuda\.so\.//')"
expect_status toolkit.packages fail
dpkg_s_answers
# The same packages are named once each.
expect_json '[.checks[] | select(.id == "toolkit.packages") | .detail | scan("libnvidia-compute-535")] | length == 1' ||
	true
matrix_row wsl-ubuntu-535 "${REAL_CUDA:-}; ${REAL_NVML:-}; ${REAL_SMI:-}" $CHECKS

# Debian's layout in WSL2: libcuda1 puts the library in nvidia/current, the
# links in /usr/lib/x86_64-linux-gnu lead there through /etc/alternatives.
# The real ldconfig puts WSL's directory first (ld.wsl.conf sorts first).
scenario wsl-debian-535 healthy-wsl2
cp "$top/tests/fixtures/container-no-gpu/root/etc/os-release" "$ROOT/etc/os-release"
install_pkg libcuda1 libnvidia-ml1 nvidia-smi libnvidia-ptxjitcompiler1 nvidia-alternative
debian_alternatives current
ldcache
run_json check
compare_cuda
compare_nvml
compare_smi
# Debian's own words for whose files these are: the control data's
# packages, from the link's target (dpkg -S on the link finds none).
expect_eq "libs.libcuda names the owner of the link's target" "$(ev libs.libcuda unversioned_package)" \
	"$(dpkg-query --admindir="$ROOT/var/lib/dpkg" -S "$(in_root /tmp/answer realpath /usr/lib/$ARCH_TRIPLET/libcuda.so | sed -n 's/^loaded=//p')" | cut -d: -f1)"
dpkg_s_answers
# nvidia-smi is an alternatives link too: its target's owner is named.
smi_owner() {
	expect_eq "nvml.smi names the owner of $(ev nvml.smi path)'s target" "$(ev nvml.smi package)" \
		"$(dpkg-query --admindir="$ROOT/var/lib/dpkg" -S "$(in_root /tmp/answer realpath "$(ev nvml.smi path)" | sed -n 's/^loaded=//p')" | cut -d: -f1)"
}
smi_owner
# Every installed package of the driver's source that ships its files is a
# driver package (the control data's Source). TODO_PKGS: those not named
# today, each a TODO with reason $1.
driver_packages_named() {
	reason=$1
	shift
	det=$(field toolkit.packages detail)
	for ctl in "$REAL"/*/DEBIAN/control; do
		p=$(sed -n 's/^Package: //p' "$ctl")
		grep -q "^Package: $p\$" "$ROOT/var/lib/dpkg/status" || continue
		grep -q '^Source: nvidia-graphics-drivers' "$ctl" || continue
		# shipping the driver's files (nvidia-alternative ships directories)
		find "$REAL/$p/usr/lib" -path '*/nvidia/*' -type f 2>/dev/null | grep -q . || continue
		case " $* " in *" $p "*) TODO_REASON=$reason ;; esac
		case " $det " in
		*" $p "*) ok "toolkit.packages names $p (of $(sed -n 's/^Source: //p' "$ctl"))" ;;
		*) fail "toolkit.packages does not name $p, a package of $(sed -n 's/^Source: //p' "$ctl") with the driver's files" ;;
		esac
		TODO_REASON=""
	done
}
driver_packages_named ""
matrix_row wsl-debian-535 "${REAL_CUDA:-}; ${REAL_NVML:-}; ${REAL_SMI:-}" $CHECKS

# The 470 branch the same way in WSL2.
scenario wsl-debian-470 healthy-wsl2
cp "$top/tests/fixtures/container-no-gpu/root/etc/os-release" "$ROOT/etc/os-release"
install_pkg libnvidia-tesla-470-cuda1 libnvidia-tesla-470-ml1 nvidia-tesla-470-smi \
	libnvidia-tesla-470-ptxjitcompiler1 nvidia-tesla-470-alternative
debian_alternatives tesla-470
ldcache
run_json check
compare_cuda
compare_nvml
compare_smi
expect_status toolkit.packages fail
driver_packages_named ""
dpkg_s_answers
smi_owner
matrix_row wsl-debian-470 "${REAL_CUDA:-}; ${REAL_NVML:-}; ${REAL_SMI:-}" $CHECKS

# Native Linux with no NVIDIA module: the real libraries agree that there
# is no driver (cuInit CUDA_ERROR_NO_DEVICE, nvmlInit
# NVML_ERROR_DRIVER_NOT_LOADED), so the chain stops at the device nodes.
scenario native-none-535 native-nvidia
native_base
ubuntu_compute 535
ldcache
run_json check
expect_json '.checks[] | select(.id == "bridge.nvidia_dev") | .kb == "bridge.nvidia_dev.no_driver"'
all_no_wsl_words
answer_in_root which libcuda.so.1
lib=$(ans loaded)
answer_here cuda "$ROOT$lib"
expect_eq "the real cuInit has no device either" "$(ans cuInit)" 100
answer_in_root nvml
expect_eq "the real nvmlInit_v2 finds no driver" "$(ans nvmlInit_v2)" 9
o=$(in_root /usr/bin/nvidia-smi 2>&1)
REAL_SMI="/usr/bin/nvidia-smi: exit $?, $(printf '%s\n' "$o" | head -1 | cut -c1-70)"
expect_json '.checks[] | select(.id == "toolkit.packages") | .status == "pass"'
matrix_row native-none-535 "loader: $lib; cuInit $(in_root /tmp/answer -C / cuda | sed -n 's/^cuInit=//p'); nvmlInit_v2 9; ${REAL_SMI:-}" \
	bridge.nvidia_dev host.driver_store libs.libcuda cuda.load toolkit.packages

# Native Linux whose root says the 535 module is loaded (its /dev nodes are
# stand-ins): loader, cuInit, nvmlInit against the real ones; the driver's
# CUDA version against cuDriverGetVersion.
scenario native-535 native-nvidia
module_version 535.261.03
ubuntu_compute 535
ldcache
run_json check
compare_cuda
compare_nvml
no_wsl_words nvml.smi
for id in libs.libcuda cuda.load cuda.init nvml.init host.driver; do no_wsl_words "$id"; done
all_no_wsl_words
# The plan and the report read the same findings: no WSL step either.
run fix
w=$(printf '%s\n' "$OUT" | grep -E "$WSL_STEP_WORDS|PS>" | head -1)
if [ -z "$w" ]; then ok "fix: no WSL or Windows step on native Linux"
else fail "fix: a WSL or Windows step on native Linux: $w"; fi
run report --markdown
w=$(printf '%s\n' "$OUT" | awk '/^```/ { f = !f; next } f' | grep -E "$WSL_STEP_WORDS" | head -1)
if [ -z "$w" ]; then ok "report --markdown: no WSL or Windows step on native Linux"
else fail "report --markdown: a WSL or Windows step on native Linux: $w"; fi
matrix_row native-535 "${REAL_CUDA:-}; ${REAL_NVML:-}" $CHECKS

# nvidia-smi without its NVML (the root's loader finds no libnvidia-ml.so.1):
# the described machine's nvidia-smi says so itself (run in the root).
scenario native-smi-no-nvml native-nvidia
module_version 535.261.03
ubuntu_compute 535
rm -f "$ROOT/usr/lib/$ARCH_TRIPLET"/libnvidia-ml.so*
ldcache
run_json check
o=$(in_root /usr/bin/nvidia-smi 2>&1)
rc=$?
REAL_SMI="/usr/bin/nvidia-smi: exit $rc, $(printf '%s\n' "$o" | head -1 | cut -c1-70)"
expect_eq "nvml.smi: nvidia-smi's exit status in that machine" "$(ev nvml.smi exit)" "exited with status $rc"
no_wsl_words nvml.smi
all_no_wsl_words
matrix_row native-smi-no-nvml "${REAL_SMI:-}" libs.libnvml nvml.init nvml.smi

# NVIDIA's .run installer: the same files, owned by no package.
scenario native-run-535 native-nvidia
module_version 535.261.03
flat_copy 535
ldcache
run_json check
compare_cuda
compare_nvml
expect_eq "libs.libcuda names no package" "$(ev libs.libcuda package)" ""
expect_json '.checks[] | select(.id == "toolkit.packages") | .status == "pass"'
for id in libs.libcuda cuda.load cuda.init nvml.init; do no_wsl_words "$id"; done
all_no_wsl_words
matrix_row native-run-535 "${REAL_CUDA:-}; ${REAL_NVML:-}" $CHECKS

# A conda environment that carries the Linux driver's libcuda (its lib/ on
# LD_LIBRARY_PATH by the activate script), in WSL2.
scenario wsl-conda-535 conda-libcuda
copy "$REAL/libcuda1/usr/lib/$ARCH_TRIPLET/nvidia/current/libcuda.so.535.261.03" \
	"$ROOT/home/user/miniconda3/envs/tf/lib/libcuda.so.1"
ldcache
run_json check
compare_cuda
expect_json '.checks[] | select(.id == "libs.libcuda") | .kb == "libs.loader.conda"'
dpkg_s_answers
expect_json '.checks[] | select(.id == "cuda.load") | .evidence.conda_prefix == "/home/user/miniconda3/envs/tf"'
matrix_row wsl-conda-535 "${REAL_CUDA:-}" libs.libcuda cuda.load cuda.init

done_testing
