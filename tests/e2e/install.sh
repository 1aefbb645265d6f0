#!/bin/sh
# install.sh: make install / uninstall into a scratch DESTDIR, the man page
# (lint-clean, renders, covers every command and option), the completions
# (bash for real through bash-completion; zsh syntax and compinit),
# --version and `wslgpu help CMD`.
. "$(dirname "$0")/lib.sh"
FIXTURE=install
OUT=""
ERR=""
MAN="$top/doc/wslgpu.1"

# ---- the man page
if command -v mandoc >/dev/null 2>&1; then
	if lint=$(mandoc -Tlint -Wwarning "$MAN" 2>&1) && [ -z "$lint" ]; then ok "mandoc -Tlint clean"; else
		fail "mandoc -Tlint: $lint"; fi
	mandoc -Tascii "$MAN" | col -b >"$WORK/man.txt"
else
	LANG=C MANWIDTH=100 man -l "$MAN" 2>/dev/null | col -b >"$WORK/man.txt"
fi
in_man() { grep -Fq -- "$1" "$WORK/man.txt"; }
cmds=$("$WSLGPU" --help | sed -n 's/^  \([a-z][a-z]*\)  .*/\1/p')
[ -n "$cmds" ] && ok "commands listed by --help" || fail "no commands in --help"
for c in $cmds; do
	if grep -Eq "^   $c\$" "$WORK/man.txt"; then ok "man: command $c"; else fail "man: no subsection for $c"; fi
done
for c in $cmds; do
	[ "$c" = help ] && continue
	opts=$("$WSLGPU" "$c" --help 2>/dev/null | grep -oE -- '--[a-z][a-z-]*' | sort -u)
	for o in $opts; do
		if in_man "$o"; then ok "man: $c $o"; else fail "man: $c option $o is not in the man page"; fi
	done
done
for s in "EXIT STATUS" ENVIRONMENT FILES "JSON SCHEMAS" EXAMPLES "SEE ALSO"; do
	if grep -q "^$s\$" "$WORK/man.txt"; then ok "man: section $s"; else fail "man: no section $s"; fi
done
for schema in $(grep -rhoE '"wslgpu/[a-z-]+/[0-9]+' "$top/src" | tr -d '"' | sort -u); do
	if in_man "$schema"; then ok "man: schema $schema"; else fail "man: schema $schema missing"; fi
done

# ---- --version, help CMD
OUT=$("$WSLGPU" --version); RC=$?
expect_rc 0
expect_line '^wslgpu [0-9]+\.[0-9]+\.[0-9]+ \(commit [0-9a-f]+|unknown\)'
expect_line '^built with: inih, sqlite [0-9.]+'
expect_line '^dlopen at run time: libcuda\.so\.1, libnvidia-ml\.so\.1'
for c in $cmds; do
	[ "$c" = help ] && continue
	# no manual page wslgpu-CMD on an empty MANPATH: help prints CMD --help
	a=$(MANPATH="$WORK/no-man" "$WSLGPU" help "$c" 2>&1); ra=$?
	b=$("$WSLGPU" "$c" --help 2>&1)
	if [ "$ra" = 0 ] && [ "$a" = "$b" ]; then ok "help $c = $c --help"; else fail "help $c (rc $ra) differs from $c --help"; fi
done
OUT=$("$WSLGPU" help nosuch 2>&1); RC=$?
expect_rc 2
expect_line "'nosuch' is not a wslgpu command"

# ---- make install / uninstall (of the binary under test: -o keeps make from
# rebuilding it, perhaps with other flags than it was built with)
D="$WORK/stage"
if make -s -C "$top" BUILD="$BUILD" -o "$BUILD/wslgpu" DESTDIR="$D" PREFIX=/usr install >"$WORK/make.log" 2>&1; then
	ok "make install"; else fail "make install: $(tail -5 "$WORK/make.log")"; fi
check_mode() { # FILE MODE
	if [ -f "$D$1" ] && [ "$(stat -c %a "$D$1")" = "$2" ]; then ok "$1 mode $2"; else
		fail "$1: $(stat -c %a "$D$1" 2>&1)"; fi
}
check_mode /usr/bin/wslgpu 755
check_mode /usr/share/man/man1/wslgpu.1 644
check_mode /usr/share/bash-completion/completions/wslgpu 644
check_mode /usr/share/zsh/site-functions/_wslgpu 644
n=$(find "$D" -type f | wc -l)
[ "$n" = 4 ] && ok "four files installed" || fail "$n files installed: $(find "$D" -type f)"
if "$D/usr/bin/wslgpu" --version >/dev/null; then ok "installed binary runs"; else fail "installed binary"; fi
if LANG=C MANWIDTH=80 man -l "$D/usr/share/man/man1/wslgpu.1" 2>/dev/null | col -b | grep -q 'is GPU compute working here'; then
	ok "man -l renders the installed page"; else fail "man -l"; fi

