/* version.h: the tool's version (the git commit: buildinfo_commit()). */
#ifndef WSLGPU_VERSION_H
#define WSLGPU_VERSION_H

#define WSLGPU_VERSION "0.1.0"

#endif
