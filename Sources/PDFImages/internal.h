#ifndef PDFIMAGES_INTERNAL_H
#define PDFIMAGES_INTERNAL_H
// Shared by the files of this target only.
#include <qpdf/qpdf-c.h>
#include "PDFImages.h"

/// The file read by qpdf (read now if it was not yet), or NULL when qpdf cannot read it.
qpdf_data PDFImages_ready(PDFImages *images);

#endif
