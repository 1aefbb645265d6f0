# containers.sh: Docker, the NVIDIA Container Toolkit and CDI on fixture
# machines whose docker / nvidia-container-cli are fakes (see each
# fixture's README for the messages and where they come from).
. "$(dirname "$0")/lib.sh"
IMG=nvidia/cuda:12.4.1-base-ubuntu22.04

# No docker: a skip.
fixture healthy-wsl2
run_json --only containers
expect_rc 0
expect_status containers.docker skip
expect_json '.checks[0].detail == "skipped: docker is not installed"'

# Docker Desktop with the nvidia runtime; the smoke test works.
fixture docker-desktop-gpu
run_json --only containers
expect_rc 0
expect_status containers.docker pass
expect_json '.checks[0].evidence.engine == "Docker Desktop"'
expect_json '.checks[0].evidence.docker_link | test("^/mnt/wsl/docker-desktop/cli-tools/usr/bin/docker")'
expect_json '.checks[0].evidence.runtimes == "io.containerd.runc.v2 runc nvidia"'
run_json --only containers --docker-image "$IMG"
expect_status containers.docker pass
expect_json '.checks[0].detail | test("; docker run --rm --gpus all nvidia/cuda:12.4.1-base-ubuntu22.04 nvidia-smi works$")'

# Docker Desktop stopped: its CLI link dangles.
fixture docker-desktop-gpu
rm -rf "$ROOT/mnt/wsl/docker-desktop"
run_json --only containers
expect_status containers.docker warn
expect_json '.checks[0].kb == "containers.docker.desktop_stopped"'
expect_json '.checks[0].fix[0] == "# start Docker Desktop on Windows"'

# Docker Desktop without an nvidia runtime: GPU support is documented but
# not seen, so unknown (not a pass, no problem: exit 0), with the way to
# find out; the toolkit in this distribution is named as unused.
fixture docker-desktop-no-runtime
run_json --only containers
expect_rc 0
expect_status containers.docker unknown
expect_json '.checks[0].kb == "containers.docker.desktop_unverified"'
expect_json '.checks[0].evidence.note | test("not used by Docker Desktop")'
run -v --only containers
expect_line '^      note +Docker Desktop runs its engine in its own docker-desktop distribution'

# D01: docker-ce without the toolkit: predicted, then seen with --docker-image.
fixture docker-ce-no-toolkit
run_json --only containers
expect_rc 0
expect_status containers.docker warn
expect_json '.checks[0].kb == "containers.docker.no_toolkit"'
expect_json '.checks[0].fix[1] == "sudo nvidia-ctk runtime configure --runtime=docker"'
run_json --only containers --docker-image "$IMG"
expect_rc 1
expect_status containers.docker fail
expect_json '.checks[0].kb == "containers.docker.no_toolkit"'
expect_json '.checks[0].detail | test("could not select device driver \"\" with capabilities: \\[\\[gpu\\]\\]")'
run --only containers --docker-image "$IMG"
expect_line '^✗ containers\.docker +docker run --gpus all nvidia/cuda:12\.4\.1-base-ubuntu22\.04 failed: docker: Error response from daemon: could not select device driver'
expect_line 'cause +dockerd registers the NVIDIA device driver that --gpus uses only if it'

# docker-ce with the toolkit configured: pass, with nvidia-container-cli's view.
fixture docker-ce-toolkit
run_json --only containers
expect_rc 0
expect_status containers.docker pass
expect_json '.checks[0].evidence.nvcli == "NVRM 551.23, CUDA 12.4, 1 device: NVIDIA GeForce RTX 3080"'
expect_json '.checks[0].evidence.cdi_spec == "/etc/cdi/nvidia.yaml (nvidia.com/gpu)"'
expect_json '.checks[0].evidence.daemon_json == "/etc/docker/daemon.json: runtimes nvidia"'

# D03: libnvidia-container finds no adapter.
fixture docker-ce-toolkit
printf '#!/bin/sh\necho "nvidia-container-cli: initialization error: WSL environment detected but no adapters were found" >&2\nexit 1\n' \
	>"$ROOT/usr/bin/nvidia-container-cli"
run_json --only containers
expect_rc 1
expect_json '.checks[0].kb == "containers.nvcli.no_adapters"'

# D05 from the smoke test; and the baked-in driver libraries (the myth).
fixture docker-ce-toolkit
cat >"$ROOT/usr/bin/docker.run" <<'EOS'
	echo 'docker: Error response from daemon: failed to create task for container: failed to create shim task: OCI runtime create failed: runc create failed: unable to start container process: error during container init: error running hook #0: error running hook: exit status 1, stdout: , stderr: Auto-detected mode as '"'"'legacy'"'"'' >&2
	echo 'nvidia-container-cli: initialization error: driver error: failed to process request: unknown.' >&2
	exit 125
