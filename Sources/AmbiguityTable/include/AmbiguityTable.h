#ifndef AMBIGUITYTABLE_H
#define AMBIGUITYTABLE_H
// Tesseract builds a table of "universal" character ambiguities for every engine it loads; this target
// skips it (see ambiguity_table.c).

/// How many times tesseract asked for the table in this process (and did without it).
long AmbiguityTable_skippedCount(void);

#endif
