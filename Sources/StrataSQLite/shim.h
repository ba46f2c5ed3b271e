#ifndef STRATA_SQLITE_SHIM_H
#define STRATA_SQLITE_SHIM_H
#include <sqlite3.h>
#include <dlfcn.h>
#include <stdatomic.h>

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
// The session extension (sqlite3session_*, sqlite3changeset_*, sqlite3changegroup_*,
// sqlite3rebaser_*): sqlite3.h only declares it when SQLITE_ENABLE_SESSION and
// SQLITE_ENABLE_PREUPDATE_HOOK are defined, and only some builds of SQLite have
// it. Like the pre-update hooks, it is looked up at run time. Its objects are
// passed as untyped pointers. Each wrapper returns SQLITE_MISUSE (or does
// nothing) when the symbol is missing: callers check `_strata_session_available`
// (and `_strata_rebaser_available`) first.

#define _STRATA_SESSION_FN(type, name)                                  \
    static __typeof__(type) fn = 0;                                     \
    if (!fn) fn = (type)_strata_sqlite_symbol(name);

typedef int (*_strata_session_filter)(void *, const char *);
typedef int (*_strata_session_conflict)(void *, int, void *);

static inline int _strata_session_available(void) {
    return _strata_sqlite_symbol("sqlite3session_create") != 0 && _strata_sqlite_symbol("sqlite3changeset_start") != 0
           && _strata_sqlite_symbol("sqlite3changeset_apply") != 0 && _strata_sqlite_symbol("sqlite3changegroup_new") != 0;
}

static inline int _strata_rebaser_available(void) {
    return _strata_sqlite_symbol("sqlite3rebaser_create") != 0 && _strata_sqlite_symbol("sqlite3changeset_apply_v2") != 0;
}

static inline int _strata_session_create(sqlite3 *db, const char *schema, void **session) {
    _STRATA_SESSION_FN(int (*)(sqlite3 *, const char *, void **), "sqlite3session_create")
    return fn ? fn(db, schema, session) : SQLITE_MISUSE;
}

static inline void _strata_session_delete(void *session) {
    _STRATA_SESSION_FN(void (*)(void *), "sqlite3session_delete")
    if (fn) fn(session);
}

static inline int _strata_session_attach(void *session, const char *table) {
    _STRATA_SESSION_FN(int (*)(void *, const char *), "sqlite3session_attach")
    return fn ? fn(session, table) : SQLITE_MISUSE;
}

static inline void _strata_session_table_filter(void *session, _strata_session_filter filter, void *context) {
    _STRATA_SESSION_FN(void (*)(void *, _strata_session_filter, void *), "sqlite3session_table_filter")
    if (fn) fn(session, filter, context);
}

static inline int _strata_session_enable(void *session, int enable) {
    _STRATA_SESSION_FN(int (*)(void *, int), "sqlite3session_enable")
    return fn ? fn(session, enable) : 0;
}

static inline int _strata_session_isempty(void *session) {
    _STRATA_SESSION_FN(int (*)(void *), "sqlite3session_isempty")
    return fn ? fn(session) : 1;
}

static inline int _strata_session_changeset(void *session, int *size, void **buffer) {
    _STRATA_SESSION_FN(int (*)(void *, int *, void **), "sqlite3session_changeset")
    return fn ? fn(session, size, buffer) : SQLITE_MISUSE;
}

static inline int _strata_session_patchset(void *session, int *size, void **buffer) {
    _STRATA_SESSION_FN(int (*)(void *, int *, void **), "sqlite3session_patchset")
    return fn ? fn(session, size, buffer) : SQLITE_MISUSE;
}

static inline int _strata_changeset_start(void **iterator, int size, void *buffer) {
    _STRATA_SESSION_FN(int (*)(void **, int, void *), "sqlite3changeset_start")
    return fn ? fn(iterator, size, buffer) : SQLITE_MISUSE;
}

static inline int _strata_changeset_next(void *iterator) {
    _STRATA_SESSION_FN(int (*)(void *), "sqlite3changeset_next")
    return fn ? fn(iterator) : SQLITE_MISUSE;
}

static inline int _strata_changeset_op(void *iterator, const char **table, int *columnCount, int *op, int *indirect) {
    _STRATA_SESSION_FN(int (*)(void *, const char **, int *, int *, int *), "sqlite3changeset_op")
    return fn ? fn(iterator, table, columnCount, op, indirect) : SQLITE_MISUSE;
}

static inline int _strata_changeset_pk(void *iterator, unsigned char **primaryKey, int *columnCount) {
    _STRATA_SESSION_FN(int (*)(void *, unsigned char **, int *), "sqlite3changeset_pk")
    return fn ? fn(iterator, primaryKey, columnCount) : SQLITE_MISUSE;
}

static inline int _strata_changeset_old(void *iterator, int column, sqlite3_value **value) {
    _STRATA_SESSION_FN(int (*)(void *, int, sqlite3_value **), "sqlite3changeset_old")
    return fn ? fn(iterator, column, value) : SQLITE_MISUSE;
}

static inline int _strata_changeset_new(void *iterator, int column, sqlite3_value **value) {
    _STRATA_SESSION_FN(int (*)(void *, int, sqlite3_value **), "sqlite3changeset_new")
    return fn ? fn(iterator, column, value) : SQLITE_MISUSE;
}

