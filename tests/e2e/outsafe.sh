#!/bin/sh
# outsafe.sh: what an output file (smoke --junit/--prom, watch --json=FILE,
# report -o, report --markdown -o) may become, and where it may land:
#   (a) never through a symbolic link in a world-writable sticky directory
#       (/tmp) that another user owns, as the kernel's fs.protected_symlinks
#       rule, applied by wslgpu whether that sysctl is on or not: a link
#       planted there must not make root replace or create a file in a
#       root-only directory; a link of the caller's own, or of the
#       directory's owner, and links elsewhere are followed as before;
#   (b) a new output gets the mode the caller's umask allows; a replaced one
#       keeps its mode, and (written by root) its owner and group.
# Links "of another user" need root (chown -h); without it (a) is skipped.
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"

check() { if eval "$2"; then ok "$1"; else fail "$1"; fi; }
mode_of() { stat -c %a "$1"; }
owner_of() { stat -c %U:%G "$1"; }

fixture healthy-wsl2
S="$WORK/sticky"   # stands for /tmp
P="$WORK/private"  # stands for a root-only directory
mkdir -p "$S" "$P"
chmod 1777 "$S"
chmod 700 "$P"

# Every way an output is written, one per line: OPTION-NAME ARGS... (the
# path is appended); watch takes no --root, so it runs on its own.
writers() {
	echo "smoke --junit"
	echo "smoke --prom"
	echo "watch --json"
	echo "report -o"
	echo "report --markdown -o"
}
# refused: the exit status of a refused output (watch's exit status for
# a write error is the command line's business: tests/e2e/cli.sh)
refused() { [ "$RC" -lt 128 ] && { [ "$RC" != 0 ] || [ "$w" = "watch --json" ]; }; }
# write WRITER PATH: runs it, sets RC, OUT, ERR
write() {
	case "$1" in
	"watch --json")
		"$WSLGPU" watch --json="$2" -- true >"$WORK/w.out" 2>"$WORK/w.err"
		RC=$?; OUT=$(cat "$WORK/w.out"); ERR=$(cat "$WORK/w.err") ;;
	*)
		# shellcheck disable=SC2086
		run $1 "$2" ;;
	esac
}

# ---- (a) links in a sticky world-writable directory ----
if [ "$(id -u)" = 0 ] && id nobody >/dev/null 2>&1 && id daemon >/dev/null 2>&1; then
	writers >"$WORK/writers"
	while IFS= read -r w; do
		tag=$(echo "$w" | tr ' -' '__')
		# a link to a file of the private directory, planted by another user
		echo "root's own file" >"$P/victim-$tag"
		ln -s "$P/victim-$tag" "$S/planted-$tag"
		chown -h nobody "$S/planted-$tag"
		write "$w" "$S/planted-$tag"
		check "$w through another user's link in a sticky dir: refused (exit $RC)" 'refused'
		check "$w: the refusal says why" 'printf "%s\n" "$ERR" | grep -q "refusing to follow the symbolic link $S/planted-$tag: it is in a world-writable sticky directory and belongs to another user"'
		check "$w: the target is untouched" '[ "$(cat "$P/victim-$tag")" = "root'"'"'s own file" ]'
		check "$w: the link is still a link" '[ -L "$S/planted-$tag" ]'
		# a dangling link: nothing may be created where it points
		ln -s "$P/new-$tag" "$S/dangling-$tag"
		chown -h nobody "$S/dangling-$tag"
		write "$w" "$S/dangling-$tag"
		check "$w through another user's dangling link: refused (exit $RC)" 'refused'
		check "$w: nothing created in the private directory" '[ ! -e "$P/new-$tag" ]'
		# a planted link to a directory, as a component of the path
		ln -s "$P" "$S/dir-$tag"
		chown -h nobody "$S/dir-$tag"
		write "$w" "$S/dir-$tag/out-$tag"
		check "$w through another user's link as a directory: refused (exit $RC)" 'refused && [ ! -e "$P/out-$tag" ]'
		check "$w: no temporary file anywhere" '[ -z "$(ls -A "$S" "$P" | grep "\.tmp\.")" ]'
		echo "$w" >>"$WORK/writers.done"
	done <"$WORK/writers"
	check "(a) ran for every writer" '[ "$(wc -l <"$WORK/writers.done")" = 5 ]'

	# Whose links are followed: the caller's, and the directory owner's.
	chown nobody "$S"
	echo old >"$P/t1"
	ln -s "$P/t1" "$S/mine.prom"                  # root's, the caller's
	run smoke --prom "$S/mine.prom"
	check "the caller's own link in a sticky dir is followed" '[ "$RC" = 0 ] && grep -q "^wslgpu_smoke_success" "$P/t1"'
	echo old >"$P/t2"
	ln -s "$P/t2" "$S/owner.prom" && chown -h nobody "$S/owner.prom"  # the directory's owner's
	run smoke --prom "$S/owner.prom"
	check "the sticky dir owner's link is followed" '[ "$RC" = 0 ] && grep -q "^wslgpu_smoke_success" "$P/t2"'
	echo old >"$P/t3"
	ln -s "$P/t3" "$S/third.prom" && chown -h daemon "$S/third.prom"  # neither
	run smoke --prom "$S/third.prom"
	check "a third user's link is refused" '[ "$RC" != 0 ] && [ "$(cat "$P/t3")" = old ]'
	# the rule is for sticky world-writable directories only
	N="$WORK/open"; mkdir "$N"; chmod 0777 "$N"
	echo old >"$P/t4"
	ln -s "$P/t4" "$N/l.prom" && chown -h nobody "$N/l.prom"
	run smoke --prom "$N/l.prom"
	check "another user's link in a world-writable dir without the sticky bit is followed" '[ "$RC" = 0 ] && grep -q "^wslgpu_smoke_success" "$P/t4"'
	K="$WORK/stickyonly"; mkdir "$K"; chmod 1755 "$K"
	echo old >"$P/t5"
	ln -s "$P/t5" "$K/l.prom" && chown -h nobody "$K/l.prom"
	run smoke --prom "$K/l.prom"
	check "another user's link in a sticky dir that is not world-writable is followed" '[ "$RC" = 0 ] && grep -q "^wslgpu_smoke_success" "$P/t5"'
	# a chain: the first hop is allowed, the second (in the sticky dir) is not
	ln -s "$S/third.prom" "$WORK/chain.prom"
	run smoke --prom "$WORK/chain.prom"
	check "a chain through a refused link is refused" '[ "$RC" != 0 ] && [ "$(cat "$P/t3")" = old ]'
	chown root "$S"
