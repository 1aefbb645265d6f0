# ptx2c.awk: embeds a PTX file (src/gpu/kernels.ptx) in a C file as the
# NUL-terminated string wslgpu_kernels_ptx, which cuModuleLoadData takes as
# is. Usage: awk -f tools/ptx2c.awk src/gpu/kernels.ptx > kernels_ptx.c
BEGIN { print "/* Generated from src/gpu/kernels.ptx by tools/ptx2c.awk. Do not edit. */" }
{
	s = $0
	gsub(/\\/, "\\\\", s)
	gsub(/"/, "\\\"", s)
	gsub(/\t/, "\\t", s)
	gsub(/\r/, "", s)
	lines[n++] = s
}
END {
	print "const char wslgpu_kernels_ptx[] ="
	for (i = 0; i < n; i++)
		print "\t\"" lines[i] "\\n\""
	print "\t\"\";"
	print "const unsigned long wslgpu_kernels_ptx_len = sizeof wslgpu_kernels_ptx - 1;"
}
