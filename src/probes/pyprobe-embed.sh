#!/bin/sh
# pyprobe-embed.sh: regenerates pyprobe_script.c from pyprobe.py (run from
# the repository root after editing the script). tests/unit/test_fw.c checks
# that the two agree, so a forgotten run fails `make check`.
set -eu
dir=$(dirname "$0")
{
	echo '/* pyprobe_script.c: GENERATED from pyprobe.py by pyprobe-embed.sh; do not edit.'
	echo ' * The framework probe script, passed to python3 with -c (never written to'
	echo ' * a file). See pyprobe.py for what it does, src/parse/pyprobe.h for its output. */'
	echo '#include "pyprobe_script.h"'
	echo
	echo 'const char pyprobe_script[] ='
	sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/\t"/' -e 's/$/\\n"/' "$dir/pyprobe.py"
	echo '\t;'
} | sed 's/^\\t/\t/' > "$dir/pyprobe_script.c.tmp"
mv "$dir/pyprobe_script.c.tmp" "$dir/pyprobe_script.c"
