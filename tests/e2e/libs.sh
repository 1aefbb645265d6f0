# libs.sh: the libs layer on fixture machines — WSL's library directory, kernel
# modules, the loader's choice of libcuda.so.1 / libnvidia-ml.so.1 (from the real
# ld.so.cache that ldconfig builds for each fixture), and the GPU variables.
. "$(dirname "$0")/lib.sh"

# Evidence value(s) of a check, one per line ("null" when absent).
ev() {
	jq -r --arg id "$1" --arg k "$2" '.checks[] | select(.id == $id) | .evidence[$k] |
		if type == "array" then .[] elif . == null then "null" else . end' "$JSON"
}
expect_ev() {
	v=$(ev "$1" "$2")
	if [ "$v" = "$3" ]; then ok "$1 $2 = $3"; else fail "$1 evidence $2 is '$v', expected '$3'"; fi
}
expect_ev_has() {
	if ev "$1" "$2" | grep -Fxq -- "$3"; then ok "$1 $2 has $3"; else fail "$1 evidence $2 lacks '$3': $(ev "$1" "$2")"; fi
}
expect_kb() {
	k=$(jq -r --arg id "$1" '.checks[] | select(.id == $id) | .kb' "$JSON")
	if [ "$k" = "$2" ]; then ok "$1 kb $2"; else fail "$1 kb is '$k', expected $2"; fi
}
expect_fix() { # ID N TEXT: the N-th fix line, expanded (a line of shell: remark as a comment)
	f=$(jq -r --arg id "$1" --argjson n "$2" '.checks[] | select(.id == $id) | .fix[$n]' "$JSON")
	if [ "$f" = "$3" ]; then ok "$1 fix[$2]"; else fail "$1 fix[$2] is '$f', expected '$3'"; fi
}
# True when check ID has a probe (later layers may still be planned).
implemented() {
	"$WSLGPU" check --list --json | jq -e --arg id "$1" \
		'.checks[] | select(.id == $id) | .implemented' >/dev/null 2>&1
}
# A later layer's check is skipped naming the broken libs check (once it is built).
expect_later_skip() { # CHECK BLOCKER
	if implemented "$1"; then
		run -v --only "$1"
		expect_line "^- ${1%%.*}\\.${1#*.} +skipped: $2 failed, fix that first +\\([0-9]+ ms\\)\$"
	else
		ok "$1 is not built yet (skip of the dependency test)"
	fi
}

# ---------------------------------------------------------------- healthy
fixture healthy-wsl2
run_json --only libs
expect_rc 0
for c in libs.wsl_dir libs.kernel_modules libs.libcuda libs.libnvml libs.env; do
	expect_status "$c" pass
done
expect_ev libs.wsl_dir dir /usr/lib/wsl/lib
expect_kb libs.wsl_dir libs.wsl_dir.not_a_symlink
expect_ev libs.libcuda resolved /usr/lib/wsl/lib/libcuda.so.1
expect_ev libs.libcuda via ld.so.cache
expect_ev libs.libcuda package null
expect_ev libs.libcuda copy null
expect_ev libs.libnvml resolved /usr/lib/wsl/lib/libnvidia-ml.so.1
expect_ev libs.libnvml via ld.so.cache
# Only libcuda.so.1 is cached (WSL installs copies): normal, explained as a note.
expect_kb libs.libcuda libs.loader.unversioned_missing
expect_ev libs.libcuda unversioned "libcuda.so: not found (no ld.so.cache entry)"
expect_json '.checks[] | select(.id == "libs.libcuda") | .evidence["ld.so.cache"] | test("^glibc-ld.so.cache1.1, 3 entries")'
run --only libs
expect_line '^✓ libs\.wsl_dir +WSL.s driver libraries are in /usr/lib/wsl/lib and on the loader path$'
expect_line '^✓ libs\.kernel_modules +no NVIDIA or nouveau kernel module \(WSL2 reaches the GPU through /dev/dxg\)$'
expect_line '^✓ libs\.libcuda +libcuda\.so\.1 -> /usr/lib/wsl/lib/libcuda\.so\.1 \(WSL.s copy, via ld\.so\.cache\)$'
expect_line '^✓ libs\.libnvml +libnvidia-ml\.so\.1 -> /usr/lib/wsl/lib/libnvidia-ml\.so\.1 \(WSL.s copy, via ld\.so\.cache\)$'
expect_line '^✓ No problems found in 5 checks\.$'
run -v --only libs.wsl_dir,libs.libcuda
expect_line '^ +note +The Windows driver delivers libcuda\.so, libcuda\.so\.1 and libcuda\.so\.1\.1 as separate copies'
expect_line '^ +note +WSL.s driver files are copies, not symlinks, so ldconfig records only libcuda\.so\.1'

# The same libraries through WSL's Windows folder on /mnt/c are WSL's too.
fixture healthy-wsl2
mkdir -p "$ROOT/mnt/c/Windows/System32/lxss/lib"
cp "$ROOT/usr/lib/wsl/lib/libcuda.so.1" "$ROOT/mnt/c/Windows/System32/lxss/lib/libcuda.so.1"
setenv LD_LIBRARY_PATH=/mnt/c/Windows/System32/lxss/lib
run_json --only libs.libcuda
expect_status libs.libcuda pass
expect_ev libs.libcuda resolved /mnt/c/Windows/System32/lxss/lib/libcuda.so.1
expect_ev libs.libcuda via LD_LIBRARY_PATH
expect_ev_has libs.libcuda copy "/usr/lib/wsl/lib/libcuda.so.1 (no package)"

