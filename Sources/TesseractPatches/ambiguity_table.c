// Ambiguity table (tesseract_patches.h): the universal ambiguities left unbuilt for LSTM-only models.
//
// `Tesseract::init_tesseract_lang_data` calls `UnicharAmbigs::LoadUniversal` for every language it loads,
// whatever the engine mode: it parses a built-in text and inserts each entry into sorted lists. The table
// serves the legacy classifier and its dictionary checks; an LSTM-only model never reads it. This definition
// leaves it empty only inside `TesseractPatches_init`, on its thread, as many times as it was told the
// languages it loads are LSTM-only; every other call goes on to tesseract's own function.
#include <tesseract/capi.h>
#include "tesseract_patches.h"
#include "internal.h"

// tesseract::UnicharAmbigs::LoadUniversal(UNICHARSET const&, UNICHARSET*): `this` comes first.
#define LOAD_UNIVERSAL "_ZN9tesseract13UnicharAmbigs13LoadUniversalERKNS_10UNICHARSETEPS1_"
typedef void (*LoadUniversalFunction)(void *, const void *, void *);

void _ZN9tesseract13UnicharAmbigs13LoadUniversalERKNS_10UNICHARSETEPS1_(void *self, const void *encoderSet, void *unicharset);

static _Thread_local int skipsAllowed, skippedHere;
static LoadUniversalFunction tesseractLoadUniversal;
static long skipped;

void _ZN9tesseract13UnicharAmbigs13LoadUniversalERKNS_10UNICHARSETEPS1_(void *self, const void *encoderSet, void *unicharset) {
    if (skipsAllowed > 0) {
        skipsAllowed--;
        skippedHere++;
        __atomic_add_fetch(&skipped, 1, __ATOMIC_RELAXED);
        return;
    }
    LoadUniversalFunction next = (LoadUniversalFunction)libraryFunction((void **)&tesseractLoadUniversal, LOAD_UNIVERSAL);
    if (next != NULL) next(self, encoderSet, unicharset);
}

int TesseractPatches_init(void *api, const char *dataPath, const char *languages, int lstmOnlyLanguages) {
    TessBaseAPI *handle = api;
    skipsAllowed = tesseractPatchOn(TesseractPatchAmbiguityTable) && lstmOnlyLanguages > 0 ? lstmOnlyLanguages : 0;
    skippedHere = 0;
    int status = TessBaseAPIInit3(handle, dataPath, languages);
    skipsAllowed = 0;
    if (status == 0 && skippedHere > 0) {
        // The models said LSTM-only; if tesseract runs another mode all the same (a config inside a model can
        // ask for one), the table may be read: load again, building every table.
        int mode = -1;
        if (!TessBaseAPIGetIntVariable(handle, "tessedit_ocr_engine_mode", &mode) || mode != OEM_LSTM_ONLY) {
            TessBaseAPIEnd(handle);
            status = TessBaseAPIInit3(handle, dataPath, languages);
        }
    }
    return status;
}

long TesseractPatches_ambiguityTablesSkipped(void) { return __atomic_load_n(&skipped, __ATOMIC_RELAXED); }
