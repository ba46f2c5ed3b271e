#ifndef STRATA_SQLITE_SHIM_H
#define STRATA_SQLITE_SHIM_H
#include <sqlite3.h>

// SQLITE_TRANSIENT is a macro that Swift cannot import: expose it as a function.
static inline sqlite3_destructor_type _strata_sqlite_transient(void) {
    return SQLITE_TRANSIENT;
}
#endif
