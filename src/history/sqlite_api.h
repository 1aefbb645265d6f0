/*
 * sqlite_api: SQLite opened at use, not linked.
 *
 * Only `history` and `smoke --record` use SQLite, but linked in, its
 * ~1,600 symbol relocations were 81 % of every command's start (`wslgpu
 * --version`: 1.7 M instructions, of which SQLite's binding 1.3 M). It is
 * opened with dlopen the first time a database is (src/core/dynlib.h, as
 * libcurl and libarchive are), and resolved into the table below. The
 * declarations are sqlite3.h's own: sqlite_api.c checks at compile time
 * that each entry has the type of the function it stands for. A static
 * build links SQLite and fills the table from the linked functions.
 *
 * A file that includes this header after <sqlite3.h> calls sqlite3_step()
 * and the rest as usual: the macros below turn each call into a call
 * through the table. sqlite_api_load() must have succeeded first.
 */
#ifndef WSLGPU_SQLITE_API_H
#define WSLGPU_SQLITE_API_H

#include <sqlite3.h>

#include "../core/strbuf.h"

/* Every SQLite function wslgpu calls: X(return type, name without the
 * sqlite3_ prefix, parameters). */
#define SQLITE_API_FUNCS(X)                                                                  \
	X(const char *, libversion, (void))                                                  \
	X(int, open_v2, (const char *, sqlite3 **, int, const char *))                       \
	X(int, close, (sqlite3 *))                                                           \
	X(int, busy_timeout, (sqlite3 *, int))                                               \
	X(void, progress_handler, (sqlite3 *, int, int (*)(void *), void *))                 \
	X(int, exec, (sqlite3 *, const char *, int (*)(void *, int, char **, char **), void *, \
		      char **))                                                              \
	X(int, prepare_v2, (sqlite3 *, const char *, int, sqlite3_stmt **, const char **))   \
	X(int, step, (sqlite3_stmt *))                                                       \
	X(int, reset, (sqlite3_stmt *))                                                      \
	X(int, finalize, (sqlite3_stmt *))                                                   \
	X(int, bind_parameter_count, (sqlite3_stmt *))                                       \
	X(int, bind_int, (sqlite3_stmt *, int, int))                                         \
	X(int, bind_int64, (sqlite3_stmt *, int, sqlite3_int64))                             \
	X(int, bind_double, (sqlite3_stmt *, int, double))                                   \
	X(int, bind_null, (sqlite3_stmt *, int))                                             \
	X(int, bind_text, (sqlite3_stmt *, int, const char *, int, void (*)(void *)))        \
	X(const unsigned char *, column_text, (sqlite3_stmt *, int))                         \
	X(int, column_int, (sqlite3_stmt *, int))                                            \
	X(sqlite3_int64, column_int64, (sqlite3_stmt *, int))                                \
	X(double, column_double, (sqlite3_stmt *, int))                                      \
	X(sqlite3_int64, last_insert_rowid, (sqlite3 *))                                     \
	X(const char *, errmsg, (sqlite3 *))                                                 \
	X(int, extended_errcode, (sqlite3 *))

#define SQLITE_API_FIELD(ret, name, params) ret(*name) params;
struct sqlite_api {
	SQLITE_API_FUNCS(SQLITE_API_FIELD)
};
#undef SQLITE_API_FIELD
extern struct sqlite_api sqlite_api;

/* Opens SQLite (once per process). Returns 0, or -1 with a one-line
 * message in err naming the library and the package that provides it. */
int sqlite_api_load(struct strbuf *err);

#ifndef WSLGPU_SQLITE_API_IMPL
#define sqlite3_libversion sqlite_api.libversion
#define sqlite3_open_v2 sqlite_api.open_v2
#define sqlite3_close sqlite_api.close
#define sqlite3_busy_timeout sqlite_api.busy_timeout
#define sqlite3_progress_handler sqlite_api.progress_handler
#define sqlite3_exec sqlite_api.exec
#define sqlite3_prepare_v2 sqlite_api.prepare_v2
#define sqlite3_step sqlite_api.step
#define sqlite3_reset sqlite_api.reset
#define sqlite3_finalize sqlite_api.finalize
#define sqlite3_bind_parameter_count sqlite_api.bind_parameter_count
#define sqlite3_bind_int sqlite_api.bind_int
#define sqlite3_bind_int64 sqlite_api.bind_int64
#define sqlite3_bind_double sqlite_api.bind_double
#define sqlite3_bind_null sqlite_api.bind_null
#define sqlite3_bind_text sqlite_api.bind_text
#define sqlite3_column_text sqlite_api.column_text
#define sqlite3_column_int sqlite_api.column_int
#define sqlite3_column_int64 sqlite_api.column_int64
#define sqlite3_column_double sqlite_api.column_double
#define sqlite3_last_insert_rowid sqlite_api.last_insert_rowid
#define sqlite3_errmsg sqlite_api.errmsg
#define sqlite3_extended_errcode sqlite_api.extended_errcode
#endif

#endif
