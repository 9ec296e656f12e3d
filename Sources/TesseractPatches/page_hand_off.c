// Page hand-off (tesseract_patches.h): tesseract keeps the page image it is handed instead of copying it.
//
// `ImageThresholder::SetImage` makes "our own copy, not just a clone of the input" (`Image::copy`, leptonica's
// `pixCopy`). `TesseractPatches_setImage` marks the one image it hands over, on the calling thread, for the
// length of the `TessBaseAPISetImage2` call: a request to copy exactly that image into a new one is answered
// with a clone (the same image, its reference count raised), once. The caller drops its own reference right
// after, so tesseract holds the only one, as it would hold its copy. Every other `pixCopy` goes on to
// leptonica's.
#include <leptonica/allheaders.h>
#include <tesseract/capi.h>
#include "tesseract_patches.h"
#include "internal.h"

typedef PIX *(*CopyFunction)(PIX *, const PIX *);

static _Thread_local const PIX *handingOver;
static CopyFunction leptonicaCopy;
static long handedOver;

PIX *pixCopy(PIX *pixd, const PIX *pixs) {
    if (pixd == NULL && pixs != NULL && pixs == handingOver) {
        handingOver = NULL;
        __atomic_add_fetch(&handedOver, 1, __ATOMIC_RELAXED);
        return pixClone((PIX *)pixs);
    }
    CopyFunction next = (CopyFunction)libraryFunction((void **)&leptonicaCopy, "pixCopy");
    return next == NULL ? NULL : next(pixd, pixs);  // NULL: leptonica's value for a failed copy
}

void TesseractPatches_setImage(void *api, void *pix) {
    handingOver = tesseractPatchOn(TesseractPatchPageHandOff) ? pix : NULL;
    TessBaseAPISetImage2((TessBaseAPI *)api, (PIX *)pix);
    handingOver = NULL;
}

long TesseractPatches_pagesHandedOver(void) { return __atomic_load_n(&handedOver, __ATOMIC_RELAXED); }
