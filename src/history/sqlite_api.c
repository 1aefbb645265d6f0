/* sqlite_api.c: SQLite opened at use (see sqlite_api.h). */
#define WSLGPU_SQLITE_API_IMPL
#include "sqlite_api.h"

#include "../core/dynlib.h"

struct sqlite_api sqlite_api;

/* Each entry has its function's type, as sqlite3.h declares it (checked
 * without referring to the function, so that nothing links SQLite). */
#define SQLITE_API_CHECK(ret, name, params)                                            \
	_Static_assert(__builtin_types_compatible_p(__typeof__(&sqlite3_##name),       \
						    ret(*) params),                  \
		       "sqlite_api." #name " is not sqlite3_" #name "'s type");
SQLITE_API_FUNCS(SQLITE_API_CHECK)
#undef SQLITE_API_CHECK

int sqlite_api_load(struct strbuf *err)
{
#ifdef WSLGPU_STATIC
	(void)err;
#define SQLITE_API_SET(ret, name, params) sqlite_api.name = sqlite3_##name;
	SQLITE_API_FUNCS(SQLITE_API_SET)
#undef SQLITE_API_SET
	return 0;
#else
#define SQLITE_API_SYM(ret, name, params) { "sqlite3_" #name, (void **)&sqlite_api.name },
	static const struct dynlib_sym syms[] = { SQLITE_API_FUNCS(SQLITE_API_SYM){ NULL, NULL } };
#undef SQLITE_API_SYM
	return dynlib_open("libsqlite3.so.0", "libsqlite3-0", syms, err);
#endif
}
