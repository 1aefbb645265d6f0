/* pyprobe_script.h: the embedded framework probe script (pyprobe.py). */
#ifndef WSLGPU_PYPROBE_SCRIPT_H
#define WSLGPU_PYPROBE_SCRIPT_H

extern const char pyprobe_script[];

#endif
