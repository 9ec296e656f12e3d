#ifndef PDFIMAGES_H
#define PDFIMAGES_H
// The images a PDF page draws, as the file stores them (qpdf's C API): their pixel size before anything
// decodes them, and the bytes of a JPEG as they are. See pdf_images.c for why.
#include <stddef.h>

typedef struct PDFImages PDFImages;

/// The largest image a page draws from its own resources.
typedef struct {
    int width, height;
    /// 1 when its data is one whole JPEG file: DCTDecode its only filter, no /Decode array, no mask.
    int isJPEG;
} PDFImageInfo;

/// Opens a PDF held in memory (the bytes are copied); NULL when qpdf cannot read it (it is then left to poppler).
PDFImages *PDFImages_open(const unsigned char *bytes, size_t length);
void PDFImages_close(PDFImages *images);

/// Page `index` (0-based): 1 and its largest image in `info`, or 0 when it has no image qpdf can measure.
int PDFImages_largest(PDFImages *images, int index, PDFImageInfo *info);

/// The stored bytes of page `index`'s largest image (malloc'd, the caller frees them), or NULL.
unsigned char *PDFImages_largestData(PDFImages *images, int index, size_t *length);

#endif
