/* page: the history as HTML (see page.c). */
#ifndef WSLGPU_HISTORY_PAGE_H
#define WSLGPU_HISTORY_PAGE_H

#include "../core/strbuf.h"
#include "history.h"

/* The most runs a timeline shows (the newest). */
#define HISTORY_TIMELINE_RUNS 500

/* The runs oldest first as an SVG timeline, one dot per run coloured by
 * its verdict, a marked line where the driver, kernel or WSL changed. */
void history_timeline_html(struct strbuf *out, const struct history_runs *runs);
/* report --html's history section: the default database's runs as a
 * timeline (or why there are none); state_dir gets the directory it is
 * in, where watch and bench keep their last results. */
void history_timeline_section(struct strbuf *out, struct strbuf *state_dir);

#endif
