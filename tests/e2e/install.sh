#!/bin/sh
# install.sh: make install / uninstall into a scratch DESTDIR, the man pages
# (lint-clean, render, wslgpu.1 lists every command and schema, each
# command's page every option of its --help), the completions
# (bash for real through bash-completion; zsh syntax and compinit),
# --version and `wslgpu help CMD`.
. "$(dirname "$0")/lib.sh"
FIXTURE=install
OUT=""
ERR=""
MAN="$top/doc/wslgpu.1"

# ---- the man pages: doc/wslgpu.1 (the overview) and doc/wslgpu-CMD.1 for
# each command. Each lints clean (style messages too, but for references to
# pages this machine does not have installed), and documents in its OPTIONS
# every option its command's --help lists: adding an option without its
# documentation fails here.
cmds=$("$WSLGPU" --help | sed -n 's/^  \([a-z][a-z]*\)  .*/\1/p')
[ -n "$cmds" ] && ok "commands listed by --help" || fail "no commands in --help"
render() { # PAGE: the page as plain text
	if command -v mandoc >/dev/null 2>&1; then mandoc -Tascii "$1" | col -bx
	else LANG=C MANWIDTH=100 man -l "$1" 2>/dev/null | col -bx; fi
}
section() { # TEXT-FILE NAME: the body of section NAME
	awk -v s="$2" '/^[A-Z][A-Z ]*$/ { on = ($0 == s); next } on' "$1"
}
help_opts() { # CMD: every option in the option column of CMD --help
	"$WSLGPU" "$1" --help 2>/dev/null | sed -n 's/^ \{1,\}\(-[^ ].*\)$/\1/p' | sed 's/  .*//' |
		grep -oE -- '(^|[ ,])--?[a-zA-Z][a-zA-Z-]*' | tr -d ' ,' | sort -u
}
lint_page() { # PAGE NAME
	if ! command -v mandoc >/dev/null 2>&1; then return 0; fi
	if lint=$(mandoc -Tlint -Wwarning "$1" 2>&1) && [ -z "$lint" ]; then ok "$2: mandoc -Tlint -Wwarning clean"; else
		fail "$2: mandoc -Tlint: $lint"; fi
	style=$(mandoc -Tlint -Wstyle "$1" 2>&1 | grep -v 'referenced manual not found' | grep -v 'outdated mandoc.db')
	[ -z "$style" ] && ok "$2: no style messages" || fail "$2: mandoc -Tlint -Wstyle: $style"
}
MAN="$top/doc/wslgpu.1"
lint_page "$MAN" wslgpu.1
render "$MAN" >"$WORK/man.txt"
in_man() { grep -Fq -- "$1" "$WORK/man.txt"; }
section "$WORK/man.txt" COMMANDS >"$WORK/commands.txt"
for c in $cmds; do
	if grep -Eq "^ +$c( |\$)" "$WORK/commands.txt"; then ok "wslgpu.1: command $c"; else fail "wslgpu.1: $c not in COMMANDS"; fi
done
for s in COMMANDS OPTIONS ENVIRONMENT FILES "EXIT STATUS" "JSON SCHEMAS" EXAMPLES "SEE ALSO"; do
	if grep -q "^$s\$" "$WORK/man.txt"; then ok "wslgpu.1: section $s"; else fail "wslgpu.1: no section $s"; fi
done
for schema in $(grep -rhoE '"wslgpu/[a-z-]+/[0-9]+' "$top/src" | tr -d '"' | sort -u); do
	if in_man "$schema"; then ok "wslgpu.1: schema $schema"; else fail "wslgpu.1: schema $schema missing"; fi
