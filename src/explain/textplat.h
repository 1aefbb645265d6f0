/*
 * textplat: the platform a pasted log comes from, read from the log itself.
 *
 * People paste a colleague's log, a server's, a container's: what the text
 * shows about where it ran says more than the machine explain runs on. The
 * markers (case-insensitive, anywhere in the kept part of the paste):
 *   WSL        /usr/lib/wsl, ld.wsl.conf, dxg (the paravirtual GPU),
 *              microsoft-standard-WSL2, wsl.exe, Wsl/Service, HCS_E_...
 *   Windows    C:\ to F:\ paths, .exe, .dll and .bat names, a PowerShell
 *              prompt, HRESULTs (0x8007...), AppData, NTSTATUS exit codes
 *              (exit status 0xc0000...), cmd's "Press any key to continue",
 *              a venv's Scripts folder, ComfyUI's python_embeded, PyTorch's
 *              ..\aten\src\ paths, Win10/Windows 11: Windows, or WSL with
 *              a WSL marker too
 *   native     NVRM:, nvidia.ko, DKMS, Secure Boot, Xid, RmInitAdapter,
 *              modprobe, nouveau, /lib/modules/ (not /dev/nvidia0: a WSL
 *              user looking for it pastes that path too)
 *   container  /.dockerenv, docker run, the NVIDIA container toolkit's
 *              programs, containerd, runc, Kubernetes (kubectl, kubelet, pod/),
 *              Docker Compose's prefix of a line ("ollama-1  | ", v1's
 *              "ml_api_1  | ": a name ending in -N or _N, spaces, "|"; not a
 *              table's row, which starts with "|" or has a further cell)
 *   neither    dxgkrnl built out of tree (a Hyper-V GPU-PV guest that
 *              borrows WSL's stack): unknown, whatever else it shows
 * A container marker wins over the host (container-in-wsl2 with a WSL
 * marker too), WSL over native, native over a Windows path; none: unknown.
 * Only the first TEXT_PLATFORM_READ bytes are read.
 */
#ifndef WSLGPU_EXPLAIN_TEXTPLAT_H
#define WSLGPU_EXPLAIN_TEXTPLAT_H

#include <stddef.h>

#define TEXT_PLATFORM_READ (1u << 20) /* bytes of the paste read for markers */

struct text_platform {
	const char *kind;  /* wsl2, container-in-wsl2, container, native, windows, or NULL */
	char marker[48];   /* the text that decided it, as pasted (lower case) */
};

void text_platform_read(const char *buf, size_t len, struct text_platform *tp);
/* Whether kind is one --platform accepts (the kinds above, and wsl1). */
int text_platform_valid(const char *kind);

#endif