# A container on WSL2 started with --gpus all: the toolkit maps libdxcore.so and the
# driver store, and indexes the store folder itself (research §1.6).
fixture healthy-wsl2
touch "$ROOT/.dockerenv"
store=$(ls -d "$ROOT"/usr/lib/wsl/drivers/nv_dispi.inf_amd64_*)
rm "$ROOT/usr/lib/wsl/lib/libcuda.so" "$ROOT/usr/lib/wsl/lib/libcuda.so.1" "$ROOT/usr/lib/wsl/lib/libcuda.so.1.1" \
	"$ROOT/usr/lib/wsl/lib/libnvidia-ml.so.1" "$ROOT/usr/lib/wsl/lib/nvidia-smi" \
	"$ROOT/etc/ld.so.conf.d/ld.wsl.conf" "$ROOT/etc/ld.so.cache"
ln -s libcuda.so.1.1 "$store/libcuda.so.1"
echo "${store#"$ROOT"}" >"$ROOT/etc/ld.so.conf.d/00-nvcr.conf"
make_ldcache "$ROOT"
run_json --only libs
expect_json '.platform.kind == "container-in-wsl2"'
expect_status libs.wsl_dir pass
expect_status libs.libcuda pass
expect_ev libs.libcuda resolved "${store#"$ROOT"}/libcuda.so.1"
expect_ev libs.libcuda via ld.so.cache
# ... and without it: nothing of the driver is there.
rm -r "$ROOT/usr/lib/wsl"
run --only libs.wsl_dir
expect_rc 1
expect_line '^✗ libs\.wsl_dir +this container has no /usr/lib/wsl/lib: it was started without the GPU \(docker run --gpus all\)$'
expect_line '^ +fix +# docker run --rm --gpus all IMAGE nvidia-smi   # start the container with --gpus all; a template: put in IMAGE'

# ---------------------------------------------------------------- libs.wsl_dir
# ld.wsl.conf gone and ldconfig run since (any apt install): the cache lost WSL's
# libraries, and the loader checks are skipped naming the broken one.
fixture healthy-wsl2
rm "$ROOT/etc/ld.so.conf.d/ld.wsl.conf" "$ROOT/etc/ld.so.cache"
make_ldcache "$ROOT"
run --only libs
expect_rc 1
expect_line '^✗ libs\.wsl_dir +/etc/ld\.so\.conf\.d/ld\.wsl\.conf is missing, so ldconfig does not index /usr/lib/wsl/lib$'
expect_line '^ +fix +wsl\.exe --shutdown   # in PowerShell; WSL writes the file again when the distribution starts$'
expect_line '^ +echo /usr/lib/wsl/lib \| sudo tee /etc/ld\.so\.conf\.d/ld\.wsl\.conf && sudo ldconfig'
expect_line '^      2 checks skipped until this is fixed \(-v lists them\)$'
run -v --only libs
expect_line '^- libs\.libcuda +skipped: libs\.wsl_dir failed, fix that first +\([0-9]+ ms\)$'
expect_line '^- libs\.libnvml +skipped: libs\.wsl_dir failed, fix that first +\([0-9]+ ms\)$'
expect_line '^✗ Broken at the libs layer: .*\(libs\.wsl_dir\)\.'
run_json --only libs
expect_kb libs.wsl_dir libs.wsl_dir.no_ld_conf
expect_ev libs.libcuda blocked_by libs.wsl_dir
# cuda.load only orders after libs.libcuda, but under --root it loads only
# the file the loader would map there: here none (the real loader finds no
# libcuda.so.1 without ld.wsl.conf), never WSL's file in its place.
run_json --only libs.libcuda,cuda.load
expect_json '.checks[] | select(.id == "cuda.load") | .status == "skip"'
expect_json '.checks[] | select(.id == "cuda.load") | .detail | test("predicted no libcuda\\.so\\.1")'
expect_json '[.checks[] | select(.id == "cuda.load") | .evidence.loaded] | map(. == null) | all'
expect_later_skip nvml.init libs.wsl_dir

# ... because /etc/wsl.conf turned it off.
fixture healthy-wsl2
rm "$ROOT/etc/ld.so.conf.d/ld.wsl.conf"
printf '\n[automount]\nldconfig = false\n' >>"$ROOT/etc/wsl.conf"
run_json --only libs.wsl_dir
expect_status libs.wsl_dir fail
expect_kb libs.wsl_dir libs.wsl_dir.ldconfig_disabled
expect_ev libs.wsl_dir wsl.conf "[automount] ldconfig=false (line 5)"
expect_fix libs.wsl_dir 0 "sudoedit /etc/wsl.conf   # delete the line ldconfig = false under [automount]"
expect_rc 1

fixture healthy-wsl2
echo '# emptied by hand' >"$ROOT/etc/ld.so.conf.d/ld.wsl.conf"
run_json --only libs.wsl_dir
expect_kb libs.wsl_dir libs.wsl_dir.ld_conf_edited

fixture healthy-wsl2
echo '/usr/local/lib' >"$ROOT/etc/ld.so.conf"
run_json --only libs.wsl_dir
expect_kb libs.wsl_dir libs.wsl_dir.conf_not_included
expect_fix libs.wsl_dir 0 "echo 'include /etc/ld.so.conf.d/*.conf' | sudo tee -a /etc/ld.so.conf"

