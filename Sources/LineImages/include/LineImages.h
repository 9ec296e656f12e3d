#ifndef LINEIMAGES_H
#define LINEIMAGES_H
// Tesseract keeps each text-line image it recognises as PNG and decodes it again at once; this target makes
// it keep them as uncompressed PNM, written and read a row at a time (see line_images.c).
#include <stddef.h>

/// How many images leptonica was asked to write as PNG and were written as PNM instead, in this process.
long LineImages_uncompressedCount(void);

/// Leptonica's own pixReadMem (not this target's), for tests that compare the two readers.
/// Returns a PIX *, to be destroyed by the caller.
void *LineImages_leptonicaReadMem(const unsigned char *data, size_t size);

#endif