# bash: the real bash-completion, COMP_WORDS as bash sets them
BC=/usr/share/bash-completion/bash_completion
complete_bash() { # WORDS... (the last one is being completed)
	bash --norc --noprofile -c '
		[ -f "$1" ] && . "$1"; shift
		. "$1"; shift
		COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
		COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}
		_wslgpu wslgpu "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
		printf "%s\n" "${COMPREPLY[@]}"' complete "$BC" "$D/usr/share/bash-completion/completions/wslgpu" "$@"
}
expect_completion() { # EXPECTED-LINE WORDS...
	want=$1; shift
	got=$(complete_bash "$D/usr/bin/wslgpu" "$@" 2>&1)
	if printf '%s\n' "$got" | grep -qx -- "$want"; then ok "complete '$*' offers $want"; else
		fail "complete '$*': no '$want' in: $(echo $got)"; fi
}
expect_completion check ch
expect_completion fix f
expect_completion --apply fix --ap
expect_completion --yes fix --y
expect_completion --strict --root /tmp check --st
expect_completion libs check --only li
expect_completion libs.libcuda check --only libs.libc
expect_completion platform,bridge.dxg check --only platform,bridge.d
expect_completion always check --color al
expect_completion gpu bench g
expect_completion history help hi
expect_completion --changes history --ch
expect_completion --policy smoke --pol
expect_completion libs.loader.stub kb libs.loader.st
got=$(complete_bash "$D/usr/bin/wslgpu" fix --a 2>&1)
if [ "$got" = "--apply" ]; then ok "fix --a completes to --apply only"; else fail "fix --a: $got"; fi

# zsh: syntax, and compinit picks the function up from site-functions
if command -v zsh >/dev/null 2>&1; then
	if zsh -n "$D/usr/share/zsh/site-functions/_wslgpu"; then ok "zsh -n"; else fail "zsh -n"; fi
	z=$(HOME="$WORK" zsh -f -c "fpath=($D/usr/share/zsh/site-functions \$fpath); autoload -U compinit; compinit -u -d $WORK/zcompdump; print -r -- \${_comps[wslgpu]}" 2>&1)
	[ "$z" = _wslgpu ] && ok "zsh compinit registers _wslgpu" || fail "zsh compinit: $z"
fi

if make -s -C "$top" BUILD="$BUILD" DESTDIR="$D" PREFIX=/usr uninstall >"$WORK/make.log" 2>&1; then
	ok "make uninstall"; else fail "make uninstall: $(tail -5 "$WORK/make.log")"; fi
left=$(find "$D" -type f -o -type l)
[ -z "$left" ] && ok "uninstall leaves no file" || fail "left behind: $left"

# ---- the static build, when it has been built (make static)
S="$top/build-static/wslgpu"
if [ -x "$S" ]; then
	OUT=$("$S" --version); RC=$?
	expect_rc 0
	expect_line ', static build$'
	expect_line 'libcurl: no \(static build'
	expect_line '^dlopen at run time: nothing \(static build, glibc [0-9.]+\)'
	if file "$S" | grep -q 'static'; then ok "static binary"; else fail "not static: $(file "$S")"; fi
	WSLGPU_DYN=$WSLGPU
	WSLGPU=$S
	fixture healthy-wsl2
	run check
	expect_rc 0
	expect_line '^✓ libs\.libcuda '
	expect_line '^! cuda\.init +not checked: this static build of wslgpu does not load the driver.s libraries'
	expect_line '^! nvml\.init +not checked: this static build'
	expect_line '^✓ nvml\.smi '
	run smoke --only platform --push http://127.0.0.1:9/
	expect_rc 1
	expect_err 'built without libcurl \(static build\): --push is not available'
	run report -o "$WORK/static-report.tar.gz"
	expect_rc 0
	if tar tzf "$WORK/static-report.tar.gz" 2>/dev/null | grep -q '/check\.json$'; then
		ok "the static build writes a report bundle"; else fail "no bundle from the static build"; fi
	fixture distro-libcuda
	run check --only libs
	expect_rc 1
	expect_line '^✗ libs\.libcuda .*libnvidia-compute-535'
	WSLGPU=$WSLGPU_DYN
else
	echo "# build-static/wslgpu not built (make static): static checks skipped"
fi

done_testing
