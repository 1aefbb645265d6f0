# host.sh: host.driver_store — the Windows driver store on WSL, the kernel
# module on native Linux — on fixture machines.
. "$(dirname "$0")/lib.sh"

check_json() { expect_json "[.checks[] | select(.id == \"$1\")][0] | $2"; }
store=nv_dispi.inf_amd64_7e5fd280efaa5445

# Healthy WSL2: one NVIDIA store, its version estimated from the .inf.
fixture healthy-wsl2
run --only host.driver_store
expect_rc 0
expect_line "^✓ host\\.driver_store +NVIDIA driver store $store \\(driver 551\\.23, estimated from its \\.inf\\)\$"
run_json --only host.driver_store
expect_status host.driver_store pass
check_json host.driver_store ".evidence.store == \"/usr/lib/wsl/drivers/$store\""
check_json host.driver_store '.evidence.version == "551.23"'
check_json host.driver_store '.evidence.version_source | test("^estimated from the \\.inf DriverVer 31\\.0\\.15\\.5123 in /usr/lib/wsl/drivers/.*/nv_dispi\\.inf")'
check_json host.driver_store '.evidence.driver_ver == "01/19/2024, 31.0.15.5123"'

# A second, older NVIDIA store left by an earlier driver (name varies: nvmdi.inf_*).
old=nvmdi.inf_amd64_f55cb1d07ac1033f
mkdir -p "$ROOT/usr/lib/wsl/drivers/$old"
: >"$ROOT/usr/lib/wsl/drivers/$old/libcuda.so.1.1"
printf '[Version]\r\nDriverVer = 10/05/2023, 31.0.15.4601\r\n' >"$ROOT/usr/lib/wsl/drivers/$old/nvmdi.inf"
touch -d '2023-10-05 12:00' "$ROOT/usr/lib/wsl/drivers/$old"
touch -d '2024-01-19 12:00' "$ROOT/usr/lib/wsl/drivers/$store"
# And a non-NVIDIA package, as the whole FileRepository is there.
mkdir -p "$ROOT/usr/lib/wsl/drivers/wvmbus.inf_amd64_0123456789abcdef"
run --only host.driver_store
expect_rc 0
expect_line "^! host\\.driver_store +2 NVIDIA driver stores: the newest is $store \\(551\\.23\\); older: $old \\(546\\.01\\)\$"
expect_line "cause +Windows keeps older driver packages .* The newest is /usr/lib/wsl/drivers/$store; /usr/lib/wsl/drivers/$old is left"
expect_line 'fix +pnputil /enum-drivers +# in PowerShell'
expect_line 'sudo nvidia-ctk cdi generate --output=/etc/cdi/nvidia\.yaml'
run_json --only host.driver_store
check_json host.driver_store '.kb == "host.driver_store.several"'
check_json host.driver_store ".evidence.stale == \"/usr/lib/wsl/drivers/$old\""
check_json host.driver_store '.evidence.found | length == 2'
check_json host.driver_store '.evidence.found | map(select(test("\\(newest\\)$"))) | length == 1'
check_json host.driver_store '.evidence.folders == "3"'
run --only host.driver_store --strict
expect_rc 1

# UTF-16 .inf, or none at all: the store is still found.
rm "$ROOT/usr/lib/wsl/drivers/$old/nvmdi.inf"
rm -r "$ROOT/usr/lib/wsl/drivers/$old"
printf '[Version]\r\nDriverVer=01/19/2024,31.0.15.5123\r\n' | iconv -f UTF-8 -t UTF-16LE \
	>"$ROOT/usr/lib/wsl/drivers/$store/nv_dispi.inf"
run_json --only host.driver_store
check_json host.driver_store '.evidence.version == "551.23"'
rm "$ROOT/usr/lib/wsl/drivers/$store/nv_dispi.inf"
run_json --only host.driver_store
expect_rc 0
expect_status host.driver_store pass
check_json host.driver_store '.evidence.version == null'
check_json host.driver_store '.evidence.version_source | test("has no \\.inf")'
# A binary, truncated or huge .inf: no version, no crash.
head -c 3000 /dev/urandom >"$ROOT/usr/lib/wsl/drivers/$store/nv_dispi.inf"
run_json --only host.driver_store
expect_status host.driver_store pass
printf 'DriverVer = 01/19/2024, 31.0.' >"$ROOT/usr/lib/wsl/drivers/$store/nv_dispi.inf"
run_json --only host.driver_store
expect_status host.driver_store pass
check_json host.driver_store '.evidence.version == null'
head -c 12000000 /dev/zero | tr '\0' 'x' >"$ROOT/usr/lib/wsl/drivers/$store/nv_dispi.inf"
run_json --only host.driver_store
expect_status host.driver_store pass

