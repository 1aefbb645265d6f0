# toolkit.sh: the toolkit layer (nvcc, distribution packages, apt sources)
# on fixture machines.
. "$(dirname "$0")/lib.sh"

# No toolkit is fine: the note says why. dpkg's directory without a status
# file says nothing about what is installed: unknown, never a pass (issue
# 29), and no problem: the exit status stays 0. (git keeps no empty
# directories, so make it.)
fixture healthy-wsl2
mkdir -p "$ROOT/var/lib/dpkg"
run_json --only toolkit
expect_rc 0
expect_status toolkit.nvcc pass
expect_json '.checks[] | select(.id == "toolkit.nvcc") | .kb == "toolkit.nvcc.none"'
expect_json '.checks[] | select(.id == "toolkit.nvcc") | .detail | test("not needed to run PyTorch or TensorFlow")'
expect_status toolkit.packages unknown
expect_json '.summary.status == "ok" and .summary.problems == 0 and .summary.counts.unknown == 1'
run --only toolkit
expect_rc 0
expect_line '^\? toolkit\.packages +dpkg'"'"'s status file cannot be read \(No such file or directory\): installed packages unknown$'
expect_line '^✓ No problems found in [0-9]+ checks?; 1 could not be verified \(toolkit\.packages\)\.$'
run --only toolkit --strict
expect_rc 0
run --only toolkit.packages --brief
expect_rc 0
expect_line '^✓ No problems found; 1 check could not be verified \(toolkit\.packages\)\.$'
setenv LC_ALL=C
run --only toolkit.packages
expect_line '^\? toolkit\.packages '
expect_line '^\+ No problems found; 1 check could not be verified'
run -v --only toolkit.nvcc
expect_line '^      note +No nvcc was found on PATH'

# Three toolkits; PATH's is named, the others listed; the driver runs 12.4.
fixture toolkit-multi
run_json --only toolkit.nvcc
expect_rc 0
expect_status toolkit.nvcc pass
expect_json '.checks[0].evidence.toolkits == "3"'
expect_json '.checks[0].evidence.toolkit_dir == "/usr/local/cuda-12.4"'
expect_json '.checks[0].evidence.toolkit_version == "12.4.131"'
expect_json '.checks[0].evidence.toolkit | map(select(test("cuda-11.0: CUDA 11.0.228 \\(version.txt\\), no bin/nvcc"))) | length == 1'
run --only toolkit.nvcc
expect_line '^✓ toolkit\.nvcc +CUDA 12\.4\.131 \(nvcc /usr/local/cuda/bin/nvcc\); the driver supports CUDA 12\.4; also installed: 11\.0\.228 /usr/local/cuda-11\.0 \(no nvcc\), 11\.8\.0 /usr/local/cuda-11\.8$'

# A toolkit newer than the CUDA release table: said to be newer than this
# tool's knowledge, not taken for the newest release it knows.
fixture toolkit-multi
sed -i 's/release 12\.4, V12\.4\.131/release 14.0, V14.0.12/' "$ROOT/usr/local/cuda-12.4/bin/nvcc"
sed -i 's/12\.4\.131/14.0.12/' "$ROOT/usr/local/cuda-12.4/version.json"
run_json --only toolkit.nvcc
expect_json '.checks[0].evidence.toolkit_version == "14.0.12"'
expect_json '.checks[0].evidence.toolkit_known | test("^CUDA 14\\.0\\.12 is newer than this tool.s knowledge of 20[0-9][0-9]-[01][0-9] \\(its table ends at CUDA 13\\.5 GA\\)$")'

# nvcc installed but not on PATH.
fixture toolkit-multi
setenv PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin:/usr/lib/wsl/lib
run_json --only toolkit.nvcc
expect_status toolkit.nvcc warn
expect_json '.checks[0].kb == "toolkit.nvcc.not_on_path"'
expect_json '.checks[0].fix[1] == "export PATH=/usr/local/cuda/bin:$PATH"'

# CUDA_HOME names another toolkit than PATH's nvcc.
fixture toolkit-multi
setenv CUDA_HOME=/usr/local/cuda-11.8
run_json --only toolkit.nvcc
expect_json '.checks[0].kb == "toolkit.nvcc.cuda_home_mismatch"'
expect_json '.checks[0].fix[0] == "export CUDA_HOME=/usr/local/cuda-12.4"'

# The /usr/local/cuda-wsl myth.
fixture toolkit-multi
setenv CUDA_HOME=/usr/local/cuda-wsl
run_json --only toolkit.nvcc
expect_status toolkit.nvcc warn
expect_json '.checks[0].kb == "toolkit.nvcc.cuda_wsl_myth"'
expect_json '.checks[0].detail | test("\\$CUDA_HOME names /usr/local/cuda-wsl, which NVIDIA never shipped")'
fixture healthy-wsl2
mkdir -p "$ROOT/usr/local/cuda-wsl/bin"
run_json --only toolkit.nvcc
expect_json '.checks[0].kb == "toolkit.nvcc.cuda_wsl_myth"'

# A 13.0 toolkit on a 12.4 driver: a newer major fails, with the fix.
fixture toolkit-too-new
run_json --only toolkit.nvcc
expect_rc 1
expect_status toolkit.nvcc fail
expect_json '.checks[0].kb == "toolkit.nvcc.driver_too_old"'
expect_json '.checks[0].evidence.driver_cuda == "12.4"'
# the driver is fine: first a toolkit it runs, then (words) a newer driver
expect_json '.checks[0].fix[0] == "sudo apt-get install cuda-toolkit-12-4   # a toolkit this driver supports; on WSL from NVIDIA'"'"'s WSL-Ubuntu repository"'
expect_json '.checks[0].fix[1] | test("^# or update the NVIDIA driver on Windows")'
run --only toolkit.nvcc
expect_line '^      fix    sudo apt-get install cuda-toolkit-12-4   # a toolkit this driver supports'
expect_line '^             # or update the NVIDIA driver on Windows'
expect_line '^✗ toolkit\.nvcc +CUDA 13\.0 toolkit at /usr/local/cuda-13\.0, but the driver supports only CUDA 12\.4: programs it builds cannot run$'
expect_line 'cause +The toolkit at /usr/local/cuda-13\.0 is CUDA 13\.0\.88, but the driver supports only CUDA 12\.4'

