# kb2c.awk: embeds the knowledge base text (src/kb/*.kb) in a C file.
# Each input file is preceded by an "@file NAME" line so that parse errors
# name the real file and line. Usage: awk -f tools/kb2c.awk src/kb/*.kb
FNR == 1 { emit("@file " FILENAME) }
{ emit($0) }
END {
	print "const char kb_text[] ="
	for (i = 0; i < n; i++)
		print "\t\"" lines[i] "\\n\""
	print "\t\"\";"
	print "const unsigned long kb_text_len_ul = sizeof kb_text - 1;"
}
function emit(s) {
	# "&&" doubles each backslash in every awk; "\\\\" yields just one.
	gsub(/\\/, "&&", s)
	gsub(/"/, "\\\"", s)
	gsub(/\t/, "\\t", s)
	lines[n++] = s
}
