#ifndef STRATA_SQLITE_SHIM_H
#define STRATA_SQLITE_SHIM_H
#include <sqlite3.h>
#include <dlfcn.h>

// SQLITE_TRANSIENT is a macro that Swift cannot import: expose it as a function.
static inline sqlite3_destructor_type _strata_sqlite_transient(void) {
    return SQLITE_TRANSIENT;
}

// The type of the pointer that `SELECT fts5(?)` fills. SQLite keeps this
// string while the statement lives and compares it when the statement runs:
// it must live for the process, as a string literal does.
static inline const char *_strata_fts5_api_pointer_type(void) {
    return "fts5_api_ptr";
}

// Variadic SQLite functions can't be called from Swift: these wrappers can.

static inline int _strata_config_log(void (*callback)(void *, int, const char *), void *arg) {
    return sqlite3_config(SQLITE_CONFIG_LOG, callback, arg);
}

static inline int _strata_db_config_int(sqlite3 *db, int op, int value) {
    return sqlite3_db_config(db, op, value, (int *)0);
}
// Pre-update hooks: sqlite3.h only declares them when SQLITE_ENABLE_PREUPDATE_HOOK
// is defined, and only some builds of SQLite have them. Look them up at run
// time, so that Strata links with any SQLite and uses them where they exist.

typedef void (*_strata_preupdate_callback)(void *, sqlite3 *, int, const char *, const char *, sqlite3_int64,
                                           sqlite3_int64);

static inline void *_strata_sqlite_symbol(const char *name) {
    static void *handle = 0;
    if (!handle) handle = dlopen(0, RTLD_LAZY);
    return handle ? dlsym(handle, name) : 0;
}

static inline int _strata_preupdate_hook_available(void) {
    return _strata_sqlite_symbol("sqlite3_preupdate_hook") != 0;
}

static inline void _strata_preupdate_hook(sqlite3 *db, _strata_preupdate_callback callback, void *arg) {
    typedef void *(*hook_fn)(sqlite3 *, _strata_preupdate_callback, void *);
    static hook_fn fn = 0;
    if (!fn) fn = (hook_fn)_strata_sqlite_symbol("sqlite3_preupdate_hook");
    if (fn) fn(db, callback, arg);
}

static inline int _strata_preupdate_old(sqlite3 *db, int index, sqlite3_value **value) {
    typedef int (*value_fn)(sqlite3 *, int, sqlite3_value **);
    static value_fn fn = 0;
    if (!fn) fn = (value_fn)_strata_sqlite_symbol("sqlite3_preupdate_old");
    return fn ? fn(db, index, value) : SQLITE_MISUSE;
}

static inline int _strata_preupdate_new(sqlite3 *db, int index, sqlite3_value **value) {
    typedef int (*value_fn)(sqlite3 *, int, sqlite3_value **);
    static value_fn fn = 0;
    if (!fn) fn = (value_fn)_strata_sqlite_symbol("sqlite3_preupdate_new");
    return fn ? fn(db, index, value) : SQLITE_MISUSE;
}

static inline int _strata_preupdate_count(sqlite3 *db) {
    typedef int (*int_fn)(sqlite3 *);
    static int_fn fn = 0;
    if (!fn) fn = (int_fn)_strata_sqlite_symbol("sqlite3_preupdate_count");
    return fn ? fn(db) : 0;
}

static inline int _strata_preupdate_depth(sqlite3 *db) {
    typedef int (*int_fn)(sqlite3 *);
    static int_fn fn = 0;
    if (!fn) fn = (int_fn)_strata_sqlite_symbol("sqlite3_preupdate_depth");
    return fn ? fn(db) : 0;
}
#endif
