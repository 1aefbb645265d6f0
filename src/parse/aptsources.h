/*
 * aptsources: the package repositories apt is configured with, and which
 * of them are NVIDIA's CUDA repositories.
 *
 * Two formats (sources.list(5)):
 *  - one-line, in /etc/apt/sources.list and sources.list.d/NAME.list:
 *      deb [signed-by=/usr/share/keyrings/cuda-archive-keyring.gpg] \
 *          https://developer.download.nvidia.com/compute/cuda/repos/wsl-ubuntu/x86_64/ /
 *    ('#' starts a comment; options in [...] are optional);
 *  - deb822, in sources.list.d/NAME.sources: stanzas with Types:, URIs: (one
 *    or more), Suites:, Enabled: no to switch a stanza off.
 *
 * NVIDIA's CUDA on WSL guide installs the toolkit from the WSL-Ubuntu
 * repository (.../compute/cuda/repos/wsl-ubuntu/x86_64/, or its local
 * installer, a file: repository under /var/cuda-repo-wsl-ubuntu-*). The
 * distribution repositories (.../repos/ubuntu2204/x86_64/ and the like) are
 * for native Linux: their cuda and cuda-drivers packages bring the Linux
 * driver, which must not be installed in WSL.
 *
 * Pure: a callback receives each repository entry of one file's text.
 */
#ifndef WSLGPU_APTSOURCES_H
#define WSLGPU_APTSOURCES_H

#include <stdbool.h>
#include <stddef.h>

enum aptrepo_kind {
	APTREPO_OTHER,
	APTREPO_CUDA_WSL,      /* NVIDIA's wsl-ubuntu CUDA repository (network or local) */
	APTREPO_CUDA_LINUX,    /* an NVIDIA CUDA repository for a native distribution */
	APTREPO_CONTAINER,     /* the NVIDIA container toolkit repository */
};

struct aptrepo {
	const char *uri;       /* NUL-terminated copy, valid during the callback */
	const char *flavour;   /* "wsl-ubuntu", "ubuntu2204", ... ("" if none) */
	enum aptrepo_kind kind;
	bool enabled;          /* false for deb822 "Enabled: no" */
	bool deb_src;          /* a deb-src entry only */
	int line;              /* 1-based line of the entry (deb822: of URIs:) */
};

/* deb822 when is_deb822, else one-line format. Calls fn for every URI;
 * stops when fn returns non-zero and returns that value. */
int aptsources_each(const char *buf, size_t len, bool is_deb822,
		    int (*fn)(const struct aptrepo *repo, void *arg), void *arg);
/* Classifies one URI; flavour (size n) receives the distribution part. */
enum aptrepo_kind aptrepo_classify(const char *uri, char *flavour, size_t n);
/* "cuda-wsl", "cuda-linux", "container-toolkit", "other". */
const char *aptrepo_kind_name(enum aptrepo_kind k);

#endif
