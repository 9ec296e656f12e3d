#ifndef TESSERACT_PATCHES_H
#define TESSERACT_PATCHES_H
// Three changes to how tesseract 5.3.0 and leptonica behave inside Shoebox: the same words, boxes and
// confidences, less CPU and memory.
//
// How. This target is linked into the shoebox executable and defines functions that libtesseract calls in
// other libraries (or in itself): leptonica's `pixWriteMem`, `pixReadMem` and `pixCopy`, and tesseract's own
// `tesseract::UnicharAmbigs::LoadUniversal` by its mangled name. A shared library calls a function with default
// visibility through its PLT, and the dynamic linker resolves that entry to the first definition in load
// order: the executable's comes before every library's, so libtesseract's calls land here. Each definition
// does its work only for the requests it was written for, and hands every other call on to the library's own
// function (`dlsym(RTLD_NEXT, …)`). The definitions apply to the whole process, so they stay inert until
// `TesseractPatches_setEnabled` turns them on.
//
// The mechanism breaks silently when a build changes: a libtesseract linked with `-Bsymbolic-functions` or LTO
// calls its own functions directly, a static leptonica is not reached through a PLT, a new tesseract renames or
// re-signs `LoadUniversal` or stops calling these functions. Every patch therefore counts the calls it answers,
// and Shoebox checks at start-up (ShoeboxEngines/TesseractPatches.swift), on a small page read by a real
// engine, that each count moves; a patch whose count does not move is switched off. It turns them on only for
// the tesseract version they were written for (TessVersion), and not at all when the environment variable
// SHOEBOX_TESSERACT_PATCHES is `off`. Switched off, every call goes to the library's own function: tesseract
// does exactly what it does without this target, a little slower.
//
// The patches:
// - Line images (line_images.c). Tesseract hands each text line it recognises to its LSTM as an `ImageData`,
//   which stores the line's image PNG-compressed (`pixWriteMem(…, IFF_PNG)`) and decodes it again at once
//   (`pixReadMem`): zlib and libpng work for nothing inside every recognition. A PNG request for a 1- or
//   8-bit image without a colour map is answered with an uncompressed PNM that carries a comment of its own,
//   written and read back here a row at a time: the same pixels.
// - Page hand-off (page_hand_off.c). `ImageThresholder::SetImage` copies the page image it is given
//   (`pixCopy`). Shoebox fills a page image for each read and drops it right after `SetImage`, so the copy
//   only costs a second page of memory and a pass over every pixel: the one image Shoebox is handing over, on
//   the calling thread, is answered with a clone (its reference count raised) instead.
// - Ambiguity table (ambiguity_table.c). Every engine load builds tesseract's table of "universal" character
//   ambiguities (`UnicharAmbigs::LoadUniversal`): most of a load's CPU, and tens of megabytes for a run's
//   engines. Only the legacy engine uses it. It is left empty only while `TesseractPatches_init` loads
//   languages whose models are LSTM-only, and only if tesseract then runs them LSTM-only; any other load
//   (the legacy OSD model, a model that carries the legacy engine) builds it as tesseract does.
#include <stddef.h>

/// The patches, as bits of a mask.
enum {
    TesseractPatchLineImages = 1,
    TesseractPatchPageHandOff = 2,
    TesseractPatchAmbiguityTable = 4,
};

/// Turns on the patches in `mask` and off the others (all are off until this is called).
void TesseractPatches_setEnabled(int mask);

/// The patches turned on.
int TesseractPatches_enabled(void);

/// Calls each patch answered in this process: line images written as PNM, and read back; page images handed
/// to tesseract without a copy; universal ambiguity tables left unbuilt.
long TesseractPatches_lineImagesWritten(void);
long TesseractPatches_lineImagesRead(void);
long TesseractPatches_pagesHandedOver(void);
long TesseractPatches_ambiguityTablesSkipped(void);

/// TessBaseAPIInit3(api, dataPath, languages). With the ambiguity-table patch on and `lstmOnlyLanguages` > 0
/// (the number of languages named, each of whose models holds only the LSTM engine), up to that many of the
/// load's universal ambiguity tables are left unbuilt; if tesseract then does not run LSTM-only, it is loaded
/// again with every table built. Returns Init3's result (0 when loaded).
int TesseractPatches_init(void *api, const char *dataPath, const char *languages, int lstmOnlyLanguages);

/// TessBaseAPISetImage2(api, pix), with tesseract's copy of `pix` (a leptonica PIX *) made a clone when the
/// page hand-off patch is on. The caller still destroys its own reference afterwards.
void TesseractPatches_setImage(void *api, void *pix);

/// Leptonica's own pixReadMem (not this target's), for tests that compare the two readers.
/// Returns a PIX *, to be destroyed by the caller.
void *TesseractPatches_leptonicaReadMem(const unsigned char *data, size_t size);

#endif
