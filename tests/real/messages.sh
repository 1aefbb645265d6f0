#!/bin/sh
# messages.sh: what real programs print, explained. Small programs built now
# (tests/real/progs: a CUDA program built with nvcc -cudart shared; cuDNN
# 9, cuBLAS 13 and NCCL from the toolkit; a program that opens a CUDA
# runtime itself, with Debian's CUDA 11.8 one and the toolkit's 13), pycuda
# and Debian's CPU-only PyTorch run against no libcuda, the toolkit's stub,
# the 535 and the 470 driver's libcuda. Each line they print is fed to
# `wslgpu explain --json` (on this machine: native Linux or a container),
# which must recognise it, put it in the right layer, give a first cause
# that fits the scenario, and rank no WSL-only cause ahead of the others.
# The outputs are made again each run (NCCL's lines carry a time and a pid).
. "$(dirname "$0")/lib.sh"
real_require
FIXTURE=messages
PROGS=$WORK/progs
mkdir -p "$PROGS"

# The libcuda each scenario puts first on LD_LIBRARY_PATH.
mkdir -p "$WORK/lib-none" "$WORK/lib-stub"
d535=$REAL/libcuda1/usr/lib/$ARCH_TRIPLET/nvidia/current:$REAL/libnvidia-ptxjitcompiler1/usr/lib/$ARCH_TRIPLET/nvidia/current
d470=$REAL/libnvidia-tesla-470-cuda1/usr/lib/$ARCH_TRIPLET/nvidia/tesla-470:$REAL/libnvidia-tesla-470-ptxjitcompiler1/usr/lib/$ARCH_TRIPLET/nvidia/tesla-470
SCENARIOS="none 535 470"
if have_toolkit; then
	ln -s "$CUDA_TOOLKIT/lib64/stubs/libcuda.so" "$WORK/lib-stub/libcuda.so.1"
	SCENARIOS="none stub 535 470"
fi
libdir() {
	case $1 in
	none) echo "$WORK/lib-none" ;; stub) echo "$WORK/lib-stub" ;; 535) echo "$d535" ;; 470) echo "$d470" ;;
	esac
}
# This machine must have no libcuda of its own for "none" to mean none.
build_answer
if env -i "$ANSWER" which libcuda.so.1 >/dev/null 2>&1; then
	echo "skip: this machine's loader finds a libcuda.so.1 of its own: the no-libcuda scenario is not tested"
	SCENARIOS=$(echo "$SCENARIOS" | sed 's/none //')
fi

# run_prog SCENARIO NAME CMD...: CMD's output (stderr, stdout) in
# $WORK/out.SCENARIO.NAME, with the scenario's libcuda and the toolkit's
# libraries on LD_LIBRARY_PATH, unable to create device nodes.
run_prog() {
	sc=$1
	name=$2
	shift 2
	lp="$(libdir "$sc")"
	have_toolkit && lp="$lp:$CUDA_TOOLKIT/lib64"
	if [ "$(id -u)" = 0 ]; then
		env -i PATH=/usr/bin:/bin HOME="$WORK" LD_LIBRARY_PATH="$lp" NCCL_DEBUG=WARN $EXTRA_RUN_ENV \
			"$SETPRIV" --bounding-set -mknod,-sys_module "$@" >"$WORK/out.$sc.$name" 2>&1
	else
		env -i PATH=/usr/bin:/bin HOME="$WORK" LD_LIBRARY_PATH="$lp" NCCL_DEBUG=WARN $EXTRA_RUN_ENV \
			"$@" >"$WORK/out.$sc.$name" 2>&1
	fi
}
EXTRA_RUN_ENV=""

