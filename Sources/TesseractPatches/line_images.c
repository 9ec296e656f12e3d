// Line images (tesseract_patches.h): tesseract's PNG request for each text line's image is answered with PNM.
//
// A PNG request for a 1- or 8-bit image without colour map is answered with PNM: the same pixels,
// uncompressed, as tesseract itself does when leptonica lacks PNG ("In case of missing PNG support in
// Leptonica use PNM format, which requires more memory"; a line image is a few hundred kilobytes at most).
// Leptonica's own PNM writer and reader move every byte with a call of `fwrite` or `fread` on a memory stream,
// so this file writes and reads that PNM itself, a row at a time. Its header carries a comment of its own
// ("# shoebox line"): only what this file wrote is read here; any other image goes on to leptonica's
// `pixReadMem`, and any other request to leptonica's `pixWriteMem`. Shoebox itself writes no image with it.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <leptonica/allheaders.h>
#include "tesseract_patches.h"
#include "internal.h"

typedef l_ok (*WriteMem)(l_uint8 **, size_t *, PIX *, l_int32);
typedef PIX *(*ReadMem)(const l_uint8 *, size_t);

static long written, read;
static WriteMem leptonicaWriteMem;
static ReadMem leptonicaReadMem;

static const char gray8[] = "P5\n# shoebox line\n", bilevel[] = "P4\n# shoebox line\n";

// Bytes of a PNM row: 8 bits a pixel, or 1 bit a pixel (set = black, as in leptonica) padded to a byte.
static size_t rowBytes(l_int32 width, l_int32 depth) { return depth == 8 ? (size_t)width : ((size_t)width + 7) / 8; }

// Leptonica keeps each row as 32-bit words whose bytes, on a little-endian machine, are in reverse order
// (platform notes): the n-th byte of a row is the n-th of PNM's, once each word is swapped.
static void swapWords(l_uint32 *words, l_int32 count) {
    for (l_int32 i = 0; i < count; i++) words[i] = __builtin_bswap32(words[i]);
}

static l_ok writePNM(l_uint8 **pdata, size_t *psize, PIX *pix) {
    l_int32 width = pixGetWidth(pix), height = pixGetHeight(pix), depth = pixGetDepth(pix), wpl = pixGetWpl(pix);
    char header[96];
    int length = snprintf(header, sizeof header, depth == 8 ? "%s%d %d\n255\n" : "%s%d %d\n", depth == 8 ? gray8 : bilevel,
                          width, height);
    size_t bytes = rowBytes(width, depth);
    l_uint8 *out = malloc((size_t)length + bytes * (size_t)height);
    l_uint32 *row = malloc((size_t)wpl * 4);
    if (out == NULL || row == NULL || length <= 0 || (size_t)length >= sizeof header) {
        free(out);
        free(row);
        return 1;
    }
    memcpy(out, header, (size_t)length);
    l_uint32 *data = pixGetData(pix);
    for (l_int32 y = 0; y < height; y++) {
        memcpy(row, data + (size_t)y * (size_t)wpl, (size_t)wpl * 4);
        swapWords(row, wpl);
        memcpy(out + length + (size_t)y * bytes, row, bytes);
    }
    free(row);
    *pdata = out;  // tesseract frees it with lept_free, which is free
    *psize = (size_t)length + bytes * (size_t)height;
    return 0;
}

l_ok pixWriteMem(l_uint8 **pdata, size_t *psize, PIX *pix, l_int32 format) {
    if (format == IFF_PNG && tesseractPatchOn(TesseractPatchLineImages) && pix != NULL && pdata != NULL && psize != NULL && pixGetColormap(pix) == NULL
        && (pixGetDepth(pix) == 8 || pixGetDepth(pix) == 1) && pixGetWidth(pix) > 0 && pixGetHeight(pix) > 0) {
        l_ok status = writePNM(pdata, psize, pix);
        if (status == 0) __atomic_add_fetch(&written, 1, __ATOMIC_RELAXED);
        return status;
    }
    WriteMem next = (WriteMem)libraryFunction((void **)&leptonicaWriteMem, "pixWriteMem");
    return next == NULL ? 1 : next(pdata, psize, pix, format);  // 1: leptonica's error value
}

// The decimal number at data[*at] followed by `end` (moving *at past both), or -1.
static long number(const l_uint8 *data, size_t size, size_t *at, char end) {
    long value = 0;
    size_t i = *at;
    while (i < size && i - *at < 8 && data[i] >= '0' && data[i] <= '9') value = value * 10 + (data[i++] - '0');
    if (i == *at || i >= size || data[i] != end) return -1;
    *at = i + 1;
    return value;
}

// A PNM that writePNM made, read back as leptonica's PNM reader would: the same pixels, depth and input
// format, pad bits cleared, no resolution. NULL when `data` is anything else.
static PIX *readPNM(const l_uint8 *data, size_t size) {
    l_int32 depth;
    size_t prefix = sizeof gray8 - 1;
    if (size > prefix && memcmp(data, gray8, prefix) == 0) depth = 8;
    else if (size > prefix && memcmp(data, bilevel, prefix) == 0) depth = 1;
    else return NULL;
    // Exactly what writePNM writes: "<width> <height>\n", then "255\n" for gray. (scanf's "\n" would also
    // swallow pixels that happen to be white space.)
    size_t used = prefix;
    long width = number(data, size, &used, ' '), height = number(data, size, &used, '\n');
    if (width <= 0 || height <= 0 || width > 1 << 20 || height > 1 << 20) return NULL;
    if (depth == 8 && number(data, size, &used, '\n') != 255) return NULL;
    size_t bytes = rowBytes((l_int32)width, depth), offset = used;
    if (size != offset + bytes * (size_t)height) return NULL;
    PIX *pix = pixCreateNoInit((l_int32)width, (l_int32)height, depth);
    if (pix == NULL) return NULL;
    l_uint32 *pixels = pixGetData(pix);
    l_int32 wpl = pixGetWpl(pix);
    for (l_int32 y = 0; y < height; y++) {
        l_uint32 *row = pixels + (size_t)y * (size_t)wpl;
        row[wpl - 1] = 0;
        memcpy(row, data + offset + (size_t)y * bytes, bytes);
        swapWords(row, wpl);
    }
    pixSetInputFormat(pix, IFF_PNM);
    pixSetPadBits(pix, 0);
    return pix;
}

PIX *pixReadMem(const l_uint8 *data, size_t size) {
    // Read here even when the patch is off: a PNM this file wrote before is still read as it was written.
    if (data != NULL) {
        PIX *pix = readPNM(data, size);
        if (pix != NULL) {
            __atomic_add_fetch(&read, 1, __ATOMIC_RELAXED);
            return pix;
        }
    }
    ReadMem next = (ReadMem)libraryFunction((void **)&leptonicaReadMem, "pixReadMem");
    return next == NULL ? NULL : next(data, size);
}

long TesseractPatches_lineImagesWritten(void) { return __atomic_load_n(&written, __ATOMIC_RELAXED); }

long TesseractPatches_lineImagesRead(void) { return __atomic_load_n(&read, __ATOMIC_RELAXED); }

void *TesseractPatches_leptonicaReadMem(const unsigned char *data, size_t size) {
    ReadMem next = (ReadMem)libraryFunction((void **)&leptonicaReadMem, "pixReadMem");
    return next == NULL ? NULL : next(data, size);
}
