# bridge.sh: /dev/dxg on WSL2, /dev/nvidia* on native Linux, on fixture machines.
. "$(dirname "$0")/lib.sh"

# check_json ID FILTER: FILTER applied to the JSON object of check ID.
check_json() { expect_json "[.checks[] | select(.id == \"$1\")][0] | $2"; }

# Runs the next command as an unprivileged user when we are root, so that a
# file mode can deny an open (root is never denied).
as_nobody() {
	if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null 2>&1; then
		chmod 755 "$WORK"
		real=$WSLGPU
		cat >"$WORK/as-nobody" <<EOF
#!/bin/sh
exec setpriv --reuid=65534 --regid=65534 --clear-groups "$real" "\$@"
EOF
		chmod 755 "$WORK/as-nobody"
		WSLGPU="$WORK/as-nobody"
		"$@"
		WSLGPU=$real
	else
		"$@"
	fi
}

# Healthy WSL2: /dev/dxg passes (a regular file stands in for the node), and
# bridge.nvidia_dev is a plain skip.
fixture healthy-wsl2
run --only bridge
expect_rc 0
expect_line '^✓ bridge\.dxg +/dev/dxg is present and opens read-write \(a regular file: fixture stand-in\)$'
expect_line '^- bridge\.nvidia_dev +skipped: WSL2 has no /dev/nvidia\* nodes \(its GPU device is /dev/dxg\)$'
run_json --only bridge
expect_status bridge.dxg pass
expect_status bridge.nvidia_dev skip
check_json bridge.dxg '.evidence.type == "regular file (fixture stand-in)"'
check_json bridge.dxg '.evidence.note | test("before any GPU is found")'

# No /dev/dxg with Microsoft's kernel: current kernels create it at dxgkrnl's
# load, before any GPU, so the kernel is to blame, not the Windows side.
fixture no-dxg
run
expect_rc 1
expect_line '^✗ bridge\.dxg +/dev/dxg is missing: this WSL kernel did not create it \(no dxgkrnl, or an old one\)$'
expect_line 'cause +/dev/dxg is the GPU paravirtualisation device'
expect_line 'This kernel \(5\.15\.167\.4-microsoft-standard-WSL2\) did not create it'
expect_line 'fix +uname -r'
expect_line 'wsl\.exe --update +# in PowerShell: a current WSL brings a current kernel$'
expect_no_line 'cmd /c ver|nvidia-smi -g'
expect_line '^      [0-9]+ checks skipped until this is fixed \(-v lists them\)$'
expect_line '^✗ Broken at the bridge layer: /dev/dxg is missing: this WSL kernel did not create it'
run -v
expect_line '^- host\.driver_store +skipped: bridge\.dxg failed, fix that first +\([0-9]+ ms\)$'
run_json
expect_rc 1
expect_status bridge.dxg fail
expect_status host.driver_store skip
expect_json '.summary.first_failure == "bridge.dxg"'
check_json bridge.dxg '.kb == "bridge.dxg.missing"'
check_json bridge.dxg '.evidence.type == "missing"'
check_json bridge.dxg '.evidence.libdxcore == "/usr/lib/wsl/lib/libdxcore.so present"'
check_json bridge.dxg '.evidence.windows_driver | test("^551\\.23 \\(estimated")'
check_json bridge.dxg '.fix | length == 4'
check_json host.driver_store '.evidence.blocked_by == "bridge.dxg"'

# The same machine with [gpu] enabled=false in /etc/wsl.conf: that does not
# remove /dev/dxg (WSL's init never touches it; dxgkrnl creates it at load),
# so it is evidence here, not the reason; its effect is libs.wsl_dir's.
printf '[boot]\nsystemd=true\n[gpu]\nenabled=false\n' >"$ROOT/etc/wsl.conf"
run --only bridge.dxg
expect_rc 1
expect_line '^✗ bridge\.dxg +/dev/dxg is missing: this WSL kernel did not create it'
expect_no_line 'turns the GPU off'
run_json --only bridge.dxg
check_json bridge.dxg '.kb == "bridge.dxg.missing"'
check_json bridge.dxg '.evidence.wsl_conf == "/etc/wsl.conf line 4: [gpu] enabled=false"'
check_json bridge.dxg '[.evidence.note] | flatten | any(test("does not remove /dev/dxg"))'
# With /dev/dxg present and WSL's libraries not mounted, libs names it.
fixture healthy-wsl2
printf '[gpu]\nenabled=false\n' >"$ROOT/etc/wsl.conf"
rm -rf "$ROOT/usr/lib/wsl/lib"
run_json --only libs.wsl_dir
check_json libs.wsl_dir '.kb == "libs.wsl_dir.gpu_disabled"'
check_json libs.wsl_dir '.cause | test("/dev/dxg stays")'
fixture no-dxg
# WSL's parser takes true/false/1/0 only: "off" leaves the GPU on.
printf '[gpu]\nenabled=off\n' >"$ROOT/etc/wsl.conf"
run_json --only bridge.dxg
check_json bridge.dxg '.kb == "bridge.dxg.missing"'

