#!/bin/bash
# concurrency.sh: how much longer a full `wslgpu check` takes than its
# critical path (the longest chain of dependent probes, which `check -v`
# prints: "critical path: ... (X ms of Y ms)"), on the fw-concurrency fixture
# (python3 sleeps 2 s for each of the four framework probes, docker 1 s,
# nvidia-smi 1 s; ~10 s of probes if run one after another). The runner
# starts every probe whose deps are done, so the ratio wall / critical path
# should stay near 1 (target <= 1.2). Also shown: the sum of all probes
# (what a serial run would take) and the slowest probe alone.
# Benchmarks print numbers and ratios; they pass or fail nothing.
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
. "$TOP/tests/e2e/lib.sh"
fixture fw-concurrency
runs=${RUNS:-5}
ratios=""
for i in $(seq "$runs"); do
	run -v
	cp=$(printf '%s\n' "$OUT" | sed -n 's/^critical path: .* (\([0-9.]*\) ms of \([0-9.]*\) ms)$/\1 \2/p')
	read -r cp_ms run_ms <<<"$cp"
	path=$(printf '%s\n' "$OUT" | grep '^critical path:')
	run_json
	slowest=$(jq '[.checks[].ms] | max' "$JSON")
	serial=$(jq '[.checks[].ms] | add' "$JSON")
	r=$(awk -v w="$run_ms" -v c="$cp_ms" 'BEGIN { printf "%.2f", w / (c > 0 ? c : 1) }')
	printf 'run %d: checks %5.2f s, critical path %5.2f s, slowest probe %5.2f s, sum of probes %5.2f s, ratio %s\n' \
		"$i" "$(awk -v s="$run_ms" 'BEGIN { print s / 1000 }')" \
		"$(awk -v s="$cp_ms" 'BEGIN { print s / 1000 }')" \
		"$(awk -v s="$slowest" 'BEGIN { print s / 1000 }')" \
		"$(awk -v s="$serial" 'BEGIN { print s / 1000 }')" "$r"
	ratios="$ratios $r"
done
echo "$path"
echo "$ratios" | tr ' ' '\n' | sed '/^$/d' | sort -n |
	awk '{ a[NR] = $1 } END { printf "median ratio wall / critical path: %s (target <= 1.2, runs: %d)\n", a[int((NR + 1) / 2)], NR }'
done_testing >/dev/null