# A newer minor of the same major: minor-version compatibility, a warning.
fixture toolkit-too-new
sed -i 's/13\.0/12.6/g; s/13\.0\.88/12.6.77/' "$ROOT/usr/local/cuda-13.0/bin/nvcc"
run_json --only toolkit.nvcc
expect_status toolkit.nvcc warn
expect_json '.checks[0].kb == "toolkit.nvcc.minor_compat"'
expect_json '.checks[0].detail | test("CUDA 12.6 toolkit .* on a driver for CUDA 12.4: its programs run by minor-version compatibility")'

# R03/R07: Linux driver packages inside WSL.
fixture dpkg-linux-driver
run_json --only toolkit.packages
expect_rc 1
expect_status toolkit.packages fail
expect_json '.checks[0].kb == "toolkit.packages.linux_driver"'
expect_json '.checks[0].fix[0] == "sudo apt-get remove --purge nvidia-driver-535 nvidia-dkms-535 nvidia-kernel-common-535 libnvidia-compute-535 nvidia-utils-535 nvidia-compute-utils-535"'
expect_json '.checks[0].evidence.harmful | map(select(test("^libnvidia-compute-535 .*\\(libcuda\\)$"))) | length == 1'
expect_json '[.checks[0].evidence.harmful[] | select(test("nvidia-utils-510"))] | length == 0'
run --only toolkit.packages
expect_line '^✗ toolkit\.packages +Linux NVIDIA driver packages are installed inside WSL: nvidia-driver-535 '
expect_line 'fix +sudo apt-get remove --purge nvidia-driver-535'

# The cuda meta-package and the driver it pulled in; keep the toolkit.
fixture dpkg-cuda-meta
run_json --only toolkit.packages
expect_rc 1
expect_json '.checks[0].kb == "toolkit.packages.cuda_meta"'
expect_json '.checks[0].fix[0] == "sudo apt-get install cuda-toolkit-12-4"'
expect_json '.checks[0].fix[1] | test("^sudo apt-get remove --purge cuda cuda-12-4 cuda-runtime-12-4 cuda-drivers cuda-drivers-550 nvidia-driver-550 libnvidia-compute-550$")'
expect_json '.checks[0].evidence.repo | test("cuda-repo-ubuntu2204-12-4-local \\(cuda-linux\\)")'

# Only the toolkit, but from the native ubuntu2204 repository: a warning;
# pip CUDA wheels and the container toolkit repository are evidence only.
fixture apt-linux-repo
run_json --only toolkit.packages
expect_rc 0
expect_status toolkit.packages warn
expect_json '.checks[0].kb == "toolkit.packages.linux_repo"'
expect_json '.checks[0].evidence.flavour == "ubuntu2204"'
expect_json '.checks[0].evidence.pip_cuda | length == 2'
expect_json '.checks[0].evidence.repo | map(select(test("container-toolkit"))) | length == 1'
# ... and with the wsl-ubuntu repository instead, a pass.
rm "$ROOT/etc/apt/sources.list.d/cuda-ubuntu2204-x86_64.sources"
printf 'deb [signed-by=/usr/share/keyrings/cuda-archive-keyring.gpg] https://developer.download.nvidia.com/compute/cuda/repos/wsl-ubuntu/x86_64/ /\n' \
	>"$ROOT/etc/apt/sources.list.d/cuda-wsl-ubuntu-x86_64.list"
run_json --only toolkit.packages
expect_status toolkit.packages pass
expect_json '.checks[0].detail == "no Linux NVIDIA driver packages; CUDA repository: NVIDIA'"'"'s wsl-ubuntu"'

# On native Linux the driver packages are expected.
fixture dpkg-linux-driver
rm -rf "$ROOT/usr/lib/wsl" "$ROOT/dev/dxg" "$ROOT/run/WSL" "$ROOT/proc/sys/fs/binfmt_misc/WSLInterop"
echo 6.8.0-48-generic >"$ROOT/proc/sys/kernel/osrelease"
setenv WSL_DISTRO_NAME= WSL_INTEROP=
run_json --only toolkit.packages
expect_json '.platform.kind == "native"'
expect_status toolkit.packages pass
expect_json '.checks[] | select(.id == "toolkit.packages") | .detail | test("^native Linux: NVIDIA driver packages installed, as expected")'

# Not Debian: no dpkg database is a skip.
fixture healthy-wsl2
rm -rf "$ROOT/var/lib/dpkg"
run_json --only toolkit.packages
expect_status toolkit.packages skip

# An nvcc that prints junk, and no version file: a warning that says so, never a pass.
fixture toolkit-too-new
printf '#!/bin/sh\necho "segfault in libnvvm"\nexit 139\n' >"$ROOT/usr/local/cuda-13.0/bin/nvcc"
rm -f "$ROOT/usr/local/cuda-13.0/version.json"
run_json --only toolkit.nvcc
expect_status toolkit.nvcc warn
expect_json '.checks[] | select(.id == "toolkit.nvcc") | .kb == "toolkit.nvcc.broken"'
expect_json '.checks[] | select(.id == "toolkit.nvcc") | .detail | test("--version exited with status 139 and printed no version")'

done_testing
