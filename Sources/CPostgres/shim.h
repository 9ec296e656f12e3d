// libpq, PostgreSQL's client library (Debian's libpq-dev, pkg-config libpq): the PostgreSQL store.
#include <libpq-fe.h>
