/* version.h: the tool's version; the build adds the git commit. */
#ifndef WSLGPU_VERSION_H
#define WSLGPU_VERSION_H

#define WSLGPU_VERSION "0.1.0"
#ifndef WSLGPU_COMMIT
#define WSLGPU_COMMIT "unknown"
#endif

#endif