# The driver's libraries missing; libdxcore missing (H03); nvidia-smi missing.
fixture healthy-wsl2
rm "$ROOT/usr/lib/wsl/lib/libcuda.so.1" "$ROOT/usr/lib/wsl/lib/libnvidia-ml.so.1"
run --only libs.wsl_dir
expect_rc 1
expect_line '^✗ libs\.wsl_dir +/usr/lib/wsl/lib lacks the NVIDIA driver.s libcuda\.so\.1, libnvidia-ml\.so\.1$'
run_json --only libs.wsl_dir
expect_ev libs.wsl_dir missing "libcuda.so.1, libnvidia-ml.so.1"

fixture healthy-wsl2
rm "$ROOT/usr/lib/wsl/lib/libdxcore.so"
run --only libs.wsl_dir
expect_rc 0
expect_line '^! libs\.wsl_dir +/usr/lib/wsl/lib has no libdxcore\.so: this Windows build may lack GPU paravirtualisation for WSL$'
expect_line '^ +fix +winver   # in Windows: check the build; Windows 10 needs 21H2, build 19044, or later$'

fixture healthy-wsl2
rm "$ROOT/usr/lib/wsl/lib/nvidia-smi"
run_json --only libs.wsl_dir
expect_status libs.wsl_dir warn
expect_kb libs.wsl_dir libs.wsl_dir.no_smi

# One of WSL's libcuda copies overwritten (tracker row 3).
fixture healthy-wsl2
head -c 4096 /dev/zero >>"$ROOT/usr/lib/wsl/lib/libcuda.so.1"
run_json --only libs.wsl_dir
expect_status libs.wsl_dir warn
expect_kb libs.wsl_dir libs.wsl_dir.copies_differ

fixture healthy-wsl2
rm -r "$ROOT/usr/lib/wsl/lib"
run --only libs
expect_line '^✗ libs\.wsl_dir +/usr/lib/wsl/lib does not exist: WSL did not mount the Windows driver.s libraries$'
run -v --only libs
expect_line '^- libs\.libcuda +skipped: libs\.wsl_dir failed, fix that first +\([0-9]+ ms\)$'

# ---------------------------------------------------------------- distro-libcuda (R03, R05, R07)
fixture distro-libcuda
run --only libs
expect_rc 1
expect_line '^✗ libs\.libcuda +the loader picks /usr/lib/x86_64-linux-gnu/libcuda\.so\.1 from libnvidia-compute-535 \(via LD_LIBRARY_PATH\), not WSL.s /usr/lib/wsl/lib/libcuda\.so\.1$'
expect_line '^ +fix +unset LD_LIBRARY_PATH   # for this shell$'
expect_line '^ +sudo apt-get remove --purge libnvidia-compute-535$'
expect_line '^ +sudo ldconfig$'
expect_line '^✗ libs\.libnvml +the loader picks /usr/lib/x86_64-linux-gnu/libnvidia-ml\.so\.1 from libnvidia-compute-535 \(via LD_LIBRARY_PATH\), not WSL.s /usr/lib/wsl/lib/libnvidia-ml\.so\.1$'
expect_line '^! libs\.env +LD_LIBRARY_PATH puts /usr/lib/x86_64-linux-gnu ahead of /usr/lib/wsl/lib: Linux-driver libraries there win over WSL.s$'
# libs.libnvml and libs.env follow from libs.libcuda: one problem, counted once
expect_line '^✗ Broken at the libs layer: the loader picks /usr/lib/x86_64-linux-gnu/libcuda\.so\.1 .*\(libs\.libcuda\)\. 2 findings follow from it\.'
expect_line '^      follows from libs\.libcuda above: the same cause, the same fix$'
run_json --only libs
expect_status libs.libcuda fail
expect_status libs.libnvml fail
expect_status libs.env warn
expect_kb libs.libcuda libs.loader.ldpath_package
expect_ev libs.libcuda resolved /usr/lib/x86_64-linux-gnu/libcuda.so.1
expect_ev libs.libcuda via LD_LIBRARY_PATH
expect_ev libs.libcuda package libnvidia-compute-535
expect_ev libs.libcuda target /usr/lib/x86_64-linux-gnu/libcuda.so.535.104.05
expect_ev_has libs.libcuda copy "/usr/lib/wsl/lib/libcuda.so.1 (no package)"
expect_ev libs.libnvml package libnvidia-compute-535
expect_fix libs.libcuda 2 "sudo apt-get remove --purge libnvidia-compute-535"
expect_json '.summary.first_failure == "libs.libcuda"'
run_json --only libs.libcuda,cuda.load
expect_status cuda.load fail
expect_kb cuda.load cuda.load.shadowed
expect_json '.checks[] | select(.id == "cuda.load") | .evidence.prediction | test("^libs\\.libcuda fail: the loader picks /usr/lib/x86_64-linux-gnu/libcuda")'
# The observation beside the prediction: the fixture's Linux libcuda answers as one
# does on WSL (its env: FAKE_CUDA_FAIL=cuInit:100).
expect_ev cuda.load cuinit "CUDA_ERROR_NO_DEVICE (100)"
expect_later_skip nvml.init libs.libnvml

