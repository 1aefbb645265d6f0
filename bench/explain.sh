#!/bin/bash
# explain.sh: throughput of `wslgpu explain` on a ~100 MB synthetic training
# log (mostly noise lines, a few dozen known errors), against GNU grep
# searching the same file for the same patterns (exported with the hidden
# `wslgpu explain --dump-patterns`, so both look for exactly the same texts).
# grep only says "some line matches"; explain also normalises every line,
# joins wrapped pairs, groups and explains. Target: at least 50 MB/s.
#   SIZE_MB=100  size of the generated log
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-build}
case "$BUILD" in /*) ;; *) BUILD="$TOP/$BUILD" ;; esac
WSLGPU="$BUILD/wslgpu"
SIZE_MB=${SIZE_MB:-100}
WORK=$(mktemp -d "${TMPDIR:-/tmp}/wslgpu-bench-explain.XXXXXX")
trap 'rm -rf "$WORK"' EXIT INT TERM
[ -x "$WSLGPU" ] || { echo "no $WSLGPU (run make first)" >&2; exit 3; }

LOG="$WORK/train.log"
awk -v target=$((SIZE_MB * 1024 * 1024)) 'BEGIN {
	srand(1)
	noise[0] = "I tensorflow/core/platform/cpu_feature_guard.cc:182] This TensorFlow binary is optimized to use available CPU instructions in performance-critical operations."
	noise[1] = "Epoch %d/100: %d%%|#####     | %d/5000 [01:02<00:58, 80.52it/s, loss=0.%04d, acc=0.%03d]"
	noise[2] = "INFO:root:step %d: train_loss=0.%04d lr=3.0e-04 grad_norm=1.%03d tokens/s=%d"
	noise[3] = "[rank0]: INFO 05-30 14:01:%02d model_runner.py:%d] Loading weights took %d.%02d GB"
	noise[4] = "Downloading (…)model.safetensors: %d%%|████      | %d.%dM/4.97G [00:%02d<00:%02d, 105MB/s]"
	noise[5] = "  warnings.warn(\"The given NumPy array is not writable, and PyTorch does not support non-writable tensors.\")"
	noise[6] = "DEBUG urllib3.connectionpool: https://huggingface.co:443 \"HEAD /bert-base/resolve/main/config.json HTTP/1.1\" 200 0"
	noise[7] = "| N/A   48C    P2    %dW / 170W |   %dMiB / 12288MiB |     %d%%      Default |"
	sig[0] = "E0501 12:00:00.123456  1234 cuda_driver.cc:282] failed call to cuInit: CUDA_ERROR_NO_DEVICE: no CUDA-capable device is detected"
	sig[1] = "ldconfig: /usr/lib/wsl/lib/libcuda.so.1 is not a symbolic link"
	sig[2] = "RuntimeError: CUDA error: no kernel image is available for execution on the device"
	sig[3] = "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB"
	sig[4] = "misc dxg: dxgk: dxgkio_query_adapter_info: Ioctl failed: -22"
	n = 0; size = 0; line = 0
	while (size < target) {
		line++
		if (line % 50000 == 0) {
			s = sig[int(rand() * 5)]
		} else {
			k = int(rand() * 8)
			s = sprintf("2024-05-01 12:%02d:%02d.%06d: " noise[k], int(rand() * 60), int(rand() * 60),
				int(rand() * 1000000), int(rand() * 100), int(rand() * 100), int(rand() * 5000),
				int(rand() * 10000), int(rand() * 1000))
		}
		print s
		size += length(s) + 1
	}
}' >"$LOG"
bytes=$(stat -c %s "$LOG")
"$WSLGPU" explain --dump-patterns >"$WORK/patterns.txt"
npat=$(wc -l <"$WORK/patterns.txt")

# Wall time suffers on a busy machine; CPU time (user + sys) is what the
# work costs, so both are shown.
TIMEFORMAT='%R %U %S'
read -r ew eu es <<<"$( { time "$WSLGPU" explain -f "$LOG" >"$WORK/explain.out"; } 2>&1 )"
read -r gw gu gs <<<"$( { time LC_ALL=C grep -E -i -c -f "$WORK/patterns.txt" "$LOG" >"$WORK/grep.out"; } 2>&1 )"
rss=?
if [ -x /usr/bin/time ]; then
	rss=$( { /usr/bin/time -f '%M' "$WSLGPU" explain -f "$LOG" >/dev/null; } 2>&1 | tail -1 )
fi

awk -v b="$bytes" -v ew="$ew" -v ec="$(echo "$eu $es" | awk '{print $1 + $2}')" \
    -v gw="$gw" -v gc="$(echo "$gu $gs" | awk '{print $1 + $2}')" -v n="$npat" -v rss="$rss" 'BEGIN {
	mb = b / 1048576
	if (ec <= 0) ec = 0.001
	if (gc <= 0) gc = 0.001
	printf "input: %.0f MB, %d patterns\n", mb, n
	printf "wslgpu explain: %6.2f s wall %7.1f MB/s   %6.2f s CPU %7.1f MB/s   (max RSS %s KiB)\n", ew, mb / ew, ec, mb / ec, rss
	printf "grep -E -i -f:  %6.2f s wall %7.1f MB/s   %6.2f s CPU %7.1f MB/s\n", gw, mb / gw, gc, mb / gc
	printf "ratio explain/grep throughput: %.2fx (CPU), %.2fx (wall)\n", gc / ec, gw / ew
}'
printf 'recognised signatures: %s; lines grep found: %s\n' \
	"$(grep -c -E '^(✗|·|!) [a-z]+: ' "$WORK/explain.out")" "$(cat "$WORK/grep.out")"