static inline int _strata_changeset_conflict(void *iterator, int column, sqlite3_value **value) {
    _STRATA_SESSION_FN(int (*)(void *, int, sqlite3_value **), "sqlite3changeset_conflict")
    return fn ? fn(iterator, column, value) : SQLITE_MISUSE;
}

static inline int _strata_changeset_fk_conflicts(void *iterator, int *count) {
    _STRATA_SESSION_FN(int (*)(void *, int *), "sqlite3changeset_fk_conflicts")
    return fn ? fn(iterator, count) : SQLITE_MISUSE;
}

static inline int _strata_changeset_finalize(void *iterator) {
    _STRATA_SESSION_FN(int (*)(void *), "sqlite3changeset_finalize")
    return fn ? fn(iterator) : SQLITE_MISUSE;
}

static inline int _strata_changeset_invert(int size, const void *buffer, int *outSize, void **outBuffer) {
    _STRATA_SESSION_FN(int (*)(int, const void *, int *, void **), "sqlite3changeset_invert")
    return fn ? fn(size, buffer, outSize, outBuffer) : SQLITE_MISUSE;
}

static inline int _strata_changegroup_new(void **group) {
    _STRATA_SESSION_FN(int (*)(void **), "sqlite3changegroup_new")
    return fn ? fn(group) : SQLITE_MISUSE;
}

static inline int _strata_changegroup_add(void *group, int size, void *buffer) {
    _STRATA_SESSION_FN(int (*)(void *, int, void *), "sqlite3changegroup_add")
    return fn ? fn(group, size, buffer) : SQLITE_MISUSE;
}

static inline int _strata_changegroup_output(void *group, int *size, void **buffer) {
    _STRATA_SESSION_FN(int (*)(void *, int *, void **), "sqlite3changegroup_output")
    return fn ? fn(group, size, buffer) : SQLITE_MISUSE;
}

static inline void _strata_changegroup_delete(void *group) {
    _STRATA_SESSION_FN(void (*)(void *), "sqlite3changegroup_delete")
    if (fn) fn(group);
}

static inline int _strata_changeset_apply(sqlite3 *db, int size, void *buffer, _strata_session_filter filter,
                                          _strata_session_conflict conflict, void *context) {
    _STRATA_SESSION_FN(int (*)(sqlite3 *, int, void *, _strata_session_filter, _strata_session_conflict, void *),
                       "sqlite3changeset_apply")
    return fn ? fn(db, size, buffer, filter, conflict, context) : SQLITE_MISUSE;
}

static inline int _strata_changeset_apply_v2(sqlite3 *db, int size, void *buffer, _strata_session_filter filter,
                                             _strata_session_conflict conflict, void *context, void **rebase,
                                             int *rebaseSize, int flags) {
    _STRATA_SESSION_FN(int (*)(sqlite3 *, int, void *, _strata_session_filter, _strata_session_conflict, void *,
                               void **, int *, int),
                       "sqlite3changeset_apply_v2")
    return fn ? fn(db, size, buffer, filter, conflict, context, rebase, rebaseSize, flags) : SQLITE_MISUSE;
}

static inline int _strata_rebaser_create(void **rebaser) {
    _STRATA_SESSION_FN(int (*)(void **), "sqlite3rebaser_create")
    return fn ? fn(rebaser) : SQLITE_MISUSE;
}

static inline int _strata_rebaser_configure(void *rebaser, int size, const void *buffer) {
    _STRATA_SESSION_FN(int (*)(void *, int, const void *), "sqlite3rebaser_configure")
    return fn ? fn(rebaser, size, buffer) : SQLITE_MISUSE;
}

static inline int _strata_rebaser_rebase(void *rebaser, int size, const void *buffer, int *outSize, void **outBuffer) {
    _STRATA_SESSION_FN(int (*)(void *, int, const void *, int *, void **), "sqlite3rebaser_rebase")
    return fn ? fn(rebaser, size, buffer, outSize, outBuffer) : SQLITE_MISUSE;
}

static inline void _strata_rebaser_delete(void *rebaser) {
    _STRATA_SESSION_FN(void (*)(void *), "sqlite3rebaser_delete")
    if (fn) fn(rebaser);
}

// The results of Strata's one-time checks of memory layouts (the literals of
// statement arguments, read in place), read at each insert. A C atomic costs
// a load where a lazy Swift global costs a `swift_once` call at each read.
// Results: 0 not checked yet, 1 the layout holds, 2 it does not. With a
// result, stores it; returns the result. Each object file that uses this
// function has its own copy of the storage: Strata calls it from one Swift
// file only (LiteralMemoryLayouts.swift), so that a result is stored where
// it is read.
static inline int _strata_layout_check_result(int check, int result) {
    static _Atomic int results[2];
    if (result) {
        atomic_store_explicit(&results[check], result, memory_order_relaxed);
        return result;
    }
    return atomic_load_explicit(&results[check], memory_order_relaxed);
}

/// Turns SQLite's memory statistics on or off for the process
/// (SQLITE_CONFIG_MEMSTATUS). Only works before SQLite is initialized.
static inline int _strata_config_memstatus(int on) {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, on);
}

#endif