EOS
sed -i '/^run)$/r '"$ROOT/usr/bin/docker.run" "$ROOT/usr/bin/docker"
sed -i '/^run)$/,/^\t;;$/{/^\tcat <<.EOF.$/,/^EOF$/d}' "$ROOT/usr/bin/docker"
run_json --only containers --docker-image "$IMG"
expect_rc 1
expect_json '.checks[0].kb == "containers.nvcli.failed_request"'
sed -i 's|initialization error: driver error: failed to process request: unknown.|mount error: file creation failed: /var/lib/docker/overlay2/abc/merged/usr/lib/x86_64-linux-gnu/libnvidia-ml.so.1: file exists: unknown.|' "$ROOT/usr/bin/docker"
run_json --only containers --docker-image "$IMG"
expect_json '.checks[0].kb == "containers.image_driver_libs"'
expect_json '.checks[0].fix[0] | test("remove the COPY of libcuda")'

# D08: a CDI spec that names a replaced driver-store folder.
fixture docker-ce-toolkit
sed -i 's/nv_dispi.inf_amd64_7e5fd280efaa5445/nv_dispi.inf_amd64_0000000000000000/g' "$ROOT/etc/cdi/nvidia.yaml"
run_json --only containers
expect_status containers.docker warn
expect_json '.checks[0].kb == "containers.cdi.stale"'
expect_json '.checks[0].fix[0] == "sudo nvidia-ctk cdi generate --output=/etc/cdi/nvidia.yaml"'
expect_json '[.checks[0].fix[] | select(test("nvidia-cdi-refresh"))] | length == 0'
# The same spec where the toolkit's nvidia-cdi-refresh service writes it
# (1.18.0 and newer): restarting that service is the other way.
mkdir -p "$ROOT/var/run/cdi"
mv "$ROOT/etc/cdi/nvidia.yaml" "$ROOT/var/run/cdi/nvidia.yaml"
run_json --only containers
expect_json '.checks[0].kb == "containers.cdi.stale"'
expect_json '.checks[0].fix[0] == "sudo nvidia-ctk cdi generate --output=/var/run/cdi/nvidia.yaml"'
expect_json '.checks[0].fix[1] | test("^# or, with toolkit 1\\.18\\.0 or newer where systemd runs: sudo systemctl restart nvidia-cdi-refresh\\.service")'

# D07: nvidia-container-cli info hangs; it is stopped at its limit.
fixture docker-ce-toolkit
printf '#!/bin/sh\nexec sleep 60\n' >"$ROOT/usr/bin/nvidia-container-cli"
run_json --only containers --timeout 3
expect_json '.checks[0].kb == "containers.nvcli.hang"'
expect_json '.checks[0].ms < 3000'

# The daemon is not running; the smoke test is then not attempted.
fixture docker-daemon-down
run_json --only containers --docker-image "$IMG"
expect_rc 0
expect_status containers.docker warn
expect_json '.checks[0].kb == "containers.docker.daemon_down"'
expect_json '.checks[0].evidence.gpu_run == "not run: the daemon did not answer"'
run --only containers
expect_line '^! containers\.docker +Cannot connect to the Docker daemon at unix:///var/run/docker\.sock\. Is the docker daemon running\?$'
expect_line 'fix +# start Docker Desktop on Windows'
expect_line 'sudo systemctl start docker'
# Off WSL (native Linux): no Docker Desktop, the service is started; without
# systemd as PID 1, with the service command.
fixture docker-daemon-down
rm -rf "$ROOT/usr/lib/wsl" "$ROOT/dev/dxg" "$ROOT/run/WSL"
echo "6.8.0-45-generic" >"$ROOT/proc/sys/kernel/osrelease"
rm -f "$ROOT/proc/sys/fs/binfmt_misc/WSLInterop"
setenv WSL_DISTRO_NAME= WSL_INTEROP=
run --only containers
expect_line '^! containers\.docker +Cannot connect to the Docker daemon'
expect_no_line 'Docker Desktop'
expect_line 'fix +sudo systemctl start docker$'
echo bash >"$ROOT/proc/1/comm"
run --only containers
expect_no_line 'Docker Desktop'
expect_no_line 'systemctl'
expect_line 'fix +sudo service docker start +# systemd is not running here$'