done
for c in $cmds; do
	[ "$c" = help ] && continue
	page="$top/doc/wslgpu-$c.1"
	if [ ! -f "$page" ]; then fail "doc/wslgpu-$c.1 is missing"; continue; fi
	lint_page "$page" "wslgpu-$c.1"
	render "$page" >"$WORK/page.txt"
	if grep -Fq "wslgpu-$c(1)" "$WORK/commands.txt" &&
		section "$WORK/man.txt" "SEE ALSO" | grep -Fq "wslgpu-$c(1)"; then ok "wslgpu.1 refers to wslgpu-$c(1)"; else
		fail "wslgpu.1: no wslgpu-$c(1) in COMMANDS and SEE ALSO"; fi
	if section "$WORK/page.txt" NAME | grep -q "wslgpu-$c - "; then ok "wslgpu-$c.1: NAME"; else fail "wslgpu-$c.1: NAME"; fi
	for s in SYNOPSIS DESCRIPTION OPTIONS FILES "EXIT STATUS" EXAMPLES "SEE ALSO"; do
		if grep -q "^$s\$" "$WORK/page.txt"; then ok "wslgpu-$c.1: section $s"; else fail "wslgpu-$c.1: no section $s"; fi
	done
	if section "$WORK/page.txt" "SEE ALSO" | grep -Fq "wslgpu(1)"; then ok "wslgpu-$c.1: SEE ALSO wslgpu(1)"; else
		fail "wslgpu-$c.1: SEE ALSO lacks wslgpu(1)"; fi
	# each option is the tag of an item of OPTIONS (the text before the description)
	section "$WORK/page.txt" OPTIONS | sed -n 's/^ \{3,8\}\(-.*\)$/\1/p' | sed 's/  .*//' >"$WORK/tags.txt"
	# -h and --help work for every command, even where --help does not say so
	for o in $({ help_opts "$c"; printf '%s\n' -h --help; } | sort -u); do
		if grep -Eq -- "(^|[ ,])$o([][ ,=]|\$)" "$WORK/tags.txt"; then ok "wslgpu-$c.1: option $o"; else
			fail "wslgpu-$c.1: option $o of '$c --help' is not in OPTIONS"; fi
	done
	# and every long option --help mentions anywhere is somewhere in the page
	for o in $("$WSLGPU" "$c" --help 2>/dev/null | grep -oE -- '--[a-z][a-z-]*' | sort -u); do
		if grep -Fq -- "$o" "$WORK/page.txt"; then ok "wslgpu-$c.1 mentions $o"; else fail "wslgpu-$c.1: $o not mentioned"; fi
	done
done
for page in "$top"/doc/*.1; do
	n=$(basename "$page" .1)
	case " wslgpu $(for c in $cmds; do printf 'wslgpu-%s ' "$c"; done)" in
	*" $n "*) ;;
	*) fail "doc/$n.1 is no command's page" ;;
	esac
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
for page in "$top"/doc/*.1; do check_mode "/usr/share/man/man1/$(basename "$page")" 644; done
check_mode /usr/share/bash-completion/completions/wslgpu 644
check_mode /usr/share/zsh/site-functions/_wslgpu 644
n=$(find "$D" -type f | wc -l)
want=$((3 + $(ls "$top"/doc/*.1 | wc -l)))
[ "$n" = "$want" ] && ok "$want files installed" || fail "$n files installed, not $want: $(find "$D" -type f)"
if "$D/usr/bin/wslgpu" --version >/dev/null; then ok "installed binary runs"; else fail "installed binary"; fi
if LANG=C MANWIDTH=80 man -l "$D/usr/share/man/man1/wslgpu.1" 2>/dev/null | col -b | grep -q 'is GPU compute working here'; then
	ok "man -l renders the installed page"; else fail "man -l"; fi
for c in $cmds; do
	[ "$c" = help ] && continue
	if LANG=C MANWIDTH=80 man -l "$D/usr/share/man/man1/wslgpu-$c.1" 2>/dev/null | col -b | grep -Eq "^ *wslgpu-$c -{1,2} "; then
		ok "man -l renders wslgpu-$c.1"; else fail "man -l wslgpu-$c.1"; fi
done

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
