/*
 * winevent: Windows event-log records, from the forms they reach us in:
 *
 *  - event XML (<Event><System><Provider Name=".."/><EventID>4101</EventID>
 *    <TimeCreated SystemTime=".."/>...<EventData><Data>..</Data>), what
 *    Get-WinEvent's ToXml() and `wevtutil qe /f:xml` print: nothing in it is
 *    translated, so the batched query (facts/windows.c) asks for this form;
 *  - Event Viewer's rendering of an event whose message table is missing,
 *    "The description for Event ID 153 from source nvlddmkm cannot be
 *    found" (English Windows only);
 *  - the message of Display event 4101, "Display driver nvlddmkm stopped
 *    responding and has successfully recovered." (English Windows only);
 *  - rows copied out of Event Viewer's list, "Level | Date and Time |
 *    Source | Event ID | Task Category" (the header is translated; the
 *    columns' order is not).
 *
 * What a record means is the caller's business; winevent_is_reset and
 * winevent_is_nvidia name the two kinds check --windows counts: Display's
 * event 4101, which Windows logs when Timeout Detection and Recovery reset
 * a display driver that stopped responding
 * (https://learn.microsoft.com/en-us/windows-hardware/drivers/display/timeout-detection-and-recovery),
 * and any event of nvlddmkm, NVIDIA's kernel-mode driver. Pure, bounded.
 */
#ifndef WSLGPU_WINEVENT_H
#define WSLGPU_WINEVENT_H

#include <stdbool.h>
#include <stddef.h>
#include <time.h>

#define WINEVENT_MAX 256

struct winevent {
	long id;              /* -1 when unknown */
	char provider[64];    /* "Display", "nvlddmkm", ... */
	char time[32];        /* "2023-02-09T15:15:31Z" (XML), "2024-04-21 18:11" (a table) */
	time_t when;          /* seconds since the epoch (UTC) from XML's SystemTime; 0 if unknown */
	char driver[64];      /* 4101's driver ("nvlddmkm"), the first data of the event */
	char title[160];      /* Windows Update events: the update's title (updateTitle) */
	int level;            /* 1 critical ... 4 information, 0 unknown */
};

struct winevents {
	size_t n, more;
	struct winevent v[WINEVENT_MAX];
};

/* Parses any of the forms above (UTF-16 or UTF-8). Returns n. */
size_t winevent_parse(const char *buf, size_t len, struct winevents *ev);
bool winevent_is_reset(const struct winevent *e);
bool winevent_is_nvidia(const struct winevent *e);

#endif
