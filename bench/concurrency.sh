#!/bin/bash
# concurrency.sh: how much longer a full `wslgpu check` takes than its
# slowest probe, on the fw-concurrency fixture (python3 sleeps 2 s for each
# of the four framework probes, docker 1 s, nvidia-smi 1 s; ~10 s of probes
# if run one after another). The runner forks every probe whose deps are
# done, so the ratio check-wall / slowest-probe should stay near 1
# (target <= 1.2; the rest is the dependency chain before the frameworks
# start and process start-up).
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
. "$TOP/tests/e2e/lib.sh"
fixture fw-concurrency
runs=${RUNS:-5}
ratios=""
for i in $(seq "$runs"); do
	run_json
	slowest=$(jq '[.checks[].ms] | max' "$JSON")
	serial=$(jq '[.checks[].ms] | add' "$JSON")
	r=$(awk -v w="$SECS" -v s="$slowest" 'BEGIN { printf "%.2f", w * 1000 / s }')
	printf 'run %d: check %5.2f s, slowest probe %5.2f s, sum of probes %5.2f s, ratio %s\n' \
		"$i" "$SECS" "$(awk -v s="$slowest" 'BEGIN { print s / 1000 }')" \
		"$(awk -v s="$serial" 'BEGIN { print s / 1000 }')" "$r"
	ratios="$ratios $r"
done
echo "$ratios" | tr ' ' '\n' | sed '/^$/d' | sort -n |
	awk '{ a[NR] = $1 } END { printf "median ratio check-wall / slowest-probe: %s (target <= 1.2, runs: %d)\n", a[int((NR + 1) / 2)], NR }'
done_testing >/dev/null
