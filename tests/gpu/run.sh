#!/bin/sh
# tests/gpu/run.sh: validation on a real machine with an NVIDIA GPU (native
# Linux or WSL2). Not part of `make check`, which must pass without a GPU
# (doc/testing.md). One command, within 5 minutes:
#
#     timeout 300 sh tests/gpu/run.sh        # OUT=DIR keeps every output there
#
# 1. builds the tool (make -jN) unless $WSLGPU names a binary;
# 2. wslgpu check -v --json: every check of the cuda and nvml layers passes;
# 3. wslgpu bench gpu --json, and the reference bench/gpu-ref.cu (CUDA
#    runtime API, built with nvcc, measuring the way src/bench/gpu.c does):
#    bench gpu / reference for each figure (copy bandwidth by kind and
#    size, launch round trips and back-to-back launches as rates), goal
#    >= 0.9 (printed; below it is a finding, and fails the run);
# 4. wslgpu watch on a real CUDA load (gpu-ref --load): "GPU-bound".
# Without a GPU it says so and exits 0 once the reference compiles (or
# says that nvcc is missing). Exit status: 0 all good, 1 a step failed.
set -u
TOP=$(cd "$(dirname "$0")/../.." && pwd)
cd "$TOP" || exit 2
OUT=${OUT:-$(mktemp -d "${TMPDIR:-/tmp}/wslgpu-gpu.XXXXXX")}
mkdir -p "$OUT"
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
SECONDS_PER_PHASE=${SECONDS_PER_PHASE:-5}
LOAD_SECONDS=${LOAD_SECONDS:-15}
GOAL=${GOAL:-0.9}
failed=0
log() { printf '%s\n' "$*" | tee -a "$OUT/summary.txt"; }
bad() { log "FAIL $*"; failed=1; }
good() { log "ok   $*"; }
: >"$OUT/summary.txt"
log "tests/gpu/run.sh: outputs in $OUT"

# ---- 1. the tool ----
if [ -z "${WSLGPU:-}" ]; then
	jobs=$(nproc 2>/dev/null || echo 4)
	if make -j"$jobs" build/wslgpu >"$OUT/build.log" 2>&1; then
		good "built build/wslgpu"
	else
		bad "make failed: see $OUT/build.log"; tail -20 "$OUT/build.log"; exit 1
	fi
	WSLGPU=$TOP/build/wslgpu
fi
"$WSLGPU" --version >"$OUT/version.txt" 2>&1

# ---- the reference program: it must compile everywhere nvcc is ----
REF=$OUT/gpu-ref
have_ref=0
if [ -x "$NVCC" ] || command -v "$NVCC" >/dev/null 2>&1; then
	# -arch=native (CUDA 11.5+) gives the GPU its own code; without a GPU,
	# or with an older nvcc, the default architecture's.
	if "$NVCC" -O2 -arch=native -o "$REF" bench/gpu-ref.cu >"$OUT/nvcc.log" 2>&1 ||
	   "$NVCC" -O2 -o "$REF" bench/gpu-ref.cu >>"$OUT/nvcc.log" 2>&1; then
		good "bench/gpu-ref.cu compiles ($("$NVCC" --version | tail -1))"
		have_ref=1
	else
		bad "bench/gpu-ref.cu does not compile: see $OUT/nvcc.log"; tail -20 "$OUT/nvcc.log"
	fi
else
	log "note nvcc not found (NVCC=$NVCC): the reference cannot be built"
fi

# ---- is there a GPU? ----
gpu=0
if ls /dev/nvidia0 /dev/dxg >/dev/null 2>&1 && command -v nvidia-smi >/dev/null 2>&1 &&
   nvidia-smi -L >"$OUT/nvidia-smi-L.txt" 2>&1 && grep -q '^GPU ' "$OUT/nvidia-smi-L.txt"; then
	gpu=1
	good "GPU: $(head -1 "$OUT/nvidia-smi-L.txt")"
fi
if [ "$gpu" = 0 ]; then
	log "no NVIDIA GPU on this machine (no /dev/nvidia0 or /dev/dxg with nvidia-smi -L): nothing more to test"
	exit "$failed"
fi

# JSON reading needs python3 (jq is not on every GPU machine).
py() { python3 - "$@"; }