# explain_line SCENARIO TEXT: explain's JSON for TEXT (a whole output as a
# user pastes it is in $EXPLAINED); sets MATCH to the match holding TEXT.
explain_output() {
	"$WSLGPU" explain --json -f "$1" >"$WORK/explained.json" 2>/dev/null
	EXPLAINED=$WORK/explained.json
	PLATFORM=$(jq -r '.platform.kind // "unknown"' "$EXPLAINED")
}
match_of() { # the line as explain keeps it: trailing blanks off
	t=$(printf '%s' "$1" | sed 's/[[:space:]]*$//')
	jq -c --arg t "$t" '[.matches[] | select(any(.lines[]; .text | contains($t)))] | first // empty' "$EXPLAINED"
}
PLATFORM=""
recognised() { # TEXT
	m=$(match_of "$1")
	if [ -n "$m" ]; then ok "recognised ($(printf '%s\n' "$m" | jq -r .signature)): $1"
	else fail "not recognised: $1"; fi
}
layer_is() { # TEXT ERE
	l=$(match_of "$1" | jq -r '.layer // empty')
	if printf '%s\n' "$l" | grep -Eq "^($2)\$"; then ok "layer $l: $1"
	else fail "layer '${l:-none}', expected $2: $1"; fi
}
# The first cause shown (not one marked for another platform) matches ERE
# on its id and title; or, with !, does not.
first_cause() { # TEXT [!]ERE
	c=$(match_of "$1" | jq -r '[.causes[] | select(.machine != "not_applicable")] | first | "\(.id) \(.title)"')
	case $2 in
	!*) if printf '%s\n' "$c" | grep -Eiq -- "${2#!}"; then fail "first cause '$c' should not match ${2#!}: $1"
		else ok "first cause '$c': $1"; fi ;;
	*) if printf '%s\n' "$c" | grep -Eiq -- "$2"; then ok "first cause '$c': $1"
		else fail "first cause '$c' does not match $2: $1"; fi ;;
	esac
}
# The first fix line of the first cause shown does not match ERE.
first_fix_not() { # TEXT ERE
	f=$(match_of "$1" | jq -r '[.causes[] | select(.machine != "not_applicable")] | first | (.fix // [])[0] // ""')
	if printf '%s\n' "$f" | grep -Eiq -- "$2"; then fail "first fix '$f' matches $2: $1"
	else ok "first fix '$f': $1"; fi
}
some_cause() { # TEXT ERE: some cause of its match matches ERE
	if match_of "$1" | jq -r '.causes[] | "\(.id) \(.title)"' | grep -Eiq -- "$2"; then ok "a cause matches $2: $1"
	else fail "no cause matches $2: $1"; fi
}
# Off WSL, no cause that speaks of WSL comes before one that does not.
WSL_CAUSE='WSL|/usr/lib/wsl|ld\.wsl|dxg|Windows'
no_wsl_first() { # TEXT
	case $PLATFORM in wsl*|container-in-wsl2|unknown) echo "skip: platform $PLATFORM: WSL-first order not judged: $1"; return 0 ;; esac
	order=$(match_of "$1" | jq -r --arg re "$WSL_CAUSE" \
		'[.causes[] | select(.machine != "not_applicable") | ((.title + " " + ((.fix // []) | join(" "))) | test($re))] | map(if . then "w" else "n" end) | join("")')
	case $order in
	*wn*) fail "on $PLATFORM a WSL-only cause comes before a native one (causes $order): $1" ;;
	*) ok "on $PLATFORM no WSL-only cause first (causes ${order:-none}): $1" ;;
	esac
}
# Each non-empty line of a file, for the assertions below.
lines_of() { grep -v '^[[:space:]]*$' "$1" || true; }

# ---- the programs ----
compile_prog "$PROGS/cudart_dl" cc -O1 "$top/tests/real/progs/cudart_dl.c" -ldl || exit 3
if have_toolkit; then
	compile_prog "$PROGS/cudart" "$CUDA_TOOLKIT/bin/nvcc" -cudart shared "$top/tests/real/progs/cudart.cu" ||
		{ fail "nvcc could not build tests/real/progs/cudart.cu"; }
	for p in cudnn cublas nccl; do
		compile_prog "$PROGS/$p" cc -O1 "$top/tests/real/progs/$p.c" -ldl || exit 3
	done
else
	toolkit_skip "the CUDA 13 programs (nvcc, cuDNN, cuBLAS, NCCL, pycuda's libcurand)"
fi

