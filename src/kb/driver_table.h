/*
 * driver_table: which NVIDIA driver each CUDA release needs, as data.
 *
 * Two tables of NVIDIA's CUDA Toolkit Release Notes (13.2 Update 2 edition,
 * transcribed in research/wsl-facts.md §5):
 *  - Table 3, the driver bundled with each toolkit ("toolkit driver"):
 *    with it every feature of that release works. Linux and Windows
 *    columns; the Windows column is N/A from 13.x on.
 *  - Table 2, minor-version compatibility: an application built with any
 *    toolkit of a family runs, with a limited feature set, on a driver of
 *    at least the family's minimum (11.x >= 450.80.02, 12.x >= 525.60.13,
 *    13.x >= 580). NVIDIA gives no Windows minimum for 12.x and 13.x; we
 *    encode none rather than guess.
 *
 * On WSL the driver is the Windows one, so WSL compares the Windows column;
 * better still, the CUDA version the driver reports (nvidia-smi's "CUDA
 * Version", cuDriverGetVersion) is compared with the CUDA an application
 * needs. The table is the fallback when only a driver number is known.
 */
#ifndef WSLGPU_DRIVER_TABLE_H
#define WSLGPU_DRIVER_TABLE_H

#include <stdbool.h>
#include <stddef.h>

struct cuda_driver_row {
	const char *toolkit;     /* "12.4.1" = 12.4 Update 1, "12.4.0" = GA */
	const char *release;     /* "12.4 Update 1", as NVIDIA names it */
	const char *linux_min;   /* ">= " this Linux x86_64 driver; NULL where not
				  * transcribed (then the family minimum holds) */
	const char *windows_min; /* ">= " this Windows driver, NULL where N/A */
};

/* The whole table, newest first. */
const struct cuda_driver_row *cuda_driver_table(size_t *n);
/* The row of a toolkit version: the exact release ("12.4.1"), else the GA
 * row of its minor ("12.4" or an update NVIDIA does not list); NULL if the
 * minor is not in the table. */
const struct cuda_driver_row *cuda_driver_row_for(const char *toolkit);
/* Minor-version compatibility minimum of a CUDA major (11, 12, 13) for
 * Linux, or NULL when NVIDIA documents none (Windows, unknown majors). */
const char *cuda_family_min_driver(int major, bool windows);
/*
 * The newest CUDA release (major.minor, e.g. "12.3") whose toolkit driver
 * is at most driver_version in the chosen column: a lower bound of what the
 * driver supports. Returns 0, or -1 if the driver predates the table.
 */
int cuda_driver_newest_release(const char *driver_version, bool windows, char *out, size_t n);

/*
 * The CUDA release (major.minor) a driver of the same branch as
 * driver_version shipped with: the newest CUDA that driver runs, as its
 * cuDriverGetVersion says (470.x: 11.4, 535.x: 12.2, Windows 551.x: 12.4;
 * every driver of a branch reports its branch's CUDA version). Returns 0,
 * or -1 when no release of the table shipped with that branch (R565
 * reports CUDA 12.7, of which there is no toolkit): then only
 * cuda_driver_newest_release's lower bound is known.
 */
int cuda_driver_branch_release(const char *driver_version, bool windows, char *out, size_t n);

/* The newest release this table knows (its first row): a toolkit or a
 * driver's CUDA version beyond it is "newer than this tool knows", never
 * guessed. */
const struct cuda_driver_row *cuda_newest_known(void);
int cuda_newer_than_known(int major, int minor);
/* The newest released CUDA major.minor of the same major at most
 * major.minor (a driver reporting CUDA 12.7 -> "12.6": there is no 12.7
 * toolkit). Returns 0, or -1 when the table has none. */
int cuda_released_upto(int major, int minor, char *out, size_t n);

/* NVIDIA's CUDA on WSL guide §2.1: "R495 and later windows [drivers] will
 * have CUDA support for WSL 2". */
#define WSL_MIN_WINDOWS_DRIVER "495"

/*
 * Normalises a driver version for comparison: "551.23" and "550.54.14" stay;
 * a Windows file version "31.0.15.5123" becomes "551.23" (the last digit of
 * the third field and the fourth field, research/wsl-facts.md §2.7: a
 * convention, not an official rule). Returns 0, or -1 if s has no number.
 */
int driver_version_normalize(const char *s, char *out, size_t n);

#endif
