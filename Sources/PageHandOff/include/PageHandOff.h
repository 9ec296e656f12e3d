#ifndef PAGEHANDOFF_H
#define PAGEHANDOFF_H
// Tesseract's SetImage keeps the page image it is handed instead of copying it (see page_hand_off.c).

/// TessBaseAPISetImage2(api, pix), with tesseract's copy of `pix` made a clone (a leptonica PIX *; the caller
/// still destroys its own reference afterwards).
void PageHandOff_setImage(void *api, void *pix);

/// How many page images tesseract was handed without a copy, in this process.
long PageHandOff_count(void);

#endif
