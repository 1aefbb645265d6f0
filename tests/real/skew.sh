#!/bin/sh
# skew.sh: the driver's own CUDA version against the toolkit's and the
# runtimes'. The real libcuda tells its CUDA version before cuInit
# (cuDriverGetVersion: 11040 for 470, 12020 for 535): the newest CUDA it
# runs. A CUDA 13 program (nvcc -cudart shared) then gets
# cudaErrorInsufficientDriver (35) from every call, while Debian's CUDA 11.8
# runtime runs on 470 (CUDA's minor version compatibility within 11.x) and
# only finds no device (100). wslgpu must see the same: toolkit.nvcc must
# not pass a CUDA 13 nvcc beside a 470 or 535 driver.
. "$(dirname "$0")/lib.sh"
real_require
if ! have_toolkit; then
	toolkit_skip "driver/toolkit skew"
	done_testing
	exit 0
fi
PROG=$WORK/cudart13
compile_prog "$PROG" "$CUDA_TOOLKIT/bin/nvcc" -cudart shared "$top/tests/real/progs/cudart.cu" || exit 3
compile_prog "$WORK/cudart_dl" cc -O1 "$top/tests/real/progs/cudart_dl.c" -ldl || exit 3

# skew BRANCH LIBDIR: the scenario's assertions (root built by the caller).
skew() {
	libdir=$2
	answer_here cuda "$ROOT$(ev cuda.load loaded)"
	v=$(ans cuDriverGetVersion | cut -d' ' -f2)
	drv=$(cuda_dotted "$v")
	nvcc=$(in_root /usr/local/cuda/bin/nvcc --version | sed -n 's/.*release \([0-9.]*\),.*/\1/p')
	# What the toolkit's runtime and Debian's 11.8 one answer on this libcuda.
	rt13=$(env -i LD_LIBRARY_PATH="$ROOT$libdir:$CUDA_TOOLKIT/lib64" "$SETPRIV" --bounding-set -mknod,-sys_module "$PROG" 2>&1 | sed -n 's/.*code=\([0-9]*\)(.*/\1/p')
	rt118=$(env -i LD_LIBRARY_PATH="$ROOT$libdir" "$SETPRIV" --bounding-set -mknod,-sys_module "$WORK/cudart_dl" \
		"$REAL/libcudart11.0/usr/lib/$ARCH_TRIPLET/libcudart.so.11.0" 2>&1 | head -1)
	REAL_SKEW="cuDriverGetVersion $v (CUDA $drv); nvcc $nvcc; a cudart 13 program: error ${rt13:-none}; cudart 11.8: ${rt118:-works}"
	expect_eq "the real runtime 13 refuses this driver" "$rt13" 35
	expect_eq "host.driver's CUDA version is the driver's own" \
		"$(field host.driver detail | sed -n 's/.*CUDA \([0-9.]*\( or newer\)\{0,1\}\).*/\1/p')" "$drv"
	expect_eq "cuda.init's driver CUDA version is the real cuDriverGetVersion's" \
		"$(ev cuda.init driver_version_raw)" "$v"
	expect_json '.checks[] | select(.id == "toolkit.nvcc") | .status == "fail"'
	expect_json ".checks[] | select(.id == \"toolkit.nvcc\") | [.detail, (.evidence | tostring)] | join(\" \") | test(\"$drv\")"
}

# Debian's 470 branch with its alternatives, the CUDA 13 toolkit beside it,
# its module described as loaded.
scenario native-470-cuda13 native-nvidia PATH=/usr/local/cuda/bin:/usr/local/bin:/usr/bin:/bin
cp "$top/tests/fixtures/container-no-gpu/root/etc/os-release" "$ROOT/etc/os-release"
module_version 470.256.02
install_pkg libnvidia-tesla-470-cuda1 libnvidia-tesla-470-ml1 nvidia-tesla-470-smi \
	libnvidia-tesla-470-ptxjitcompiler1 nvidia-tesla-470-alternative
debian_alternatives tesla-470
install_toolkit
ldcache
run_json check
compare_cuda
skew 470 "/usr/lib/$ARCH_TRIPLET/nvidia/tesla-470"
all_no_wsl_words
matrix_row native-470-cuda13 "${REAL_CUDA:-}; ${REAL_SKEW:-}" host.driver cuda.init toolkit.nvcc toolkit.packages

# Ubuntu's 535 with the CUDA 13 toolkit.
scenario native-535-cuda13 native-nvidia PATH=/usr/local/cuda/bin:/usr/local/bin:/usr/bin:/bin
module_version 535.261.03
ubuntu_compute 535
install_toolkit
ldcache
run_json check
compare_cuda
skew 535 "/usr/lib/$ARCH_TRIPLET"
all_no_wsl_words
matrix_row native-535-cuda13 "${REAL_CUDA:-}; ${REAL_SKEW:-}" host.driver cuda.init toolkit.nvcc

done_testing