else
	ok "links of another user: not testable without root (chown -h) and the users nobody and daemon"
fi

# ---- (b) modes and owners ----
M="$WORK/modes"
mkdir "$M"
old_umask=$(umask)
for u in 022 027 077; do
	umask "$u"
	run smoke --prom "$M/new-$u.prom" --junit "$M/new-$u.xml"
	want=$(printf '%o' $((0644 & ~0$u)))
	check "umask $u: a new --prom is $want" '[ "$(mode_of "$M/new-$u.prom")" = "$want" ]'
	check "umask $u: a new --junit is $want" '[ "$(mode_of "$M/new-$u.xml")" = "$want" ]'
	"$WSLGPU" watch --json="$M/new-$u.json" -- true >/dev/null 2>&1
	check "umask $u: a new watch --json is $want" '[ "$(mode_of "$M/new-$u.json")" = "$want" ]'
	run report -o "$M/new-$u.tar.gz"
	check "umask $u: a new bundle is 600 (it is never more open)" '[ "$(mode_of "$M/new-$u.tar.gz")" = 600 ]'
done
umask "$old_umask"
umask 022
for m in 600 640 604 664; do
	echo old >"$M/old-$m.prom"; chmod "$m" "$M/old-$m.prom"
	echo old >"$M/old-$m.xml"; chmod "$m" "$M/old-$m.xml"
	run smoke --prom "$M/old-$m.prom" --junit "$M/old-$m.xml"
	check "a replaced --prom keeps mode $m" '[ "$(mode_of "$M/old-$m.prom")" = "$m" ] && grep -q "^wslgpu_smoke_success" "$M/old-$m.prom"'
	check "a replaced --junit keeps mode $m" '[ "$(mode_of "$M/old-$m.xml")" = "$m" ] && grep -q "<testsuites" "$M/old-$m.xml"'
done
echo old >"$M/old.tar.gz"; chmod 640 "$M/old.tar.gz"
run report -o "$M/old.tar.gz"
check "a replaced bundle keeps mode 640" '[ "$(mode_of "$M/old.tar.gz")" = 640 ] && gzip -t "$M/old.tar.gz"'
# through a link: the link's target keeps its mode
echo old >"$M/target.prom"; chmod 640 "$M/target.prom"
ln -s target.prom "$M/link.prom"
run smoke --prom "$M/link.prom"
check "a link's replaced target keeps mode 640" '[ -L "$M/link.prom" ] && [ "$(mode_of "$M/target.prom")" = 640 ]'
if [ "$(id -u)" = 0 ] && id nobody >/dev/null 2>&1; then
	g=$(id -gn nobody)
	echo old >"$M/users.prom"; chown "nobody:$g" "$M/users.prom"; chmod 644 "$M/users.prom"
	run smoke --prom "$M/users.prom"
	check "root replacing a user's --prom keeps owner nobody:$g" '[ "$(owner_of "$M/users.prom")" = "nobody:$g" ] && grep -q "^wslgpu_smoke_success" "$M/users.prom"'
	echo old >"$M/users.json"; chown "nobody:$g" "$M/users.json"
	"$WSLGPU" watch --json="$M/users.json" -- true >/dev/null 2>&1
	check "root replacing a user's watch --json keeps owner nobody:$g" '[ "$(owner_of "$M/users.json")" = "nobody:$g" ]'
else
	ok "owners of replaced files: not testable without root"
fi
check "(b) no temporary file left" '[ -z "$(ls -A "$M" | grep "\.tmp\.")" ]'
umask "$old_umask"

done_testing
