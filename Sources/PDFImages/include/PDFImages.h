#ifndef PDFIMAGES_H
#define PDFIMAGES_H
// The images a PDF page draws, as the file stores them (qpdf's C API): their pixel size before anything
// decodes them, a JPEG's bytes as they are, fax data as a TIFF, Flate pixels decoded row by row. See
// pdf_images.c for why.
#include <stddef.h>

typedef struct PDFImages PDFImages;

/// The largest image a page draws from its own resources.
typedef struct {
    int width, height;
    /// How its data is stored, when it can be decoded without poppler (no /Decode array, no mask, not a stencil):
    /// 1 one whole JPEG file of gray or RGB (DCTDecode its only filter, no /DecodeParms), 2 CCITT fax (its only
    /// filter, 1 bit a pixel), 3 Flate-compressed gray (1 or 8 bits) or RGB (8 bits) pixels, with or without PNG
    /// predictors; else 0.
    int kind;
} PDFImageInfo;

enum { PDFImageOther = 0, PDFImageJPEG = 1, PDFImageCCITT = 2, PDFImageFlate = 3 };

/// Keeps a copy of a PDF held in memory for qpdf, which reads it when first asked (NULL when out of memory).
/// A file qpdf cannot read has no images to tell of: it is left to poppler.
PDFImages *PDFImages_open(const unsigned char *bytes, size_t length);
void PDFImages_close(PDFImages *images);

/// Page `index` (0-based): 1 and its largest image in `info`, or 0 when it has no image qpdf can measure.
int PDFImages_largest(PDFImages *images, int index, PDFImageInfo *info);

/// Page `index`'s largest image as a file an image reader takes (malloc'd, the caller frees it), or NULL: a
/// JPEG's stored bytes as they are, CCITT fax data inside a one-strip TIFF that says how it is coded.
unsigned char *PDFImages_largestFile(PDFImages *images, int index, size_t *length);

/// Page `index`'s largest image when it is of kind 3, decoded row by row into a leptonica image: 1 bit a pixel
/// for 1-bit gray, else 8-bit gray (RGB as 0.299 R + 0.587 G + 0.114 B, as Shoebox turns poppler's pixels
/// gray). NULL when the data does not decode to the size the dictionary states. The caller destroys it.
void *PDFImages_largestPix(PDFImages *images, int index);  // a leptonica PIX *

/// The largest image page `index` may draw anywhere, as declared (its /Width and /Height, or an inline image's
/// /W and /H, however absurd): in the page's resources, in form XObjects, patterns, Type 3 glyphs and soft masks
/// under them (to any depth, each object once), in its annotations' appearances, and inline in any of their
/// content streams. Poppler aborts the process on some images of absurd sizes ("Bogus memory allocation size")
/// before any limit of Shoebox's could look at them; this is that look. 1 and the size when the page has an
/// image, 0 when it has none or qpdf cannot read the file, -1 when the page names an image or form object qpdf
/// cannot read (damaged: poppler may repair it and draw it at a size nobody checked) (declared_sizes.c).
int PDFImages_declaredLargest(PDFImages *images, int index, long long *width, long long *height);

#endif