# Without LD_LIBRARY_PATH the cache decides: ld.wsl.conf sorts first, so WSL's copy wins,
# and the package's files are other copies (found under /lib through the merged /usr).
# But libcuda.so, which cuDNN 8 and numba open, leads to the package (R03).
fixture distro-libcuda
setenv LD_LIBRARY_PATH=
run_json --only libs
expect_rc 0
expect_status libs.libcuda warn
expect_ev libs.libcuda resolved /usr/lib/wsl/lib/libcuda.so.1
expect_ev libs.libcuda via ld.so.cache
expect_ev_has libs.libcuda copy "/lib/x86_64-linux-gnu/libcuda.so.1 (libnvidia-compute-535)"
expect_kb libs.libcuda libs.loader.unversioned_shadow
expect_ev libs.libcuda unversioned_path /lib/x86_64-linux-gnu/libcuda.so
expect_ev libs.libcuda unversioned_package libnvidia-compute-535
expect_fix libs.libcuda 0 "sudo apt-get remove --purge libnvidia-compute-535   # the package that owns /lib/x86_64-linux-gnu/libcuda.so or its target /usr/lib/x86_64-linux-gnu/libcuda.so.535.104.05"
expect_status libs.libnvml warn
expect_status libs.env pass
run --only libs.libcuda
expect_line '^! libs\.libcuda +libcuda\.so\.1 is WSL.s, but libcuda\.so \(which some programs open\) -> /lib/x86_64-linux-gnu/libcuda\.so from libnvidia-compute-535$'

# Without the package's libcuda.so the remaining risk is its libcuda.so.1 behind WSL's.
rm "$ROOT/usr/lib/x86_64-linux-gnu/libcuda.so" "$ROOT/etc/ld.so.cache"
make_ldcache "$ROOT"
run_json --only libs.libcuda
expect_status libs.libcuda warn
expect_kb libs.libcuda libs.loader.other_copies
expect_ev libs.libcuda other_package libnvidia-compute-535
expect_fix libs.libcuda 0 "sudo apt-get remove --purge libnvidia-compute-535   # the package that owns /lib/x86_64-linux-gnu/libcuda.so.1 or its target /usr/lib/x86_64-linux-gnu/libcuda.so.535.104.05"

# Bad dpkg lists beside the real ones: binary junk, a directory, a dangling link, a loop,
# a 100 MB sparse file: the owner is still found and the rest is counted.
fixture distro-libcuda
info="$ROOT/var/lib/dpkg/info"
head -c 65536 /dev/urandom >"$info/junk.list"
mkdir "$info/adir.list"
ln -s /nowhere "$info/dangling.list"
ln -s loop-b.list "$info/loop-a.list"
ln -s loop-a.list "$info/loop-b.list"
truncate -s 100M "$info/huge.list"
printf 'x\n' >"$info/Bad Name;rm -rf.list"
run_json --only libs.libcuda
expect_ev libs.libcuda package libnvidia-compute-535
expect_json '.checks[] | select(.id == "libs.libcuda") | .evidence.dpkg | test("unreadable")'
if awk -v s="$SECS" 'BEGIN { exit !(s > 60) }'; then fail "took $SECS s"; else ok "dpkg scan of junk lists took $SECS s (no hang)"; fi

# Native Linux with the same packages: the distro's driver is the right one.
fixture distro-libcuda
rm -r "$ROOT/usr/lib/wsl" "$ROOT/dev/dxg" "$ROOT/proc/sys/fs/binfmt_misc/WSLInterop" "$ROOT/etc/ld.so.conf.d/ld.wsl.conf" "$ROOT/etc/ld.so.cache"
rm -rf "$ROOT/run/WSL"
echo 6.5.0-35-generic >"$ROOT/proc/sys/kernel/osrelease"
echo 'Linux version 6.5.0-35-generic (buildd@lcy02-amd64-079) #35-Ubuntu SMP' >"$ROOT/proc/version"
make_ldcache "$ROOT"
# The driver's device nodes (regular files stand in for them in fixture mode).
touch "$ROOT/dev/nvidiactl" "$ROOT/dev/nvidia0" "$ROOT/dev/nvidia-uvm"
setenv WSL_DISTRO_NAME= WSL_INTEROP= LD_LIBRARY_PATH=
printf 'nvidia_uvm 1437696 0 - Live 0x0000000000000000 (POE)\nnvidia 56811520 1 nvidia_uvm, Live 0x0000000000000000 (POE)\n' >"$ROOT/proc/modules"
run_json --only libs
expect_json '.platform.kind == "native"'
expect_status libs.wsl_dir skip
expect_status libs.libcuda pass
expect_ev libs.libcuda resolved /lib/x86_64-linux-gnu/libcuda.so.1
expect_ev libs.libcuda via ld.so.cache
expect_ev libs.libcuda package libnvidia-compute-535
expect_status libs.kernel_modules pass
expect_rc 0
run --only libs.kernel_modules,libs.libcuda
expect_line '^✓ libs\.kernel_modules +NVIDIA kernel module loaded \(nvidia_uvm, nvidia\)$'
expect_line '^✓ libs\.libcuda +libcuda\.so\.1 -> /lib/x86_64-linux-gnu/libcuda\.so\.1 \(via ld\.so\.cache, from libnvidia-compute-535\)$'
# nouveau without nvidia: no CUDA; no module at all: warn (loaded on first use).
printf 'nouveau 2433024 0 - Live 0x0000000000000000\n' >"$ROOT/proc/modules"
run_json --only libs.kernel_modules
expect_status libs.kernel_modules warn
expect_kb libs.kernel_modules libs.kernel_modules.nouveau_native
: >"$ROOT/proc/modules"
run_json --only libs.kernel_modules
expect_kb libs.kernel_modules libs.kernel_modules.no_driver_native
# /proc/modules unreadable: no fix reads that file again (nor lsmod, which
# reads it too); the fixes look where the answer can still be found.
rm "$ROOT/proc/modules" && mkdir "$ROOT/proc/modules"
run --only libs.kernel_modules
expect_line '^! libs\.kernel_modules +/proc/modules cannot be read \(Is a directory\)'
expect_no_line '(fix +| {13})(cat /proc/modules|lsmod)'
expect_line 'fix +ls -d /sys/module/nvidia\* /sys/module/nouveau'
rmdir "$ROOT/proc/modules" && : >"$ROOT/proc/modules"
# The cache still names a file that was removed since: stale, the loader falls back.
rm "$ROOT/usr/lib/x86_64-linux-gnu/libcuda.so.1"
run_json --only libs.libcuda
expect_status libs.libcuda fail
expect_kb libs.libcuda libs.ldcache.stale
expect_ev libs.libcuda stale /lib/x86_64-linux-gnu/libcuda.so.1