# No folder with libcuda.so.1.1: no NVIDIA driver with WSL support.
rm -r "$ROOT/usr/lib/wsl/drivers/$store"
mkdir -p "$ROOT/usr/lib/wsl/drivers/nvhda.inf_amd64_1111222233334444"
run --only host.driver_store
expect_rc 1
expect_line '^✗ host\.driver_store +no NVIDIA driver store in /usr/lib/wsl/drivers \(2 folders\): no NVIDIA Windows driver with WSL support$'
expect_line 'cause +None of the 2 folders in /usr/lib/wsl/drivers holds'
expect_line 'fix +# install the current NVIDIA driver for your GPU from https://www\.nvidia\.com/Download/index\.aspx +# in Windows; Maxwell, Pascal and Volta GPUs: R580 is their last driver branch'
run_json --only host.driver_store
check_json host.driver_store '.kb == "host.driver_store.none"'
check_json host.driver_store '.evidence.nvidia_named == "/usr/lib/wsl/drivers/nvhda.inf_amd64_1111222233334444 has no libcuda.so.1.1"'

# No driver store mount at all.
rm -r "$ROOT/usr/lib/wsl/drivers"
run --only host.driver_store
expect_rc 1
expect_line '^✗ host\.driver_store +/usr/lib/wsl/drivers is missing: WSL did not mount the Windows driver store$'
expect_line 'cause +/usr/lib/wsl/drivers is not readable \(No such file or directory\)\.'
# A file where the directory belongs.
: >"$ROOT/usr/lib/wsl/drivers"
run --only host.driver_store
expect_rc 1
expect_line '^✗ host\.driver_store +/usr/lib/wsl/drivers cannot be read$'

# Skipped, naming the first broken check, when /dev/dxg is missing.
fixture no-dxg
run --only bridge,host.driver_store
expect_rc 1
expect_line '^      1 check skipped until this is fixed \(-v lists them\)$'
run -v --only bridge,host.driver_store
expect_line '^- host\.driver_store +skipped: bridge\.dxg failed, fix that first +\([0-9]+ ms\)$'

# Native Linux: the loaded kernel module's version.
fixture native-nvidia
run --only host.driver_store
expect_rc 0
expect_line '^✓ host\.driver_store +NVIDIA kernel module 550\.54\.14 loaded \(proprietary\)$'
run_json --only host.driver_store
check_json host.driver_store '.evidence.version == "550.54.14"'
check_json host.driver_store '.evidence.version_source == "/proc/driver/nvidia/version (the loaded kernel module)"'
check_json host.driver_store '.evidence.nvrm | startswith("NVRM version: NVIDIA UNIX x86_64 Kernel Module  550.54.14")'
# The open kernel modules say so in the NVRM line.
printf 'NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  560.35.03  Release Build  (dvs-builder@U16-I3-B03-4-3)  Fri Aug 16 21:42:42 UTC 2024\n' \
	>"$ROOT/proc/driver/nvidia/version"
run --only host.driver_store
expect_line '^✓ host\.driver_store +NVIDIA kernel module 560\.35\.03 loaded \(open\)$'
# Garbage in the version file: loaded, version unknown.
head -c 2000 /dev/urandom | tr -d '\n' >"$ROOT/proc/driver/nvidia/version"
run_json --only host.driver_store
expect_status host.driver_store pass
check_json host.driver_store '.evidence.version == null'
: >"$ROOT/proc/driver/nvidia/version"
run_json --only host.driver_store
expect_status host.driver_store pass
# No driver loaded.
rm "$ROOT/proc/driver/nvidia/version"
run --only host.driver_store
expect_rc 1
expect_line '^✗ host\.driver_store +no NVIDIA kernel driver loaded \(/proc/driver/nvidia/version: No such file or directory\)$'
expect_line 'fix +lsmod \| grep nvidia +# nothing: no NVIDIA module is loaded now$'
expect_line '^ +sudo modprobe nvidia +# its error message says why it does not load$'
expect_line 'sudo ubuntu-drivers install'
run_json --only host.driver_store
check_json host.driver_store '.kb == "host.driver_store.no_kernel_driver"'
check_json host.driver_store '.evidence.module == "nvidia is in /proc/modules"'
# ubuntu-drivers only where the distribution is Ubuntu: not on Debian.
sed -i 's/^ID=ubuntu$/ID=debian/' "$ROOT/etc/os-release"
run --only host.driver_store
expect_line 'fix +lsmod \| grep nvidia +# nothing: no NVIDIA module is loaded now$'
expect_line '^ +sudo modprobe nvidia +# its error message says why it does not load$'
expect_no_line 'ubuntu-drivers'
expect_line "install the driver as NVIDIA's driver installation guide says for your distribution"

# A container on native Linux started without the GPU (Debian image): the
# kernel module is the host's, so its commands are for the host; no
# ubuntu-drivers (the container's distribution is not the host's).
fixture container-no-gpu
run --only host.driver_store
expect_rc 1
expect_line '^✗ host\.driver_store +no NVIDIA kernel driver loaded'
expect_line 'This is a container, and a container runs on its host.s kernel'
expect_line 'fix +# on the host: sudo modprobe nvidia'
expect_no_line '^ +(fix +)?(sudo modprobe|dkms status|mokutil)'
expect_no_line 'ubuntu-drivers'
run_json --only host.driver_store
check_json host.driver_store '.evidence.in_container == "yes"'
run --only libs.kernel_modules
expect_line 'on the host: dkms status'
expect_no_line '^ +(fix +)?(sudo modprobe|dkms status)'

done_testing
