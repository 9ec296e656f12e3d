// Every TessBaseAPIInit builds tesseract's built-in table of "universal" character ambiguities
// (`UnicharAmbigs::LoadUniversal`, unconditionally in Debian's 5.3.0 build): it parses a built-in text and
// inserts each entry into sorted lists. perf put about 85 % of an engine load there (deu+eng 0.24 s, 0.025 s
// without), and the tables of a run's engines held about 55 MB. The table serves tesseract's legacy
// classifier and dictionary checks; Debian's models are LSTM-only (the legacy engine is absent), and reading
// without it gave identical words, boxes and confidences on all 144 devset documents (every pass) and on the
// 70 bench documents.
//
// As with `pixWriteMem` (LineImages), libtesseract calls the function through its PLT, and the executable's
// definition comes first in the dynamic linker's lookup: this one leaves the table empty.
#include "AmbiguityTable.h"

static long skipped;

// tesseract::UnicharAmbigs::LoadUniversal(UNICHARSET const&, UNICHARSET*)
void _ZN9tesseract13UnicharAmbigs13LoadUniversalERKNS_10UNICHARSETEPS1_(void *self, const void *encoderSet, void *unicharset) {
    (void)self; (void)encoderSet; (void)unicharset;
    __atomic_add_fetch(&skipped, 1, __ATOMIC_RELAXED);
}

long AmbiguityTable_skippedCount(void) { return __atomic_load_n(&skipped, __ATOMIC_RELAXED); }