# ---------------------------------------------------------------- ldpath-stubs
fixture ldpath-stubs
run --only libs
expect_rc 1
expect_line '^✗ libs\.libcuda +the loader picks the CUDA toolkit.s stub /usr/local/cuda/lib64/stubs/libcuda\.so\.1 \(via LD_LIBRARY_PATH\): every call fails with CUDA_ERROR_STUB_LIBRARY$'
expect_line '^ +fix +export LD_LIBRARY_PATH=/usr/local/cuda/lib64   # for this shell: drops the stubs directory$'
expect_line '^! libs\.libnvml +libnvidia-ml\.so\.1 is WSL.s, but libnvidia-ml\.so \(which some programs open\) -> the CUDA toolkit.s stub /usr/local/cuda/lib64/stubs/libnvidia-ml\.so$'
expect_line '^! libs\.env +LD_LIBRARY_PATH holds the CUDA toolkit.s stubs directory \(/usr/local/cuda/lib64/stubs\): programs can load its stub libcuda instead of the driver$'
run_json --only libs
expect_kb libs.libcuda libs.loader.stub
expect_ev libs.libcuda resolved /usr/local/cuda/lib64/stubs/libcuda.so.1
expect_ev libs.libcuda via LD_LIBRARY_PATH
expect_ev libs.libcuda target /usr/local/cuda-12.4/targets/x86_64-linux/lib/stubs/libcuda.so
expect_ev libs.libcuda package cuda-driver-dev-12-4
expect_ev_has libs.libcuda copy "/usr/lib/wsl/lib/libcuda.so.1 (no package)"
expect_kb libs.libnvml libs.loader.unversioned_stub
expect_fix libs.libnvml 0 "export LD_LIBRARY_PATH=/usr/local/cuda/lib64   # for this shell: drops the stubs directory"
expect_kb libs.env libs.env.stubs_on_path
expect_ev libs.env CUDA_HOME /usr/local/cuda
# one cause: libnvml's and env's findings follow from libcuda's (consequence_of)
expect_json '(.checks[] | select(.id == "libs.libnvml") | .consequence_of) == "libs.libcuda"'
expect_json '(.checks[] | select(.id == "libs.env") | .consequence_of) == "libs.libcuda"'
expect_json '(.checks[] | select(.id == "libs.libcuda") | has("consequence_of")) | not'
expect_json '.summary.problems == 1 and .summary.consequences == 2'
# The stubs directory after WSL's (the "working" setup of WSL#9099): libcuda.so.1 and
# libcuda.so are WSL's; the stub behind them is evidence here and libs.env's warning.
setenv LD_LIBRARY_PATH=/usr/lib/wsl/lib:/usr/local/cuda/lib64:/usr/local/cuda/lib64/stubs
run_json --only libs.libcuda,libs.env
expect_ev libs.libcuda resolved /usr/lib/wsl/lib/libcuda.so.1
expect_ev libs.libcuda via LD_LIBRARY_PATH
expect_status libs.libcuda pass
expect_ev libs.libcuda stub_copy /usr/local/cuda/lib64/stubs/libcuda.so.1
expect_ev libs.libcuda unversioned "libcuda.so -> /usr/lib/wsl/lib/libcuda.so (LD_LIBRARY_PATH)"
expect_kb libs.env libs.env.stubs_on_path
expect_ev libs.env ldpath_fix "export LD_LIBRARY_PATH=/usr/lib/wsl/lib:/usr/local/cuda/lib64"
# A second, non-stub copy behind WSL's in the cache: harmless today, worth a warning.
fixture healthy-wsl2
mkdir -p "$ROOT/opt/nvidia/lib"
cp "$ROOT/usr/lib/wsl/lib/libcuda.so.1" "$ROOT/opt/nvidia/lib/libcuda.so.1"
echo /opt/nvidia/lib >"$ROOT/etc/ld.so.conf.d/zz-nvidia.conf"
rm "$ROOT/etc/ld.so.cache"
make_ldcache "$ROOT"
run_json --only libs.libcuda
expect_status libs.libcuda warn
expect_kb libs.libcuda libs.loader.other_copies_unowned
expect_ev libs.libcuda other_path /opt/nvidia/lib/libcuda.so.1
expect_fix libs.libcuda 1 "sudo mv /opt/nvidia/lib/libcuda.so.1 /opt/nvidia/lib/libcuda.so.1.disabled && sudo ldconfig   # once nothing else needs it"
expect_ev_has libs.libcuda copy "/opt/nvidia/lib/libcuda.so.1 (no package)"
run --only libs.libcuda
expect_line '^! libs\.libcuda +libcuda\.so\.1 is WSL.s, but 1 other copy is on the loader path \(first: /opt/nvidia/lib/libcuda\.so\.1\)$'
expect_rc 0

