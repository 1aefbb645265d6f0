#!/bin/sh
# fuzz-seed.sh: seeds the fuzz corpora (fuzz/corpus/TARGET/) from the test
# fixtures, so that each target starts from real files of the kind it parses
# instead of from nothing. Files are named by content (seed-<sha1 prefix>), so
# running it again adds only what is new; files over 64 KiB are left out
# (seeds are committed). Also writes ld.so.cache seeds in all three layouts
# with the real ldconfig (-c new|compat|old), when a user namespace lets it
# chroot as non-root.
#
#   sh tools/fuzz-seed.sh            seed every corpus
set -u
cd "$(dirname "$0")/.." || exit 3
fx=tests/fixtures
added=0

# seed TARGET FILE...: copies each small regular file into the corpus.
seed() {
	target=$1
	shift
	mkdir -p "fuzz/corpus/$target"
	for f in "$@"; do
		[ -f "$f" ] && [ ! -L "$f" ] || continue
		[ "$(wc -c <"$f")" -le 65536 ] || continue
		# Fake-library placeholders are one line of text: no use as seeds.
		head -c 6 "$f" | grep -q '^#fake ' && continue
		name=seed-$(sha1sum "$f" | cut -c1-12)
		if [ ! -e "fuzz/corpus/$target/$name" ]; then
			cp "$f" "fuzz/corpus/$target/$name"
			added=$((added + 1))
		fi
	done
}

# Every fixture's copy of a guest path (the glob runs over fixtures).
each() { for d in "$fx"/*/root; do for f in "$d"/$1; do [ -e "$f" ] && echo "$f"; done; done; }

# shellcheck disable=SC2046 # file names in the fixtures have no blanks
{
	seed core $(each etc/os-release) $(each usr/lib/os-release) $(each etc/wsl.conf) \
		$(each 'mnt/c/Users/*/.wslconfig') $(each proc/version) \
		$(each proc/sys/kernel/osrelease) src/kb/platform.kb
	seed procfs $(each proc/self/mountinfo) $(each proc/modules) $(each proc/meminfo) \
		$(each proc/vmstat) $(each proc/stat) $(each 'var/lib/dpkg/info/*.list')
	seed ldcache $(each etc/ld.so.cache)
	seed nvml $(each usr/lib/wsl/lib/nvidia-smi) $(each usr/bin/nvidia-smi) \
		$(each 'usr/lib/wsl/drivers/*/*.inf') $(each 'usr/local/cuda*/version.json') \
		$(each 'usr/local/cuda*/version.txt') $(each proc/driver/nvidia/version) \
		tests/fakes/nvidia-smi/*
	seed fw $(each var/lib/dpkg/status) $(each etc/apt/sources.list) \
		$(each 'etc/apt/sources.list.d/*') $(each usr/bin/docker) $(each usr/bin/python3) \
		$(each usr/bin/nvidia-container-cli) $(each 'usr/local/cuda*/bin/nvcc') \
		$(each etc/docker/daemon.json)
	# fuzz_outputs: its seeds (policies, NUL-separated hostile fields) are
	# written by hand; the fixtures' os-release and wsl.conf add INI text.
	seed outputs $(each etc/wsl.conf)
	# fuzz_explain also reads pasted ldconfig -p and pip listings
	seed explain tests/fixtures/real/ldconfig-p/*.txt tests/fixtures/real/pip/*.txt
}

# fuzz_windows: each real Windows output's body behind the byte that picks
# its parser (fuzz/fuzz_windows.c), named by the body's content.
mkdir -p fuzz/corpus/windows
for f in tests/fixtures/real/windows/*.txt; do
	case $(sed -n 's/^# shape: //p' "$f") in
	wsl-version) b=1 ;; smi-*) b=2 ;; counter | typeperf) b=3 ;; event) b=4 ;;
	reg) b=5 ;; driver | pnputil) b=6 ;; ver) b=7 ;; *) continue ;;
	esac
	out=fuzz/corpus/windows/seed-$(sed '1,/^# ---$/d' "$f" | sha1sum | cut -c1-12)
	[ -e "$out" ] && continue
	{ printf "\\00$b"; sed '1,/^# ---$/d' "$f"; } >"$out"
	added=$((added + 1))
done

# ld.so.cache in each layout glibc's ldconfig writes, from a small tree.
lc=$(command -v ldconfig || echo /sbin/ldconfig)
if [ -x "$lc" ] && command -v unshare >/dev/null 2>&1; then
	tmp=$(mktemp -d)
	cp -a "$fx/healthy-wsl2/root/etc" "$tmp/etc"
	mkdir -p "$tmp/usr/lib/wsl/lib" "$tmp/usr/lib/x86_64-linux-gnu"
	for lib in /lib/x86_64-linux-gnu/libm.so.6 /lib/x86_64-linux-gnu/libdl.so.2; do
		[ -f "$lib" ] && cp "$lib" "$tmp/usr/lib/x86_64-linux-gnu/"
	done
	for fmt in new compat old; do
		rm -f "$tmp/etc/ld.so.cache"
		if unshare -r "$lc" -X -c "$fmt" -r "$tmp" >/dev/null 2>&1 &&
			[ -f "$tmp/etc/ld.so.cache" ]; then
			cp "$tmp/etc/ld.so.cache" "$tmp/cache-$fmt"
			seed ldcache "$tmp/cache-$fmt"
		fi
	done
	rm -rf "$tmp"
fi
echo "fuzz-seed: $added new seed files"
