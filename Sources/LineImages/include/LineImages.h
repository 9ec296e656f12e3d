#ifndef LINEIMAGES_H
#define LINEIMAGES_H
// Tesseract keeps each text-line image it recognises as PNG and decodes it again at once; this target makes
// it keep them uncompressed (see line_images.c).

/// How many images leptonica was asked to write as PNG and wrote as PNM instead, in this process.
long LineImages_uncompressedCount(void);

#endif