# .wslconfig [wsl2] gpuSupport=false, in a second user's profile.
rm "$ROOT/etc/wsl.conf"
mkdir -p "$ROOT/mnt/c/Users/bob"
printf '[wsl2]\r\nmemory=8GB\r\ngpuSupport=false\r\n' >"$ROOT/mnt/c/Users/bob/.wslconfig"
run_json --only bridge.dxg
check_json bridge.dxg '.kb == "bridge.dxg.missing"'
check_json bridge.dxg '.evidence.wslconfig | test("gpuSupport=false")'
# safeMode=true turns GPU support off as well (WSL's WslCoreConfig.cpp).
printf '[wsl2]\r\nsafeMode=true\r\n' >"$ROOT/mnt/c/Users/bob/.wslconfig"
run_json --only bridge.dxg
check_json bridge.dxg '.evidence.wslconfig | test("line 2: safeMode=true")'
rm -r "$ROOT/mnt/c/Users/bob"

# A custom kernel named in .wslconfig.
printf '[wsl2]\nkernel=C:\\\\kernels\\\\bzImage\n' >"$ROOT/mnt/c/Users/alice/.wslconfig"
run_json --only bridge.dxg
check_json bridge.dxg '.kb == "bridge.dxg.custom_kernel"'
check_json bridge.dxg '.evidence.wslconfig_kernel == "C:\\Users\\alice\\.wslconfig line 2: kernel=C:\\kernels\\bzImage"'
printf '[wsl2]\nmemory=16GB\n' >"$ROOT/mnt/c/Users/alice/.wslconfig"

# An old driver store is evidence, not the reason (it shows as no CUDA device).
inf=$(ls -d "$ROOT"/usr/lib/wsl/drivers/nv_dispi.inf_amd64_*)/nv_dispi.inf
printf '[Version]\r\nDriverVer = 06/01/2021, 27.21.14.7212\r\n' >"$inf"
run_json --only bridge.dxg
check_json bridge.dxg '.kb == "bridge.dxg.missing"'
check_json bridge.dxg '.evidence.driver == "472.12"'

# Something that is not a device where /dev/dxg belongs.
mkdir "$ROOT/dev/dxg"
run --only bridge.dxg
expect_rc 1
expect_line '^✗ bridge\.dxg +/dev/dxg is a directory, not a character device$'
expect_line 'cause +/dev/dxg is a directory, mode 0755, not the character device'
rmdir "$ROOT/dev/dxg"
ln -s /dev/dxg "$ROOT/dev/dxg"
run --only bridge.dxg
expect_rc 1
expect_line '^✗ bridge\.dxg +/dev/dxg cannot be opened: Too many levels of symbolic links$'

# /dev/dxg that this user may not open read-write.
fixture healthy-wsl2
chmod 0444 "$ROOT/dev/dxg"
as_nobody run_json --only bridge.dxg
expect_rc 1
check_json bridge.dxg '.kb == "bridge.dxg.denied"'
check_json bridge.dxg '.detail == "/dev/dxg cannot be opened: Permission denied"'
check_json bridge.dxg '.evidence.owner | test("mode 0444")'
check_json bridge.dxg '.fix[1] == "sudo chmod 0666 /dev/dxg   # lasts until WSL restarts"'

# /dev/nvidia* inside WSL2: the myth that WSL2 has them.
fixture healthy-wsl2
: >"$ROOT/dev/nvidia0"
: >"$ROOT/dev/nvidiactl"
run --only bridge
expect_rc 0
expect_line '^! bridge\.nvidia_dev +/dev/nvidia0, /dev/nvidiactl exist, but WSL2 has no /dev/nvidia\* nodes: someone created them$'
expect_line 'cause +WSL2 has no /dev/nvidia\* device nodes: CUDA reaches the Windows driver'
expect_line 'Guides that say /dev/nvidia0, /dev/nvidiactl and'
expect_line 'fix +ls -l /dev/nvidia\*'
run --only bridge --strict
expect_rc 1

# A container inside WSL2 started without --gpus.
fixture container-in-wsl2-no-dxg
run
expect_rc 1
expect_line '^✗ bridge\.dxg +/dev/dxg is missing: this container was started without the GPU \(docker run --gpus all\)$'
expect_line '^✗ Broken at the bridge layer: /dev/dxg is missing: this container was started without the GPU \(docker run --gpus all\) \(bridge\.dxg\)\.'
# the image is not knowable inside the container: a template, never a live line
expect_line 'fix +# docker run --rm --gpus all IMAGE nvidia-smi   # restart it with --gpus all; compose: .*; a template: put in IMAGE, the image this container runs$'
run fix --commands
expect_no_line 'IMAGE'
# ... and the image --docker-image names, where the user gave one
run --docker-image 'nvcr.io/nvidia/pytorch:24.01-py3'
expect_line 'fix +docker run --rm --gpus all nvcr\.io/nvidia/pytorch:24\.01-py3 nvidia-smi   # restart it'
# a name is data, never a substitution, once pasted
run fix --commands --docker-image 'img$(touch x)'
expect_line "^docker run --rm --gpus all 'img\\\$\\(touch' 'x\\)' nvidia-smi   # restart it with --gpus all; compose: "
run -v
expect_line '^- host\.driver_store +skipped: bridge\.dxg failed, fix that first +\([0-9]+ ms\)$'
run_json
expect_json '.platform.kind == "container-in-wsl2"'
check_json bridge.dxg '.kb == "bridge.dxg.container"'
expect_status bridge.nvidia_dev skip

