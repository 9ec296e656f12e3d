#include <archive.h>
#include <archive_entry.h>
// AE_IFREG is a macro that does not import.
static const unsigned int CArchive_AE_IFREG = 0100000;
