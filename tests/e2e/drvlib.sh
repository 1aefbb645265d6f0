# drvlib.sh: libs.libcuda and libs.libnvml judge the real NVIDIA Linux driver
# libraries by their content (src/parse/drvlib.c): Debian non-free's libcuda
# 535.261.03 and 470.256.02 and NVML 535.261.03, unpacked by
# tools/install-deps --test into .cache/debian/real/ (never installed). Only
# the libs layer runs: nothing here loads them, and no /dev/nvidia* node may
# appear. A skip when the libraries are not here.
. "$(dirname "$0")/lib.sh"

ev() {
	jq -r --arg id "$1" --arg k "$2" '.checks[] | select(.id == $id) | .evidence[$k] |
		if type == "array" then .[] elif . == null then "null" else . end' "$JSON"
}
expect_ev() {
	v=$(ev "$1" "$2")
	if [ "$v" = "$3" ]; then ok "$1 $2 = $3"; else fail "$1 evidence $2 is '$v', expected '$3'"; fi
}

nv=${WSLGPU_CACHE:-$top/.cache}/debian/real
cuda535=$nv/libcuda1/usr/lib/x86_64-linux-gnu/nvidia/current/libcuda.so.535.261.03
nvml535=$nv/libnvidia-ml1/usr/lib/x86_64-linux-gnu/nvidia/current/libnvidia-ml.so.535.261.03
cuda470=$nv/libnvidia-tesla-470-cuda1/usr/lib/x86_64-linux-gnu/nvidia/tesla-470/libcuda.so.470.256.02
if [ ! -f "$cuda535" ] || [ ! -f "$nvml535" ] || [ ! -f "$cuda470" ]; then
	echo "skip: no real driver libraries here (tools/install-deps --test)"
	done_testing
	exit
fi
nodes_before=$(ls /dev/nvidia* 2>/dev/null)

# ------------------------------------------- the 535 driver's, on the loader path
# distro-libcuda with the real libraries under the package's file names: the
# versions shown are what the files say (535.261.03), not their names.
fixture distro-libcuda
cp "$cuda535" "$ROOT/usr/lib/x86_64-linux-gnu/libcuda.so.535.104.05"
cp "$nvml535" "$ROOT/usr/lib/x86_64-linux-gnu/libnvidia-ml.so.535.104.05"
run_json --only libs.libcuda,libs.libnvml
expect_status libs.libcuda fail
expect_ev libs.libcuda library_kind linux
expect_ev libs.libcuda library_version 535.261.03
expect_ev libs.libcuda library_marker "it opens the Linux kernel driver (/dev/nvidiactl)"
expect_ev libs.libnvml library_kind linux
expect_ev libs.libnvml library_version 535.261.03
run --only libs.libcuda
expect_line "^✗ libs\.libcuda .*a Linux driver.s library \(535\.261\.03\)"

# ---------------------------------- the 470 driver's, as a conda environment's copy
# A Linux driver's libcuda in a conda environment (cuda-compat) is named as
# a compatibility package's, with the version its content carries.
fixture healthy-wsl2
env=$ROOT/home/user/miniconda3/envs/train
mkdir -p "$env/lib" "$env/conda-meta"
cp "$cuda470" "$env/lib/libcuda.so.1"
setenv LD_LIBRARY_PATH=/home/user/miniconda3/envs/train/lib
run_json --only libs.libcuda
expect_status libs.libcuda fail
expect_ev libs.libcuda library_kind linux
expect_ev libs.libcuda library_version 470.256.02
expect_ev libs.libcuda library "a CUDA compatibility package's library (a Linux driver's libcuda)"

# ------------------------------------------- over WSL's own copy (a hand "fix")
fixture healthy-wsl2
cp "$cuda535" "$ROOT/usr/lib/wsl/lib/libcuda.so.1"
run_json --only libs.libcuda
expect_ev libs.libcuda library_kind linux
expect_ev libs.libcuda library_version 535.261.03

FIXTURE=host
if [ "$(ls /dev/nvidia* 2>/dev/null)" = "$nodes_before" ]; then
	ok "no /dev/nvidia* node appeared"
else
	fail "a /dev/nvidia* node appeared: $(ls /dev/nvidia* 2>/dev/null)"
fi
done_testing
