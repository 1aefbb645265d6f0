#!/bin/sh
# layers.sh: the include graph of src/ keeps to the layers drawn in
# doc/architecture.md (tools/check-layers.sh), and the check catches a
# lower layer that includes a higher one.
. "$(dirname "$0")/lib.sh"
FIXTURE=layers
OUT=$(sh "$top/tools/check-layers.sh" "$top" 2>&1); RC=$?
ERR=""
expect_rc 0
[ -z "$OUT" ] && ok "no include crosses a layer upwards" || fail "$OUT"

# A copy with a lower layer including a higher one.
mkdir -p "$WORK/t/doc"
cp -r "$top/src" "$WORK/t/src"
cp "$top/doc/architecture.md" "$WORK/t/doc/"
printf '#include "../report/report.h"\n' >>"$WORK/t/src/core/strbuf.c"
printf '#include "../report/finding.h"\n' >>"$WORK/t/src/fix/plan.c"
OUT=$(sh "$top/tools/check-layers.sh" "$WORK/t" 2>&1); RC=$?
expect_rc 1
expect_line '^src/core/strbuf\.c:[0-9]+: includes src/report/ \(layer 6, not below core.s 1\)$'
expect_line '^src/fix/plan\.c:[0-9]+: includes src/report/ \(layer 6, not below fix.s 5\)$'
# the same row is not below either
printf '#include "../fix/plan.h"\n' >>"$WORK/t/src/probes/bridge.c"
OUT=$(sh "$top/tools/check-layers.sh" "$WORK/t" 2>&1); RC=$?
expect_line '^src/probes/bridge\.c:[0-9]+: includes src/fix/ \(layer 5, not below probes.s 5\)$'
# a directory the drawing does not place
mkdir -p "$WORK/t/src/newdir"
OUT=$(sh "$top/tools/check-layers.sh" "$WORK/t" 2>&1); RC=$?
expect_rc 2
expect_line '^src/newdir: in no row of the layers'

done_testing
