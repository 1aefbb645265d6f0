#!/bin/sh
# status.sh: every status code the real CUDA libraries name, read by
# explain. The runtimes (Debian's cudart 11.8; the CUDA 13 toolkit's, where
# one is installed) answer cudaGetErrorName and cudaGetErrorString for each
# code, the drivers' libcuda (535, 470) cuGetErrorName and
# cuGetErrorString (no GPU needed: tests/real/answer.c "statuses"). Each
# status is pasted as programs print it, "RuntimeError: CUDA error: TEXT"
# and "error: NAME", and each line must be recognised: the names and texts
# are the real libraries', never a list of ours (src/explain/codes.c,
# src/kb/explain-status.kb).
. "$(dirname "$0")/lib.sh"
real_require
FIXTURE=status
build_answer

# Codes whose text alone is too common to read as CUDA's ("file not
# found", "shared object initialization failed"): their names are read.
NAME_ONLY=" 301 303 "
# Not read yet, said here so that a new one is not silently missed: the
# GPU's licence (102, vGPU), integrity checks (103, confidential computing)
# and the runtime's own start-up (127), which need readings of their own.
LEFT=" 102 103 127 "

# check_lib LABEL LIB: the statuses LIB names, each pasted in both forms.
check_lib() {
	label=$1
	lib=$2
	if ! "$ANSWER" statuses "$lib" >"$WORK/st.$label" 2>&1; then
		fail "$label: $lib names no status: $(head -3 "$WORK/st.$label")"
		return
	fi
	sed -n 's/^status=//p' "$WORK/st.$label" >"$WORK/st.$label.tsv"
	n=$(wc -l <"$WORK/st.$label.tsv")
	if [ "$n" -lt 50 ]; then
		fail "$label: only $n statuses from $lib"
		return
	fi
	# A paste a status (explain shows 8 lines a match): its name on line
	# 1, its text on line 3, a paragraph each, so that no line joins the
	# next.
	missed=""
	while IFS='	' read -r code name text; do
		case $LEFT in *" $code "*) continue ;; esac
		printf 'error: %s\n\nRuntimeError: CUDA error: %s\n' "$name" "$text" >"$WORK/paste"
		seen=$("$WSLGPU" explain --json -f "$WORK/paste" 2>/dev/null | jq -r '[.matches[].lines[].line] | unique | join(" ")')
		case " $seen " in *" 1 "*) ;; *) missed="$missed$NL$code $name" ;; esac
		case $NAME_ONLY in *" $code "*) continue ;; esac
		case " $seen " in *" 3 "*) ;; *) missed="$missed$NL$code $text" ;; esac
	done <"$WORK/st.$label.tsv"
	if [ -z "$missed" ]; then
		ok "$label: all $n statuses of $(basename "$lib") recognised by name and text"
	else
		fail "$label: not recognised:$NL$missed"
	fi
}

check_lib cudart-11.8 "$REAL/libcudart11.0/usr/lib/$ARCH_TRIPLET/libcudart.so.11.0"
check_lib libcuda-535 "$REAL/libcuda1/usr/lib/$ARCH_TRIPLET/nvidia/current/libcuda.so.1"
check_lib libcuda-470 "$REAL/libnvidia-tesla-470-cuda1/usr/lib/$ARCH_TRIPLET/nvidia/tesla-470/libcuda.so.1"
if have_toolkit; then
	check_lib cudart-toolkit "$CUDA_TOOLKIT/lib64/libcudart.so"
else
	toolkit_skip "the toolkit's CUDA runtime"
fi

# A status the libraries say is unknown stays unread: not every number
# after "error" is CUDA's.
printf 'error: CUDA_ERROR_NOT_A_CODE\nRuntimeError: CUDA error: this is not a CUDA status\n' >"$WORK/paste.none"
if [ "$("$WSLGPU" explain --json -f "$WORK/paste.none" 2>/dev/null | jq '.matches | length')" = 0 ]; then
	ok "a name or text no library has is not recognised"
else
	fail "a name or text no library has is recognised"
fi
done_testing