for sc in $SCENARIOS; do
	FIXTURE="messages-$sc"
	# A program that ships its own runtime: Debian's CUDA 11.8 one.
	run_prog "$sc" cudart118 "$PROGS/cudart_dl" "$REAL/libcudart11.0/usr/lib/$ARCH_TRIPLET/libcudart.so.11.0"
	progs="cudart118"
	if have_toolkit; then
		run_prog "$sc" cudart13 "$PROGS/cudart"
		run_prog "$sc" cudnn "$PROGS/cudnn"
		run_prog "$sc" cublas "$PROGS/cublas"
		run_prog "$sc" nccl "$PROGS/nccl"
		# pycuda as Debian packages it (its libcurand.so.10 is the toolkit's)
		pp=$REAL/python3-pycuda/usr/lib/python3/dist-packages
		for p in pytools platformdirs appdirs decorator; do pp=$pp:$REAL/python3-$p/usr/lib/python3/dist-packages; done
		EXTRA_RUN_ENV="PYTHONPATH=$pp PYTHONDONTWRITEBYTECODE=1"
		run_prog "$sc" pycuda env LD_LIBRARY_PATH="$(libdir "$sc"):$REAL/libboost-python1.74.0/usr/lib/$ARCH_TRIPLET:$REAL/libboost-thread1.74.0/usr/lib/$ARCH_TRIPLET:$CUDA_TOOLKIT/lib64" \
			/usr/bin/python3 -c "import pycuda.autoinit"
		EXTRA_RUN_ENV=""
		progs="$progs cudart13 cudnn cublas nccl pycuda"
	fi
	for p in $progs; do
		f=$WORK/out.$sc.$p
		# pycuda's traceback: its last line is the message.
		[ "$p" = pycuda ] && { tail -1 "$f" >"$f.last"; f=$f.last; }
		cp "$f" "$WORK/explain.in"
		explain_output "$WORK/explain.in"
		lines_of "$f" >"$WORK/lines"
		[ -n "${REAL_MESSAGES:-}" ] && { echo "## $sc $p"; cat "$f"; echo; } >>"$REAL_MESSAGES"
		while IFS= read -r line; do
			case $line in
			*"undefined symbol: cuGL"*)
				recognised "$line"
				layer_is "$line" 'libs|cuda' ;;
			*) recognised "$line" ;;
			esac
			case $line in
			*cudaErrorInsufficientDriver*|*"insufficient for CUDA runtime"*)
				case $sc in
				none) some_cause "$line" 'libcuda.*(not[ _]found|missing|no libcuda)|(not[ _]found|missing).*libcuda' ;;
				*) first_cause "$line" 'driver_too_old|too_new|driver.*(old|update)' ;;
				esac ;;
			*StubLibrary*|*"stub library"*)
				first_cause "$line" stub ;;
			*CUDNN_STATUS_NOT_INITIALIZED*|*CUBLAS_STATUS_NOT_INITIALIZED*)
				first_cause "$line" '!memory|oom' ;;
			*"cudaGetDeviceCount(&count) != cudaSuccess"*)
				first_cause "$line" 'no usable driver|libcuda|stub' ;;
			*"no CUDA-capable device"*|*cudaErrorNoDevice*)
				no_wsl_first "$line"
				first_fix_not "$line" 'remove|purge|reinstall' ;;
			esac
		done <"$WORK/lines"
	done
done

# The loader's own message when a program built with -cudart shared finds
# no libcudart.so.13: a loader (libs) matter, not a framework's.
if [ -x "$PROGS/cudart" ]; then
	FIXTURE=messages-no-cudart
	env -i "$(readlink -f /lib64/ld-linux-x86-64.so.2)" --inhibit-cache --library-path "$WORK/lib-none" \
		"$PROGS/cudart" >"$WORK/out.nocudart" 2>&1
	line=$(head -1 "$WORK/out.nocudart")
	explain_output "$WORK/out.nocudart"
	recognised "$line"
	layer_is "$line" 'libs|toolkit'
	first_fix_not "$line" 'pip|--force-reinstall'
fi

# NVML's own words for its code 9, and the 535 and 470 nvidia-smi with no
# driver: nvml layer.
FIXTURE=messages-nvml
answer_here nvml "$REAL/libnvidia-ml1/usr/lib/$ARCH_TRIPLET/nvidia/current/libnvidia-ml.so.1"
line=$(ans nvmlErrorString)
printf '%s\n' "$line" >"$WORK/out.nvml"
explain_output "$WORK/out.nvml"
recognised "$line"
layer_is "$line" 'nvml|host'
for smi in "$REAL/nvidia-smi/usr/lib/nvidia/current/nvidia-smi" "$REAL/nvidia-tesla-470-smi/usr/lib/nvidia/tesla-470/nvidia-smi"; do
	for lib in "$WORK/lib-none" "$(dirname "$smi" | sed 's|/usr/lib/nvidia/|/usr/lib/'$ARCH_TRIPLET'/nvidia/|; s|/nvidia-smi/|/libnvidia-ml1/|; s|/nvidia-tesla-470-smi/|/libnvidia-tesla-470-ml1/|')"; do
		FIXTURE=messages-smi
		if [ "$(id -u)" = 0 ]; then
			env -i LD_LIBRARY_PATH="$lib" "$SETPRIV" --bounding-set -mknod,-sys_module "$smi" >"$WORK/out.smi" 2>&1
		else
			env -i LD_LIBRARY_PATH="$lib" "$smi" >"$WORK/out.smi" 2>&1
		fi
		line=$(head -1 "$WORK/out.smi")
		explain_output "$WORK/out.smi"
		recognised "$line"
		layer_is "$line" "nvml|libs"
		no_wsl_first "$line"
	done
done

# Debian's CPU-only PyTorch asked for CUDA.
if /usr/bin/python3 -c 'import torch' 2>/dev/null; then
	FIXTURE=messages-torch
	env -i PATH=/usr/bin:/bin HOME="$WORK" /usr/bin/python3 -c 'import torch; torch.zeros(1).cuda()' >"$WORK/out.torch" 2>&1
	line=$(tail -1 "$WORK/out.torch")
	explain_output "$WORK/out.torch"
	recognised "$line"
	layer_is "$line" frameworks
else
	echo "skip: no Debian python3-torch here: its CPU-only message is not tested"
fi

done_testing
