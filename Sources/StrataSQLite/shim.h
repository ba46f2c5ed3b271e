#ifndef STRATA_SQLITE_SHIM_H
#define STRATA_SQLITE_SHIM_H
#include <sqlite3.h>

// SQLITE_TRANSIENT is a macro that Swift cannot import: expose it as a function.
static inline sqlite3_destructor_type _strata_sqlite_transient(void) {
    return SQLITE_TRANSIENT;
}

// Variadic SQLite functions can't be called from Swift: these wrappers can.

static inline int _strata_config_log(void (*callback)(void *, int, const char *), void *arg) {
    return sqlite3_config(SQLITE_CONFIG_LOG, callback, arg);
}

static inline int _strata_db_config_int(sqlite3 *db, int op, int value) {
    return sqlite3_db_config(db, op, value, (int *)0);
}
#endif
