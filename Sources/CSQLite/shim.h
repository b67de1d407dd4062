// Debian's SQLite (libsqlite3-dev): the library index's storage.
#include <sqlite3.h>
