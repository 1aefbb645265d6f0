#!/bin/sh
# stub.sh: the CUDA toolkit's real stub libcuda (lib64/stubs/libcuda.so)
# where users put it: on LD_LIBRARY_PATH (with the libcuda.so.1 link people
# make to get past a load error), or in an ld.so.conf.d file, on WSL2 with
# and without ld.wsl.conf, and on native Linux. The real loader decides
# which libcuda.so.1 a program gets under each root's configuration (real
# ldconfig -r: a "cuda-stubs.conf" sorts before "ld.wsl.conf"); the stub's
# real cuInit answers CUDA_ERROR_STUB_LIBRARY (34). wslgpu must load and
# judge that same file: never a default one in its place.
. "$(dirname "$0")/lib.sh"
real_require
if ! have_toolkit; then
	toolkit_skip "the stub library"
	done_testing
	exit 0
fi

CHECKS="libs.wsl_dir libs.libcuda cuda.load cuda.init cuda.devices cuda.kernel"
stub_dir() { echo "/usr/local/$(basename "$(readlink -f "$CUDA_TOOLKIT")")/lib/stubs"; }

# compare_stub: the loader maps the stub; cuda.load loads it and no check
# of the cuda layer passes on it.
compare_stub() {
	compare_cuda
	for id in cuda.init cuda.devices cuda.kernel; do
		if [ "$(status_of $id)" = pass ]; then
			fail "$id passes, though the real loader maps the stub, whose every call returns $(ans cuInit)"
		else
			ok "$id does not pass on the stub ($(status_of $id))"
		fi
	done
}

# The stub on LD_LIBRARY_PATH, with the libcuda.so.1 link made by hand,
# WSL's ld.wsl.conf in place.
scenario wsl-stub-llp healthy-wsl2 LD_LIBRARY_PATH=/usr/local/cuda/lib64/stubs
install_toolkit
ln -s libcuda.so "$ROOT$(stub_dir)/libcuda.so.1"
ldcache
run_json check
compare_stub
no_native_steps
matrix_row wsl-stub-llp "${REAL_CUDA:-}" $CHECKS

# The same without ld.wsl.conf (ldconfig = false in wsl.conf, or deleted).
scenario wsl-stub-llp-no-wslconf healthy-wsl2 LD_LIBRARY_PATH=/usr/local/cuda/lib64/stubs
install_toolkit
ln -s libcuda.so "$ROOT$(stub_dir)/libcuda.so.1"
rm "$ROOT/etc/ld.so.conf.d/ld.wsl.conf"
ldcache
run_json check
compare_stub
no_native_steps
# The loader's pick is judged though libs.wsl_dir failed: never WSL's file in its place.
expect_json '.checks[] | select(.id == "libs.libcuda") | .kb == "libs.loader.stub"'
expect_json '.checks[] | select(.id == "cuda.load") | .kb == "cuda.load.stub"'
matrix_row wsl-stub-llp-no-wslconf "${REAL_CUDA:-}" $CHECKS

# The stubs directory in /etc/ld.so.conf.d, ld.wsl.conf in place: the real
# ldconfig still puts the stub first.
scenario wsl-stub-conf healthy-wsl2
install_toolkit
echo "/usr/local/cuda/lib64/stubs" >"$ROOT/etc/ld.so.conf.d/cuda-stubs.conf"
ldcache
run_json check
compare_stub
no_native_steps
expect_json '.checks[] | select(.id == "libs.libcuda") | .kb == "libs.loader.stub_cached"'
matrix_row wsl-stub-conf "${REAL_CUDA:-}" $CHECKS

# ... and without ld.wsl.conf: the false pass of issue 26.
scenario wsl-stub-conf-no-wslconf healthy-wsl2
install_toolkit
echo "/usr/local/cuda/lib64/stubs" >"$ROOT/etc/ld.so.conf.d/cuda-stubs.conf"
rm "$ROOT/etc/ld.so.conf.d/ld.wsl.conf"
ldcache
run_json check
compare_stub
no_native_steps
expect_json '.checks[] | select(.id == "libs.libcuda") | .kb == "libs.loader.stub_cached"'
expect_json '.checks[] | select(.id == "cuda.load") | .kb == "cuda.load.stub"'
# Restoring ld.wsl.conf alone leaves the stub first (wsl-stub-conf above):
# a fix must also take the stubs line out.
stub_fix() {
	if jq -e '[.checks[] | (.fix // [])[]] | map(test("stubs")) | any' "$JSON" >/dev/null; then
		ok "a fix takes the stubs directory out of the loader's configuration"
	else
		fail "no fix names the stubs directory; with ld.wsl.conf back the real loader still maps the stub"
	fi
}
stub_fix
matrix_row wsl-stub-conf-no-wslconf "${REAL_CUDA:-}" $CHECKS

# Native Linux, the 535 driver, the stub first on LD_LIBRARY_PATH: the
# stub's advice must be native Linux's.
scenario native-stub native-nvidia LD_LIBRARY_PATH=/usr/local/cuda/lib64/stubs
module_version 535.261.03
ubuntu_compute 535
install_toolkit
ln -s libcuda.so "$ROOT$(stub_dir)/libcuda.so.1"
ldcache
run_json check
compare_stub
for id in libs.libcuda libs.env cuda.load; do no_wsl_words "$id"; done
all_no_wsl_words
# A fix that sets LD_LIBRARY_PATH must leave the stubs directory out, in
# whatever spelling (/usr/local/cuda/lib64/stubs is /usr/local/cuda-13.0/lib/stubs).
llp_fix_drops_stubs() {
	stubs=$(dirname "$(ev cuda.load loaded)")
	# Not a pipe: the counts of ok and fail must survive the loop.
	jq -r '.checks[] | .id as $id | (.fix // [])[] | select(test("^export LD_LIBRARY_PATH=")) |
		"\($id) \(capture("^export LD_LIBRARY_PATH=\"?(?<v>[^\" ]*)").v)"' "$JSON" >"$WORK/llp_fixes"
	while read -r id v; do
		left=""
		for d in $(echo "$v" | tr ':' ' '); do
			r=$(in_root /tmp/answer realpath "$d" | sed -n 's/^loaded=//p')
			[ "$r" = "$stubs" ] && left="$d"
		done
		if [ -z "$left" ]; then ok "$id: export LD_LIBRARY_PATH=$v leaves $stubs out"
		else fail "$id: its fix export LD_LIBRARY_PATH=$v keeps $left, which is $stubs"; fi
	done <"$WORK/llp_fixes"
}
# The entries that name it through the toolkit's links go too (cuda.c's
# ld_path_without compares real paths).
llp_fix_drops_stubs
matrix_row native-stub "${REAL_CUDA:-}" libs.libcuda cuda.load cuda.init

done_testing
