// Tesseract copies every page image it is given: `ImageThresholder::SetImage` makes "our own copy, not just a
// clone of the input" (`Image::copy`, leptonica's `pixCopy`). Shoebox fills a leptonica image for each read of
// a page (OCREngine.setImage) and destroys it as soon as tesseract has it, so the copy only costs a second
// page of memory for a moment, its page faults, and a pass over every pixel.
//
// This file defines `pixCopy`. As with `pixWriteMem` (LineImages), libtesseract calls it through its PLT and
// the executable's definition comes first. `PageHandOff_setImage` marks the one image it hands over, on the
// calling thread, for the length of the `TessBaseAPISetImage2` call: a request to copy exactly that image into
// a new one is answered with a clone (the same image, its reference count raised), once. Shoebox drops its own
// reference right after, so tesseract holds the only one, as it would hold its copy. Every other `pixCopy`
// goes on to leptonica's.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <leptonica/allheaders.h>
#include <tesseract/capi.h>
#include "PageHandOff.h"

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
    CopyFunction next = __atomic_load_n(&leptonicaCopy, __ATOMIC_ACQUIRE);
    if (next == NULL) {
        next = (CopyFunction)dlsym(RTLD_NEXT, "pixCopy");
        if (next == NULL) return NULL;  // leptonica's value for a failed copy
        __atomic_store_n(&leptonicaCopy, next, __ATOMIC_RELEASE);
    }
    return next(pixd, pixs);
}

void PageHandOff_setImage(void *api, void *pix) {
    handingOver = pix;
    TessBaseAPISetImage2((TessBaseAPI *)api, (PIX *)pix);
    handingOver = NULL;
}

long PageHandOff_count(void) { return __atomic_load_n(&handedOver, __ATOMIC_RELAXED); }