# The real docker client with no daemon behind its socket (DOCKER_HOST names
# a socket nobody listens on): its own messages, classified the same. Any
# real client works (Debian's docker.io, Docker's docker-ce-cli).
# tools/install-deps --test unpacks Debian's docker.io client there.
real_docker=$top/.cache/debian/docker.io/usr/bin/docker
[ -x "$real_docker" ] || real_docker=$(command -v docker 2>/dev/null)
if [ -n "$real_docker" ] && "$real_docker" --version 2>/dev/null | grep -q '^Docker version'; then
	fixture docker-daemon-down
	cp "$real_docker" "$ROOT/usr/bin/docker"
	setenv DOCKER_HOST=unix:///nonexistent
	run_json --only containers
	expect_status containers.docker warn
	expect_json '.checks[0].kb == "containers.docker.daemon_down"'
	expect_json '.checks[0].evidence.docker_error | test("^Cannot connect to the Docker daemon at unix:///nonexistent")'
	expect_json '.checks[0].evidence.DOCKER_HOST == "unix:///nonexistent"'
	run --only containers
	expect_line '^! containers\.docker +Cannot connect to the Docker daemon at unix:///nonexistent\. Is the docker daemon running\?$'
	# Off WSL no Docker Desktop advice.
	fixture docker-daemon-down
	cp "$real_docker" "$ROOT/usr/bin/docker"
	rm -rf "$ROOT/usr/lib/wsl" "$ROOT/dev/dxg" "$ROOT/run/WSL"
	echo "6.8.0-45-generic" >"$ROOT/proc/sys/kernel/osrelease"
	rm -f "$ROOT/proc/sys/fs/binfmt_misc/WSLInterop"
	setenv DOCKER_HOST=unix:///nonexistent WSL_DISTRO_NAME= WSL_INTEROP=
	run --only containers
	expect_line '^! containers\.docker +Cannot connect to the Docker daemon'
	expect_no_line 'Docker Desktop'
	# Nothing at /var/run/docker.sock and nothing naming another endpoint:
	# docker info is not run (it could only say that it found no daemon).
	fixture docker-daemon-down
	cp "$real_docker" "$ROOT/usr/bin/docker"
	rm -f "$ROOT/var/run/docker.sock"
	run_json --only containers --docker-image img
	expect_status containers.docker warn
	expect_json '.checks[0].kb == "containers.docker.daemon_down"'
	expect_json '.checks[0].evidence.docker_socket | test("^/var/run/docker.sock: no such file")'
	expect_json '.checks[0].evidence.ran == null'
	expect_json '.checks[0].evidence.gpu_run == "not run: the daemon did not answer"'
	run --only containers
	expect_line '^! containers\.docker +no Docker daemon: nothing at /var/run/docker\.sock'
	expect_line 'fix +# start Docker Desktop on Windows'
	# Anything there (a socket, here a file standing in for one), a current
	# context, DOCKER_CONTEXT or a script for a CLI (podman-docker's): it is.
	mkdir -p "$ROOT/var/run" && : >"$ROOT/var/run/docker.sock"
	run_json --only containers
	expect_json '.checks[0].evidence.ran | test("^/usr/bin/docker info ")'
	rm -f "$ROOT/var/run/docker.sock"
	mkdir -p "$ROOT/home/user/.docker"
	echo '{"currentContext":"rootless"}' >"$ROOT/home/user/.docker/config.json"
	run_json --only containers
	expect_json '.checks[0].evidence.ran | test("^/usr/bin/docker info ")'
	echo '{"currentContext":"default"}' >"$ROOT/home/user/.docker/config.json"
	run_json --only containers
	expect_json '.checks[0].evidence.ran == null'
	setenv DOCKER_CONTEXT=rootless
	run_json --only containers
	expect_json '.checks[0].evidence.ran | test("^/usr/bin/docker info ")'
	fixture docker-daemon-down
	run_json --only containers
	expect_json '.checks[0].evidence.ran | test("^/usr/bin/docker info ")'
else
	echo "skip: no real docker client here: the real-client messages are not tested"
fi

# Permission denied on the socket.
fixture docker-permission
run_json --only containers
expect_status containers.docker warn
expect_json '.checks[0].kb == "containers.docker.permission"'
expect_json '.checks[0].fix[0] == "sudo usermod -aG docker $USER"'

# A docker that reads its input to the end: stdin is /dev/null, so it ends
# at once, even when the tool's own stdin never ends.
fixture docker-tty
mkfifo "$WORK/never"
run_json --only containers 0<>"$WORK/never"
expect_status containers.docker warn
expect_json '.checks[0].kb == "containers.docker.info_failed"'
expect_json '.checks[0].detail == "docker info exited with status 1: the input device is not a TTY"'
# Had it waited for its input, docker info would have run to its limit (4.3 s).
expect_json '.checks[0].ms < 3500'

# A docker that never answers at all.
fixture docker-tty
printf '#!/bin/sh\nexec sleep 60\n' >"$ROOT/usr/bin/docker"
run_json --only containers --timeout 2
expect_json '.checks[0].kb == "containers.docker.hang"'
expect_json '.checks[0].ms < 2000'
# Off WSL a docker that hangs is restarted as a service, never Docker Desktop.
rm -rf "$ROOT/usr/lib/wsl" "$ROOT/dev/dxg" "$ROOT/run/WSL"
echo "6.8.0-45-generic" >"$ROOT/proc/sys/kernel/osrelease"
rm -f "$ROOT/proc/sys/fs/binfmt_misc/WSLInterop"
setenv WSL_DISTRO_NAME= WSL_INTEROP=
run --only containers --timeout 2
expect_line 'docker info did not answer'
expect_no_line 'Docker Desktop'
expect_line '^ +sudo systemctl restart docker$'

# A docker that prints binary junk and fails: the detail names it, never quotes it.
fixture docker-ce-toolkit
printf '#!/bin/sh\nhead -c 4096 "%s"\nexit 1\n' "$WSLGPU" >"$ROOT/usr/bin/docker"
run_json --only containers.docker
expect_json '.checks[0].detail == "docker info exited with status 1: (binary output, 4096 bytes)"'

done_testing
