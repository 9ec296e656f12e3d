#ifndef GRAYJPEG_H
#define GRAYJPEG_H
// A JPEG decoded straight to 8-bit gray, as leptonica's reader followed by its RGB-to-gray conversion gives it
// (see gray_jpeg.c).
#include <stddef.h>

/// The JPEG in `data` as an 8-bit leptonica PIX * (the caller destroys it), or NULL when it is neither gray
/// nor RGB/YCbCr or cannot be decoded.
void *GrayJPEG_read(const unsigned char *data, size_t size);

#endif