# ---------------------------------------------------------------- conda-libcuda
fixture conda-libcuda
run --only libs
expect_rc 1
expect_line '^✗ libs\.libcuda +the loader picks a conda environment.s libcuda\.so\.1 \(/home/user/miniconda3/envs/tf/lib/libcuda\.so\.1, via LD_LIBRARY_PATH\), not WSL.s /usr/lib/wsl/lib/libcuda\.so\.1$'
expect_line '^ +grep -rn LD_LIBRARY_PATH /home/user/miniconda3/envs/tf/etc/conda/activate\.d$'
expect_line '^✓ libs\.libnvml '
run_json --only libs
expect_kb libs.libcuda libs.loader.conda
expect_ev libs.libcuda resolved /home/user/miniconda3/envs/tf/lib/libcuda.so.1
expect_ev libs.libcuda via LD_LIBRARY_PATH
expect_ev libs.libcuda conda_prefix /home/user/miniconda3/envs/tf
expect_ev libs.libcuda package null
expect_fix libs.libcuda 0 "unset LD_LIBRARY_PATH   # for this shell"
# When conda-meta lists the file, its conda package is named.
printf '{"name": "cuda-compat", "files": ["lib/libcuda.so.1"]}\n' \
	>"$ROOT/home/user/miniconda3/envs/tf/conda-meta/cuda-compat-12.4.1-h5888daf_0.json"
run_json --only libs.libcuda
expect_ev libs.libcuda conda_package cuda-compat-12.4.1-h5888daf_0

# ---------------------------------------------------------------- nouveau-loaded
fixture nouveau-loaded
run --only libs
expect_rc 1
expect_line '^✗ libs\.kernel_modules +the nouveau kernel module is loaded inside WSL2; WSL.s GPU path needs no GPU kernel driver$'
expect_line '^ +fix +sudo modprobe -r nouveau$'
expect_line "^ +echo 'blacklist nouveau' \\| sudo tee /etc/modprobe\\.d/blacklist-nouveau\\.conf\$"
run_json --only libs.kernel_modules
expect_kb libs.kernel_modules libs.kernel_modules.nouveau_in_wsl
expect_ev libs.kernel_modules name nouveau
# NVIDIA's modules, built by DKMS from nvidia-dkms-535's sources.
cat >"$ROOT/proc/modules" <<'EOF'
nvidia_uvm 1437696 0 - Live 0x0000000000000000 (POE)
nvidia_drm 77824 0 - Live 0x0000000000000000 (POE)
nvidia_modeset 1302528 1 nvidia_drm, Live 0x0000000000000000 (POE)
nvidia 56811520 2 nvidia_uvm,nvidia_modeset, Live 0x0000000000000000 (POE)
EOF
printf '/.\n/usr\n/usr/src\n/usr/src/nvidia-535.104.05\n/usr/src/nvidia-535.104.05/dkms.conf\n/usr/src/nvidia-535.104.05/nvidia/nv.c\n' \
	>"$ROOT/var/lib/dpkg/info/nvidia-dkms-535.list"
run --only libs.kernel_modules
expect_rc 1
expect_line '^✗ libs\.kernel_modules +a Linux NVIDIA kernel module is loaded inside WSL2 \(nvidia_uvm, nvidia_drm, nvidia_modeset, nvidia\), installed by nvidia-dkms-535; WSL.s kernel needs none$'
expect_line '^ +fix +sudo apt-get remove --purge nvidia-dkms-535$'
# Known by its name alone (a list without the sources, as after a failed build).
printf '/.\n/usr\n' >"$ROOT/var/lib/dpkg/info/nvidia-dkms-535.list"
run_json --only libs.kernel_modules
expect_ev libs.kernel_modules package nvidia-dkms-535
# A package shipping the .ko itself is named rather than the DKMS sources.
printf '/lib/modules/5.15.167.4-microsoft-standard-WSL2/kernel/nvidia-535/nvidia.ko\n' \
	>"$ROOT/var/lib/dpkg/info/linux-modules-nvidia-535-custom.list"
run_json --only libs.kernel_modules
expect_ev libs.kernel_modules package linux-modules-nvidia-535-custom
# A 100 MB sparse /proc/modules: read up to the cap, no module, no hang.
rm "$ROOT/proc/modules"
truncate -s 100M "$ROOT/proc/modules"
run_json --only libs.kernel_modules
expect_status libs.kernel_modules pass
expect_ev libs.kernel_modules modules "0 loaded (list cut short)"
# Garbage in /proc/modules: counted, never a crash.
head -c 200000 /dev/urandom >"$ROOT/proc/modules"
run_json --only libs.kernel_modules
expect_status libs.kernel_modules pass
rm "$ROOT/proc/modules"
mkdir "$ROOT/proc/modules"
run_json --only libs.kernel_modules
expect_status libs.kernel_modules warn
expect_kb libs.kernel_modules libs.kernel_modules.unreadable

