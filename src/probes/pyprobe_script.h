/* pyprobe_script.h: the framework probe script (pyprobe.py), embedded by
 * the build (Makefile: $(BUILD)/gen/pyprobe_script.c). */
#ifndef WSLGPU_PYPROBE_SCRIPT_H
#define WSLGPU_PYPROBE_SCRIPT_H

extern const char pyprobe_script[];
/* strlen(pyprobe_script). */
extern const unsigned long pyprobe_script_len;

#endif