# Native Linux with the NVIDIA driver: the /dev/nvidia* nodes.
fixture native-nvidia
run --only bridge
expect_rc 0
expect_line '^- bridge\.dxg +skipped: native Linux has no /dev/dxg \(it is WSL2.s GPU device\)$'
expect_line '^✓ bridge\.nvidia_dev +/dev/nvidiactl, 1 GPU node and /dev/nvidia-uvm open read-write$'
run_json --only bridge
expect_json '.platform.kind == "native"'
expect_status bridge.nvidia_dev pass
check_json bridge.nvidia_dev '.evidence.device | index("/dev/nvidia0: regular file (fixture stand-in)") != null'
# No /dev/nvidia-uvm: a warning on native Linux (libcuda can create it).
rm "$ROOT/dev/nvidia-uvm"
run --only bridge
expect_rc 0
expect_line '^! bridge\.nvidia_dev +/dev/nvidia-uvm is missing: CUDA needs it \(nvidia_uvm module\)$'
expect_line 'fix +sudo nvidia-modprobe -u -c=0'
run --only bridge --strict
expect_rc 1
# No nodes and no module: no driver.
rm "$ROOT"/dev/nvidia*
printf 'snd_hda_intel 57344 3 - Live 0x0000000000000000\n' >"$ROOT/proc/modules"
rm -r "$ROOT/proc/driver"
run --only bridge
expect_rc 1
expect_line '^✗ bridge\.nvidia_dev +/dev/nvidiactl, /dev/nvidia0 missing: no NVIDIA kernel module is loaded$'
# a look that tells the readings apart comes first; Secure Boot is one of
# them, the module load (which changes the system) after them
expect_line 'fix +lsmod \| grep nvidia'
expect_line "sudo dmesg \\| grep -iE 'nvidia\\|nvrm\\|rejected'"
expect_line 'mokutil --sb-state'
expect_line '^ +sudo modprobe nvidia'
run_json --only bridge
check_json bridge.nvidia_dev '.kb == "bridge.nvidia_dev.no_driver"'
check_json bridge.nvidia_dev '.evidence.module == "no nvidia module in /proc/modules"'
# ubuntu-drivers only on Ubuntu.
run --only bridge
expect_line 'sudo ubuntu-drivers install'
sed -i 's/^ID=ubuntu$/ID=debian/' "$ROOT/etc/os-release"
run --only bridge
expect_no_line 'ubuntu-drivers'
expect_line "install the driver as NVIDIA's driver installation guide says for your distribution"
sed -i 's/^ID=debian$/ID=ubuntu/' "$ROOT/etc/os-release"
# Module loaded, nodes missing.
printf 'nvidia 54308864 0 - Live 0x0000000000000000 (POE)\n' >"$ROOT/proc/modules"
run --only bridge
expect_line '^✗ bridge\.nvidia_dev +/dev/nvidiactl, /dev/nvidia0 missing although the nvidia module is loaded$'
expect_line 'fix +sudo nvidia-modprobe -c=0 -u'
# A directory where /dev/nvidia0 belongs.
: >"$ROOT/dev/nvidiactl"
: >"$ROOT/dev/nvidia-uvm"
mkdir "$ROOT/dev/nvidia0"
run --only bridge
expect_line '^✗ bridge\.nvidia_dev +/dev/nvidia0 is a directory, not a character device$'
expect_line 'fix +ls -l /dev/nvidia\*'
expect_line 'sudo rm /dev/nvidia0 && sudo nvidia-modprobe -c=0 -u'
# A node this user may not open.
rmdir "$ROOT/dev/nvidia0"
: >"$ROOT/dev/nvidia0"
chmod 0666 "$ROOT/dev/nvidiactl" "$ROOT/dev/nvidia-uvm"
chmod 0444 "$ROOT/dev/nvidia0"
as_nobody run_json --only bridge.nvidia_dev
check_json bridge.nvidia_dev '.kb == "bridge.nvidia_dev.denied"'
check_json bridge.nvidia_dev '.detail == "/dev/nvidia0 cannot be opened: Permission denied"'
check_json bridge.nvidia_dev '.evidence.node == "/dev/nvidia0"'
check_json bridge.nvidia_dev '.cause | startswith("/dev/nvidia0 exists but this user cannot open it read-write (uid ")'

done_testing