# ---- 2. check: the cuda and nvml layers pass ----
timeout 120 "$WSLGPU" check -v --json >"$OUT/check.json" 2>"$OUT/check.err"
echo "exit $?" >"$OUT/check.rc"
if py "$OUT/check.json" >"$OUT/check-layers.txt" 2>&1 <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
bad = 0
for c in doc["checks"]:
    if c["layer"] in ("cuda", "nvml"):
        ok = c["status"] == "pass"
        bad += not ok
        print(("ok  " if ok else "BAD ") + c["id"] + " " + c["status"] + ": " + c.get("detail", ""))
sys.exit(1 if bad else 0)
PY
then good "check: every cuda and nvml check passes"; else bad "check: cuda/nvml checks that do not pass:"; fi
cat "$OUT/check-layers.txt" | tee -a "$OUT/summary.txt"

# ---- 3. bench gpu against the reference ----
timeout 150 "$WSLGPU" bench gpu --json --seconds "$SECONDS_PER_PHASE" >"$OUT/bench-gpu.json" \
	2>"$OUT/bench-gpu.err"
echo "exit $?" >"$OUT/bench-gpu.rc"
if [ "$have_ref" = 1 ]; then
	timeout 120 "$REF" >"$OUT/gpu-ref.txt" 2>"$OUT/gpu-ref.err"
	echo "exit $?" >"$OUT/gpu-ref.rc"
	if py "$OUT/bench-gpu.json" "$OUT/gpu-ref.txt" "$GOAL" >"$OUT/compare.txt" 2>&1 <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
goal = float(sys.argv[3])
g = doc["gpu"]
ours = {}
for c in g.get("copies", []):
    if c.get("bytes_per_s"):
        ours[("copy", c["kind"], c["size_bytes"])] = c["bytes_per_s"]
l = g.get("launch", {})
if l.get("sync", {}).get("median_us"):
    ours[("launch", "round trips/s (1/median)", 0)] = 1e6 / l["sync"]["median_us"]
if l.get("back_to_back", {}).get("launches_per_s"):
    ours[("launch", "back-to-back launches/s", 0)] = l["back_to_back"]["launches_per_s"]
ref = {}
for line in open(sys.argv[2]):
    w = line.split()
    if w[:1] == ["copy"]:
        ref[("copy", w[1], int(w[2]))] = float(w[3])
    elif w[:1] == ["sync"] and float(w[1]) > 0:
        ref[("launch", "round trips/s (1/median)", 0)] = 1e6 / float(w[1])
    elif w[:1] == ["stream"]:
        ref[("launch", "back-to-back launches/s", 0)] = float(w[2])
below = 0
print("%-28s %12s %14s %14s %7s" % ("figure", "size", "bench gpu", "reference", "ratio"))
for k in sorted(set(ours) & set(ref)):
    r = ours[k] / ref[k] if ref[k] else 0
    unit = "GB/s" if k[0] == "copy" else "/s"
    scale = 1e9 if k[0] == "copy" else 1
    size = "%d" % k[2] if k[2] else "-"
    flag = "" if r >= goal else "  < %.2f" % goal
    below += r < goal
    print("%-28s %12s %10.3f %s %10.3f %s %7.2f%s" % (k[1], size, ours[k] / scale, unit,
          ref[k] / scale, unit, r, flag))
missing = sorted(set(ref) - set(ours))
if missing:
    print("not measured by bench gpu: %d figures (time bound or error)" % len(missing))
if not set(ours) & set(ref):
    print("nothing to compare")
    sys.exit(1)
sys.exit(1 if below else 0)
PY
	then good "bench gpu / reference >= $GOAL for every figure"; else bad "bench gpu / reference (goal >= $GOAL):"; fi
	cat "$OUT/compare.txt" | tee -a "$OUT/summary.txt"
else
	log "note no reference: bench gpu ran alone (exit $(cat "$OUT/bench-gpu.rc"))"
fi

# ---- 4. watch on a real CUDA load ----
if [ "$have_ref" = 1 ]; then
	timeout $((LOAD_SECONDS + 60)) "$WSLGPU" watch --json="$OUT/watch.json" --csv "$OUT/watch.csv" \
		-- "$REF" --load "$LOAD_SECONDS" >"$OUT/watch.txt" 2>&1
	echo "exit $?" >"$OUT/watch.rc"
	if grep -q 'GPU-bound' "$OUT/watch.txt"; then
		good "watch: GPU-bound ($(grep -m1 'GPU-bound' "$OUT/watch.txt"))"
	else
		bad "watch did not say GPU-bound:"; tail -15 "$OUT/watch.txt" | tee -a "$OUT/summary.txt"
	fi
fi
log "done: $( [ "$failed" = 0 ] && echo all good || echo something failed ) (outputs in $OUT)"
exit "$failed"
