#!/bin/bash
# explain.sh: throughput of `wslgpu explain` on two generated logs of
# SIZE_MB each, against GNU grep on the same file:
#   ordinary   a training log: noise lines, a known error every 50,000 lines
#   all-known  every line a known error (the corpus's recognised lines,
#              cycled, each with its own timestamp)
# Baselines: grep -F -i -f with the fixed strings explain looks for before
# it runs any regex (`wslgpu explain --dump-keys`), and grep -E -i -f with
# every pattern (`--dump-patterns`). grep only says "some line matches";
# explain also normalises every line, joins wrapped ones, runs the regexes,
# groups and explains (a message it has already read, as an error-dense log
# repeats them, it replays from a memo). Targets (issue 27), MB/s of CPU
# time on an idle 2-core VM: all-known >= 100, ordinary >= 150.
#   SIZE_MB=100   size of each generated log
#   SIGS=400      also run with the KB padded to this many signatures by
#                 synthetic ones (--kb), as the KB will grow; 0: skip
# Wall time suffers on a busy machine; CPU time (user + sys) is what the
# work costs, so both are shown (MB/s of CPU time is the figure to compare).
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-build}
case "$BUILD" in /*) ;; *) BUILD="$TOP/$BUILD" ;; esac
WSLGPU="$BUILD/wslgpu"
SIZE_MB=${SIZE_MB:-100}
SIGS=${SIGS:-400}
WORK=$(mktemp -d "${TMPDIR:-/tmp}/wslgpu-bench-explain.XXXXXX")
[ -n "${KEEP:-}" ] || trap 'rm -rf "$WORK"' EXIT INT TERM
[ -x "$WSLGPU" ] || { echo "no $WSLGPU (run make first)" >&2; exit 3; }
command -v jq >/dev/null || { echo "explain.sh: needs jq" >&2; exit 3; }
TARGET=$((SIZE_MB * 1024 * 1024))

ORD="$WORK/ordinary.log"
awk -v target=$TARGET 'BEGIN {
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
	size = 0; line = 0
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
}' >"$ORD"

# Every line explain recognises on its own in the corpus, once each.
cat "$TOP"/tests/explain/*.log | grep -v -e '^===' -e '^##' >"$WORK/corpus.txt"
"$WSLGPU" explain --json -v -f "$WORK/corpus.txt" |
	jq -r '.matches[].lines[] | select(.wrapped == false and .cut == false) | .text' |
	sort -u >"$WORK/known.txt"
ALL="$WORK/all-known.log"
awk -v target=$TARGET 'NR == FNR { l[n++] = $0; next } END {
	srand(2)
	for (i = 0; size < target; i++) {
		s = sprintf("2024-05-01 12:%02d:%02d.%06d: %s", int(rand() * 60), int(rand() * 60),
			int(rand() * 1000000), l[i % n])
		print s
		size += length(s) + 1
	}
}' "$WORK/known.txt" /dev/null >"$ALL"

# A KB padded with synthetic signatures shaped like real ones: a phrase of
# three words from a recognised line, then a part that is not there (a
# literal's extra word, a regex's number and alternatives). Their keys occur
# in the all-known log, so explain does the work of trying them and failing.
SYN="$WORK/synthetic.kb"
have=$("$WSLGPU" explain --list --json | jq .count)
if [ "$SIGS" -gt "$have" ]; then
	awk -v n=$((SIGS - have)) '{
		m = split($0, w, / +/)
		for (i = 1; i + 2 <= m; i++)
			if (w[i] ~ /^[A-Za-z][a-z]+$/ && w[i+1] ~ /^[a-z]+$/ && w[i+2] ~ /^[a-z]+$/)
				ph[np++] = w[i] " " w[i+1] " " w[i+2]
	} END {
		srand(3)
		for (i = 0; i < n; i++) {
			p = ph[int(rand() * np)]
			x = ph[int(rand() * np)]
			split(x, y, " ")
			printf "[bench.synthetic.s%d]\nlayer: cuda\nkind: signature\ntitle: synthetic %d\n", i, i
			printf "source: https://example.invalid/%d\nsee: cuda.load.shadowed\n", i
			if (i % 2) printf "match: %s %s\n\n", p, y[1]
			else printf "regex: %s [0-9]+ (%s|%s)\n\n", p, y[2], y[3]
		}
	}' "$WORK/known.txt" >"$SYN"
fi

TIMEFORMAT='%R %U %S'
# run NAME CMD...: prints "NAME wall cpu"
timed() {
	name=$1
	shift
	read -r w u s <<<"$( { time "$@" >"$WORK/out.$name" 2>/dev/null; } 2>&1 )"
	echo "$name $w $(echo "$u $s" | awk '{ print $1 + $2 }')"
}
rss() {
	if [ -x /usr/bin/time ]; then
		/usr/bin/time -o "$WORK/rss" -f '%M' "$@" >/dev/null 2>&1
		tail -1 "$WORK/rss"
	else
		echo "?"
	fi
}

bench_kb() { # label, extra explain args...
	label=$1
	shift
	"$WSLGPU" explain "$@" --dump-keys >"$WORK/keys.txt"
	"$WSLGPU" explain "$@" --dump-patterns >"$WORK/patterns.txt"
	nsig=$("$WSLGPU" explain "$@" --list --json | jq .count)
	echo "== $label: $nsig signatures, $(wc -l <"$WORK/keys.txt") fixed strings, $(wc -l <"$WORK/patterns.txt") patterns"
	for log in "$ORD" "$ALL"; do
		kind=$(basename "$log" .log)
		bytes=$(stat -c %s "$log")
		{
			timed explain "$WSLGPU" explain "$@" -f "$log"
			timed grepF env LC_ALL=C grep -F -i -c -f "$WORK/keys.txt" "$log"
			timed grepE env LC_ALL=C grep -E -i -c -f "$WORK/patterns.txt" "$log"
		} >"$WORK/times"
		r=$(rss "$WSLGPU" explain "$@" -f "$log")
		"$WSLGPU" explain "$@" --json -f "$log" >"$WORK/json" 2>/dev/null
		lines=$(jq .input.lines "$WORK/json")
		rec=$(jq .summary.recognised_lines "$WORK/json")
		awk -v b="$bytes" -v kind="$kind" -v rss="$r" -v lines="$lines" -v rec="$rec" '
			{ w[$1] = $2; c[$1] = ($3 > 0 ? $3 : 0.001) }
			END {
				mb = b / 1048576
				printf "%-10s %4.0f MB, %d lines, %d recognised (%.1f%%), explain max RSS %s KiB\n",
					kind, mb, lines, rec, 100 * rec / lines, rss
				printf "  explain      %6.2f s CPU %7.1f MB/s   (%6.2f s wall %7.1f MB/s)\n",
					c["explain"], mb / c["explain"], w["explain"], mb / w["explain"]
				printf "  grep -F -i   %6.2f s CPU %7.1f MB/s   ratio explain/grep-F %.2fx\n",
					c["grepF"], mb / c["grepF"], c["grepF"] / c["explain"]
				printf "  grep -E -i   %6.2f s CPU %7.1f MB/s   ratio explain/grep-E %.2fx\n",
					c["grepE"], mb / c["grepE"], c["grepE"] / c["explain"]
			}' "$WORK/times"
	done
}

bench_kb "built-in KB"
if [ -s "$SYN" ]; then
	bench_kb "KB padded to $SIGS signatures" --kb "$SYN"
fi
