#!/bin/sh
# check-hardening.sh BINARY...: proves from the ELF file itself that each
# binary was built hardened, as the Makefile asks (README "Building"):
#
#   PIE           ELF type DYN and DF_1_PIE in the dynamic section
#   full RELRO    a GNU_RELRO segment and BIND_NOW (DF_BIND_NOW or DF_1_NOW)
#   stack guard   __stack_chk_fail referenced (-fstack-protector-strong)
#   FORTIFY       fortified libc calls (__*_chk) referenced (-D_FORTIFY_SOURCE)
#   NX stack      a GNU_STACK segment without the execute flag
#
# Prints one line per property and exits 1 naming what is missing (2: usage,
# or readelf is not installed). Sanitizer builds are -O1 without FORTIFY:
# check the release builds (build-gcc/wslgpu, build-clang/wslgpu).
set -u
if [ $# -eq 0 ]; then
	echo "usage: check-hardening.sh BINARY..." >&2
	exit 2
fi
command -v readelf >/dev/null 2>&1 || { echo "check-hardening: readelf not found (binutils)" >&2; exit 2; }
status=0
for bin in "$@"; do
	if [ ! -f "$bin" ]; then
		echo "$bin: no such file"
		status=1
		continue
	fi
	hdr=$(readelf -h "$bin" 2>/dev/null)
	dyn=$(readelf -d "$bin" 2>/dev/null)
	seg=$(readelf -lW "$bin" 2>/dev/null)
	syms=$(readelf -sW --dyn-syms "$bin" 2>/dev/null)
	missing=""
	have() { printf '  %-12s yes  (%s)\n' "$1" "$2"; }
	lack() { printf '  %-12s NO   (%s)\n' "$1" "$2"; missing="$missing $1"; }

	echo "$bin:"
	if printf '%s\n' "$hdr" | grep -Eq 'Type:[[:space:]]+DYN' &&
		printf '%s\n' "$dyn" | grep -Eq 'FLAGS_1.*PIE'; then
		have PIE "type DYN, DF_1_PIE"
	else
		lack PIE "not a position-independent executable"
	fi
	relro=no now=no
	printf '%s\n' "$seg" | grep -q 'GNU_RELRO' && relro=yes
	printf '%s\n' "$dyn" | grep -Eq '\(BIND_NOW\)|FLAGS[^_].*BIND_NOW|FLAGS_1.*NOW' && now=yes
	if [ $relro = yes ] && [ $now = yes ]; then
		have RELRO "GNU_RELRO + BIND_NOW: full"
	else
		lack RELRO "GNU_RELRO $relro, BIND_NOW $now"
	fi
	if printf '%s\n' "$syms" | grep -q '__stack_chk_fail'; then
		have stack-guard "__stack_chk_fail"
	else
		lack stack-guard "__stack_chk_fail not referenced"
	fi
	chk=$(printf '%s\n' "$syms" | grep -Eo '__[a-z0-9_]+_chk' | grep -v '__stack_chk' | sort -u)
	if [ -n "$chk" ]; then
		have FORTIFY "$(printf '%s\n' "$chk" | wc -l | tr -d ' ') fortified calls: $(printf '%s\n' "$chk" | head -4 | tr '\n' ' ')..."
	else
		lack FORTIFY "no __*_chk calls"
	fi
	stack=$(printf '%s\n' "$seg" | grep 'GNU_STACK')
	if [ -n "$stack" ] && ! printf '%s\n' "$stack" | grep -Eq 'RWE|[[:space:]]E[[:space:]]*$'; then
		have NX-stack "GNU_STACK not executable"
	else
		lack NX-stack "stack executable or no GNU_STACK"
	fi
	if [ -n "$missing" ]; then
		echo "  missing:$missing"
		status=1
	fi
done
exit $status