# ---------------------------------------------------------------- corrupt-ldcache
fixture corrupt-ldcache
run --only libs
expect_rc 1
expect_line '^✗ libs\.libcuda +ld\.so\.cache is corrupt: the header claims 3 entries but the file has room for 2 — ldconfig rebuilds it$'
expect_line '^✗ libs\.libnvml +ld\.so\.cache is corrupt: the header claims 3 entries but the file has room for 2 — ldconfig rebuilds it$'
expect_line '^ +fix +sudo ldconfig$'
run_json --only libs
expect_kb libs.libcuda libs.ldcache.corrupt
expect_ev libs.libcuda resolved null
expect_ev libs.libcuda why "the header claims 3 entries but the file has room for 2"
# Still reachable through LD_LIBRARY_PATH: it works, but the cache must be rebuilt.
setenv LD_LIBRARY_PATH=/usr/lib/wsl/lib
run_json --only libs.libcuda
expect_status libs.libcuda warn
expect_ev libs.libcuda resolved /usr/lib/wsl/lib/libcuda.so.1
expect_kb libs.libcuda libs.ldcache.corrupt
# Every kind of bad cache: a clear finding within the time limit, never a crash.
fixture corrupt-ldcache
cache="$ROOT/etc/ld.so.cache"
check_cache() { # WHAT DETAIL-ERE
	run --only libs.libcuda
	if [ "$RC" = 1 ]; then ok "$1: exit 1"; else fail "$1: exit $RC"; fi
	expect_line "^✗ libs\\.libcuda +$2"
	expect_no_line '^(☠|T) '
}
: >"$cache"
check_cache empty 'ld\.so\.cache is corrupt: the file is empty — ldconfig rebuilds it$'
head -c 4096 /dev/urandom >"$cache"
check_cache random 'ld\.so\.cache is corrupt: '
rm "$cache"
truncate -s 100M "$cache"
check_cache sparse 'ld\.so\.cache is corrupt: it is larger than 16 MiB \(104857600 bytes\), far beyond any real cache — ldconfig rebuilds it$'
rm "$cache"
mkdir "$cache"
check_cache directory 'ld\.so\.cache is corrupt: it cannot be read \(Is a directory\)'
rmdir "$cache"
ln -s ld.so.cache.b "$cache"
ln -s ld.so.cache "$ROOT/etc/ld.so.cache.b"
check_cache loop 'ld\.so\.cache is corrupt: it cannot be read \(Too many levels of symbolic links\)'
rm "$cache" "$ROOT/etc/ld.so.cache.b"
mkfifo "$cache"
check_cache fifo 'ld\.so\.cache is corrupt: it cannot be read'
rm "$cache"
{ printf 'glibc-ld.so.cache1.1\377\377\377\377'; head -c 24 /dev/zero; } >"$cache"
check_cache nlibs 'ld\.so\.cache is corrupt: the header claims 4294967295 entries but the file has room for 0'
{ printf 'glibc-ld.so.cache1.1\001\000\000\000\000\000\000\000'; head -c 20 /dev/zero; printf '\003\003\000\000\377\377\000\000\000\000\000\000'; head -c 12 /dev/zero; } >"$cache"
check_cache offset 'ld\.so\.cache is corrupt: entry 0: the library name is at offset 65535, beyond the end of the file'
ln -sf /nowhere "$cache"
run --only libs.libcuda
expect_line '^✗ libs\.libcuda +/etc/ld\.so\.cache is missing, so the loader finds no libcuda\.so\.1 — ldconfig rebuilds it$'
run_json --only libs.libcuda
expect_kb libs.libcuda libs.ldcache.missing

# Files the loader would trip over: a placeholder that is no ELF stops dlopen.
fixture healthy-wsl2
mkdir -p "$ROOT/opt/bad"
echo 'not a library' >"$ROOT/opt/bad/libcuda.so.1"
setenv LD_LIBRARY_PATH=/opt/bad
run --only libs.libcuda
expect_rc 1
expect_line '^✗ libs\.libcuda +dlopen\("libcuda\.so\.1"\) would fail: /opt/bad/libcuda\.so\.1 \(LD_LIBRARY_PATH\) is not a loadable library: file too short$'
head -c 200 /dev/zero | tr '\0' a >"$ROOT/opt/bad/libcuda.so.1"
run_json --only libs.libcuda
expect_kb libs.libcuda libs.loader.not_elf
expect_ev libs.libcuda error "invalid ELF header"
expect_ev libs.libcuda broken /opt/bad/libcuda.so.1
rm "$ROOT/opt/bad/libcuda.so.1"
mkdir "$ROOT/opt/bad/libcuda.so.1"
run_json --only libs.libcuda
expect_ev libs.libcuda error "cannot read file data: Is a directory"
rmdir "$ROOT/opt/bad/libcuda.so.1"
# ... while a dangling link is passed over.
ln -s /nowhere "$ROOT/opt/bad/libcuda.so.1"
run_json --only libs.libcuda
expect_status libs.libcuda pass
expect_ev libs.libcuda via ld.so.cache

# ---------------------------------------------------------------- cuda-visible-devices-empty
fixture cuda-visible-devices-empty
run --only libs
expect_rc 1
expect_line '^✗ libs\.env +CUDA_VISIBLE_DEVICES is set to the empty string: CUDA sees no GPU$'
expect_line '^ +fix +unset CUDA_VISIBLE_DEVICES$'
expect_line '^✗ Broken at the libs layer: CUDA_VISIBLE_DEVICES is set to the empty string: CUDA sees no GPU \(libs\.env\)\.$'
run_json --only libs.env
expect_kb libs.env libs.env.cvd_hidden
expect_ev libs.env cvd ""
setenv CUDA_VISIBLE_DEVICES=-1
run --only libs.env
expect_rc 1
expect_line '^✗ libs\.env +CUDA_VISIBLE_DEVICES=-1 hides every GPU \(its first entry is not a device\)$'
setenv CUDA_VISIBLE_DEVICES=0,-1,1
run_json --only libs.env
expect_status libs.env warn
expect_kb libs.env libs.env.cvd_partial
expect_ev libs.env invalid -1
setenv CUDA_VISIBLE_DEVICES=0
run_json --only libs.env
expect_status libs.env pass
expect_kb libs.env libs.env.cvd_zero
expect_json '.checks[] | select(.id == "libs.env") | .detail | test("WSL does not need it set")'
run -v --only libs.env
expect_line 'note +Guides call CUDA_VISIBLE_DEVICES=0 a mandatory "handshake" for WSL; it is not\.'
setenv CUDA_VISIBLE_DEVICES=GPU-6b4c5e1a,1
run_json --only libs.env
expect_status libs.env pass
expect_kb libs.env null

# Unreadable by permissions: only meaningful when not root (root reads anyway).
fixture healthy-wsl2
if [ "$(id -u)" != 0 ]; then
	chmod 000 "$ROOT/etc/ld.so.cache"
	run --only libs.libcuda
	expect_line '^✗ libs\.libcuda +ld\.so\.cache is corrupt: it cannot be read \(Permission denied\)'
	chmod 644 "$ROOT/etc/ld.so.cache"
else
	ok "chmod 000 case skipped: running as root, which reads any file (the directory and symlink-loop cases cover unreadable files)"
fi
# A dangling symlink where WSL's libcuda.so.1 belongs.
rm "$ROOT/usr/lib/wsl/lib/libcuda.so.1"
ln -s /usr/lib/wsl/drivers/gone/libcuda.so.1.1 "$ROOT/usr/lib/wsl/lib/libcuda.so.1"
run_json --only libs.wsl_dir
expect_status libs.wsl_dir fail
expect_ev_has libs.wsl_dir file "libcuda.so.1 -> /usr/lib/wsl/drivers/gone/libcuda.so.1.1 (dangling)"

# ---------------------------------------------------------------- libs.env, the rest
# Thousands of LD_LIBRARY_PATH entries that do not exist: one short line.
fixture healthy-wsl2
many=$(awk 'BEGIN { for (i = 0; i < 3000; i++) printf "%s/opt/x%d", (i ? ":" : ""), i }')
setenv "LD_LIBRARY_PATH=$many:/usr/lib/wsl/lib"
run --only libs.env,libs.libcuda
expect_line '^! libs\.env +LD_LIBRARY_PATH names 3000 directories that do not exist: /opt/x0, /opt/x1, /opt/x2, /opt/x3, /opt/x4, \.\.\. \(3000 in all\)$'
expect_line '^✓ libs\.libcuda +libcuda\.so\.1 -> /usr/lib/wsl/lib/libcuda\.so\.1 \(WSL.s copy, via LD_LIBRARY_PATH\)$'

fixture healthy-wsl2
setenv LD_LIBRARY_PATH=/usr/local/cuda-wsl/lib64:/usr/lib/wsl/lib
run --only libs.env
expect_line '^! libs\.env +LD_LIBRARY_PATH names a cuda-wsl directory: there is no such toolkit \(a myth\)$'
run_json --only libs.env
expect_kb libs.env libs.env.cuda_wsl_myth
fixture healthy-wsl2
setenv CUDA_HOME=/usr/local/cuda-11.8
run_json --only libs.env
expect_kb libs.env libs.env.cuda_home_missing
# no toolkit at /usr/local/cuda here: pointing the variable there would not
# help (plans.sh re-runs check after the plan); with one, it goes there
expect_fix libs.env 0 "unset CUDA_HOME   # for this shell: no toolkit is at /usr/local/cuda"
expect_fix libs.env 1 "grep -nE 'CUDA_(HOME|PATH)' ~/.bashrc ~/.profile ~/.zshrc /etc/environment   # correct or remove it for good"
mkdir -p "$ROOT/usr/local/cuda"
run_json --only libs.env
expect_fix libs.env 0 "export CUDA_HOME=/usr/local/cuda   # for this shell: the toolkit installed here"
fixture healthy-wsl2
setenv LD_LIBRARY_PATH=/opt/cuda-10.2/lib64:/usr/lib/wsl/lib
run_json --only libs.env
expect_kb libs.env libs.env.ldpath_missing
expect_ev libs.env missing /opt/cuda-10.2/lib64
expect_ev libs.env ldpath_fix "export LD_LIBRARY_PATH=/usr/lib/wsl/lib"
# WSL's directory first, then the system one (the order WSL#9099 recommends): fine.
fixture healthy-wsl2
mkdir -p "$ROOT/usr/lib/x86_64-linux-gnu"
setenv LD_LIBRARY_PATH=/usr/lib/wsl/lib:/usr/lib/x86_64-linux-gnu
run_json --only libs.env
expect_status libs.env pass
# The other way round: warned.
setenv LD_LIBRARY_PATH=/usr/lib/x86_64-linux-gnu:/usr/lib/wsl/lib
run_json --only libs.env
expect_kb libs.env libs.env.system_dir_first
expect_ev libs.env ldpath_fix "export LD_LIBRARY_PATH=/usr/lib/wsl/lib"

# ---------------------------------------------------------------- WSL1: nothing of this runs
fixture wsl1
run_json --only libs
# --only shows the failing dependency too, so the broken layer is never hidden.
expect_status platform.kind fail
expect_json '[.checks[] | select(.id != "platform.kind") | .status] | all(. == "skip")'
expect_rc 1

done_testing
